"""The 22 Nimalia objectives (data), the round card, and how a match picks its four objectives.

Objectives ``2k - 1`` and ``2k`` are the two sides of physical card ``k`` (1 to 11, lettered A to
K); a match never uses both sides of one card. Levels: E easy, M medium, D difficult. An
objective that compares players ("compare") cannot be used in the solo variant.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.kit.protocol import InvalidConfig

YELLOW, BLUE, GREEN, RED = "yellow", "blue", "green", "red"
COLOURS = (YELLOW, BLUE, GREEN, RED)
LEVELS = ("E", "M", "D")


@dataclass(frozen=True)
class Objective:
    id: int
    colour: str
    level: str
    compares: bool
    name: str
    text: str

    @property
    def card(self) -> int:
        """The physical card (1 to 11) this objective is printed on."""
        return (self.id + 1) // 2

    @property
    def card_letter(self) -> str:
        return "ABCDEFGHIJK"[self.card - 1]

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "colour": self.colour, "level": self.level, "name": self.name,
                "text": self.text, "card": self.card_letter, "compares_players": self.compares}


def _objective(id: int, colour: str, level: str, name: str, text: str,
               compares: bool = False) -> Objective:
    return Objective(id=id, colour=colour, level=level, compares=compares, name=name, text=text)


OBJECTIVES: dict[int, Objective] = {o.id: o for o in (
    _objective(1, YELLOW, "M", "Otter's neighbours",
               "For each otter, every species with 2 or more squares next to it scores 1 per "
               "such square."),
    _objective(2, BLUE, "D", "Otters flow into a lake",
               "2 per otter whose river touches a lake square at one of its two ends."),
    _objective(3, BLUE, "E", "Forest patches", "2 per separate forest zone."),
    _objective(4, YELLOW, "E", "Gorillas by the lake", "2 per gorilla next to a lake square."),
    _objective(5, BLUE, "E", "Largest savannah", "2 per square of your largest savannah zone."),
    _objective(6, YELLOW, "M", "Savannahs of exactly four",
               "6 per savannah zone of exactly 4 squares."),
    _objective(7, YELLOW, "M", "Ice 2x2", "4 per 2x2 block of ice squares (blocks may overlap)."),
    _objective(8, GREEN, "E", "Polar bear groups",
               "2 per polar bear in a group of 2 or more; -1 per lone polar bear."),
    _objective(9, BLUE, "D", "Weakest terrain",
               "2 per square of the terrain you have fewest of."),
    _objective(10, YELLOW, "D", "Full square",
               "Largest fully covered k x k square: 2 -> 3, 3 -> 5, 4 -> 8, 5 -> 13, 6 -> 21."),
    _objective(11, BLUE, "M", "Four-terrain rows", "3 per row showing all four terrains."),
    _objective(12, GREEN, "M", "Horizontal pairs",
               "3 per horizontal run of exactly 2 identical animals."),
    _objective(13, RED, "E", "Few giraffes", "Giraffes: 0 -> 8, 1 -> 5, 2 -> 3, 3 or more -> 0."),
    _objective(14, GREEN, "M", "Inland flamingos",
               "3 per flamingo not on the edge of the reserve."),
    _objective(15, YELLOW, "D", "Long river",
               "Longest river of L otters: L(L-1)/2 points, at most 15."),
    _objective(16, RED, "M", "Longest river race",
               "Longest river: 1st +5, 2nd +2 (3-4 players). No river, no award.", compares=True),
    _objective(17, GREEN, "M", "Pandas on the edge", "3 per panda on the edge of the reserve."),
    _objective(18, RED, "M", "Gorillas yes, pandas no",
               "Most gorillas: 1st +5, 2nd +2. Most pandas: 1st -5, 2nd -2. Seconds with 3-4 "
               "players.", compares=True),
    _objective(19, GREEN, "E", "Lone penguins", "3 per column with exactly one penguin."),
    _objective(20, RED, "E", "Fewest lions",
               "Fewest lions (everyone tied for fewest) +3; everyone else -2.", compares=True),
    _objective(21, RED, "M", "Crocodiles yes, flamingos no",
               "Most crocodiles: 1st +5, 2nd +2. Fewest flamingos: 1st +5, 2nd +2. Seconds with "
               "3-4 players.", compares=True),
    _objective(22, GREEN, "M", "Crocodiles meet giraffes",
               "2 per crocodile next to a giraffe."),
)}

FIRST_GAME = (4, 5, 16, 19)
# Solo keeps the first-game set but swaps the comparing red 16 for 13, the only solo red.
SOLO_RED = 13

# The round card: the colours scored at the end of each round, in scoring order (the running
# total is floored at 0 after each objective, so the order matters), and where hands go.
ROUND_COLOURS: dict[int, tuple[str, ...]] = {
    1: (BLUE, GREEN),
    2: (GREEN, YELLOW),
    3: (BLUE, RED),
    4: (GREEN, YELLOW, RED),
    5: (BLUE, RED, YELLOW),
}
LEFT, RIGHT = "left", "right"
PASS_DIRECTION = {1: LEFT, 2: RIGHT, 3: LEFT, 4: RIGHT, 5: LEFT}

SELECTIONS = ("random", "easy", "hard", "first_game")
_SELECTION_LEVELS = {"random": {"E", "M", "D"}, "easy": {"E", "M"}, "hard": {"M", "D"}}


def valid_sets(levels: set[str], solo: bool) -> list[tuple[int, ...]]:
    """Every admissible objective set (ids in colour order yellow, blue, green, red).

    One objective per colour, no two sides of one physical card, levels within ``levels``; solo
    sets use no comparing objective, so red is always 13 there and the level filter leaves red
    alone (13 is the only solo red).
    """
    by_colour = []
    for colour in COLOURS:
        ids = [o.id for o in OBJECTIVES.values() if o.colour == colour
               and (o.level in levels or (solo and colour == RED))
               and not (solo and o.compares)]
        by_colour.append(ids)
    return [combo for combo in itertools.product(*by_colour)
            if len({OBJECTIVES[i].card for i in combo}) == len(COLOURS)]


def select_objectives(option: Any, num_players: int, rng: random.Random) -> tuple[int, ...]:
    """The match's four objectives (colour order) from the ``objectives`` option.

    Raises :class:`InvalidConfig` for an unknown selection or an explicit list that is not one
    objective per colour on four different physical cards (none comparing players in solo).
    """
    solo = num_players == 1
    if isinstance(option, str):
        if option == "first_game":
            chosen = [SOLO_RED if solo and OBJECTIVES[i].compares else i for i in FIRST_GAME]
            return _in_colour_order(chosen)
        if option not in _SELECTION_LEVELS:
            raise InvalidConfig(
                f"Option objectives: must be one of {list(SELECTIONS)} or a list of 4 ids.",
                option="objectives")
        return rng.choice(valid_sets(_SELECTION_LEVELS[option], solo))
    return _checked_list(option, solo)


def _checked_list(option: Any, solo: bool) -> tuple[int, ...]:
    def bad(why: str) -> InvalidConfig:
        return InvalidConfig(f"Option objectives: {why}", option="objectives")

    if not isinstance(option, Sequence) or isinstance(option, str | bytes) or len(option) != 4:
        raise bad(f"must be one of {list(SELECTIONS)} or a list of 4 ids.")
    for value in option:
        if isinstance(value, bool) or not isinstance(value, int) or value not in OBJECTIVES:
            raise bad(f"{value!r} is not an objective id (1 to 22).")
    chosen = [OBJECTIVES[value] for value in option]
    if sorted(o.colour for o in chosen) != sorted(COLOURS):
        raise bad("needs exactly one objective of each colour (yellow, blue, green, red).")
    if len({o.card for o in chosen}) != 4:
        raise bad("cannot use both sides of one objective card.")
    if solo and any(o.compares for o in chosen):
        raise bad("the solo game cannot use objectives that compare players (16, 18, 20, 21).")
    return _in_colour_order(option)


def _in_colour_order(ids: Sequence[int]) -> tuple[int, ...]:
    return tuple(sorted(ids, key=lambda i: COLOURS.index(OBJECTIVES[i].colour)))


def round_objectives(objectives: Sequence[int], round_number: int) -> tuple[int, ...]:
    """The objective ids scored at the end of ``round_number``, in scoring order."""
    by_colour = {OBJECTIVES[i].colour: i for i in objectives}
    return tuple(by_colour[colour] for colour in ROUND_COLOURS[round_number])
