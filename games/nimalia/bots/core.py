"""What the Nimalia bots share: reading a view, placing cards, weighing objectives.

Everything here reads only a seat's view and scores with the engine's own objective scorers.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.nimalia.cards import CARD_OFFSETS, ROTATED, Square
from games.nimalia.grid import Cell
from games.nimalia.scoring import COMPARE_SCORERS, OWN_SCORERS

Grid = dict[Cell, Square]
Placement = tuple[int, int, int, int]  # card, row, col, rotation

UNDO: dict[str, Any] = {"undo": True}

# --------------------------------------------------------------------------- reading the view


def grid_of(reserve: Mapping[str, Any]) -> Grid:
    """A reserve's visible squares, as the engine's scorers read them."""
    return {(sq["row"], sq["col"]): Square(sq["animal"], sq["terrain"], sq["river"] or "")
            for sq in reserve["squares"]}


def place(grid: Mapping[Cell, Square], placement: Placement) -> Grid:
    """The grid with one more card on top."""
    card, row, col, rotation = placement
    new = dict(grid)
    for square, (dr, dc) in zip(ROTATED[card, rotation], CARD_OFFSETS, strict=True):
        new[row + dr, col + dc] = square
    return new


@dataclass(frozen=True)
class Position:
    """What a seat knows when it must place: everything here comes from its view."""

    seat: int
    players: int
    round: int
    rounds: int
    turn: int                                   # 1 .. 3 within the round
    objectives: tuple[int, ...]
    schedule: dict[int, tuple[int, ...]]        # round -> objective ids scored, in order
    hand: tuple[int, ...]
    grids: tuple[Grid, ...]                     # every seat's visible squares
    cards: tuple[int, ...]                      # legal: hand cards ...
    rotations: tuple[int, ...]                  # ... turned any of these ways ...
    anchors: tuple[Cell, ...]                   # ... at any of these anchors
    pass_direction: str | None
    visible_cards: frozenset[int]               # card ids shown in some reserve or in the hand
    hand_sizes: tuple[int, ...]                 # cards each seat holds, a pending one included

    @classmethod
    def from_view(cls, view: Mapping[str, Any], seat: int) -> Position:
        legal = view.get("legal_moves") or {}
        reserves = view["reserves"]
        hand = tuple(card["id"] for card in view.get("hand", ()))
        shown = {card for reserve in reserves for card in reserve["cards"]}
        return cls(
            seat=seat,
            players=view["players"],
            round=view["round"],
            rounds=view["rounds"],
            turn=view["turn"],
            objectives=tuple(o["id"] for o in view["objectives"]),
            schedule={entry["round"]: tuple(entry["objectives"])
                      for entry in view["round_card"]},
            hand=hand,
            grids=tuple(grid_of(reserve) for reserve in reserves),
            cards=tuple(legal.get("cards", ())),
            rotations=tuple(legal.get("rotations", ())),
            anchors=tuple((row, col) for row, col in legal.get("anchors", ())),
            pass_direction=view.get("pass_direction"),
            visible_cards=frozenset(shown | set(hand)),
            hand_sizes=tuple(view.get("hand_sizes", ())),
        )

    def placements(self) -> list[Placement]:
        return [(card, row, col, rotation)
                for card in self.cards
                for rotation in self.rotations
                for row, col in self.anchors]

    def later_rounds(self) -> range:
        return range(self.round + 1, self.rounds + 1)


def must_undo(view: Mapping[str, Any]) -> bool:
    """True when taking back the pending placement is the only legal move."""
    legal = view.get("legal_moves") or {}
    return bool(legal.get("undo")) and not legal.get("cards")


def as_move(placement: Placement) -> dict[str, int]:
    card, row, col, rotation = placement
    return {"card": card, "row": row, "col": col, "rotation": rotation}


# --------------------------------------------------------------------------- evaluation


def objective_weights(position: Position, later_weight: float) -> dict[int, float]:
    """How much one point of each objective is worth now.

    An objective scored at the end of this round counts fully; each later scoring of it counts
    ``later_weight``.
    """
    weights = dict.fromkeys(position.objectives, 0.0)
    for oid in position.schedule.get(position.round, ()):
        weights[oid] += 1.0
    for number in position.later_rounds():
        for oid in position.schedule.get(number, ()):
            weights[oid] += later_weight
    return {oid: w for oid, w in weights.items() if w}


def weighted_points(weights: Mapping[int, float], grid: Grid, seat: int,
                    grids: Sequence[Grid]) -> float:
    """Weighted objective points of ``grid`` in ``seat``, against the other seats' ``grids``."""
    total = 0.0
    for oid, weight in weights.items():
        own = OWN_SCORERS.get(oid)
        if own is not None:
            total += weight * own(grid)
        else:
            everyone = list(grids)
            everyone[seat] = grid
            total += weight * COMPARE_SCORERS[oid](everyone)[seat]
    return total


def best_of(scored: Iterable[tuple[float, Placement]], rng: random.Random,
            tolerance: float = 1e-9) -> Placement:
    """The placement with the highest value; ties broken by ``rng``."""
    ranked = sorted(scored, key=lambda item: item[0], reverse=True)
    top = ranked[0][0]
    tied = [placement for value, placement in ranked if value >= top - tolerance]
    tied.sort()
    return tied[rng.randrange(len(tied))] if len(tied) > 1 else tied[0]
