"""Nibble for newcomers: presets, the options in players' words, rules-page pictures and a short
scripted first match (see ``games.kit.learn``)."""

from __future__ import annotations

from typing import Any

from games.kit.learn import (
    Example,
    Learning,
    OptionWords,
    Preset,
    Tutorial,
    TutorialStep,
    gettext_noop,
)
from games.kit.protocol import JSON

SEED = "tutorial"
CONFIG = {"first_seat": 0, "color_order": [0, 1, 2, 3, 4, 5, 6, 7, 8]}

PRESETS = (
    Preset("first_game", gettext_noop("First game"),
           gettext_noop("You move first, and the match stops as soon as the winner is "
                        "settled."),
           {"first_seat": 0, "early_finish": True}),
    Preset("quick", gettext_noop("Quick"),
           gettext_noop("Colour table and first player drawn at random; the match stops as "
                        "soon as the winner is settled."), {"early_finish": True}),
    Preset("standard", gettext_noop("Standard"),
           gettext_noop("The full game: colour table and first player drawn at random, played "
                        "until an instant win or the last disc."), {}),
)

OPTION_WORDS = {
    "color_order": OptionWords(
        gettext_noop("Colour table order"),
        gettext_noop("The order of the nine colours on the colour table, which decides which "
                     "colours are neighbours for the 'seven of three neighbouring colours' "
                     "win. Leave it empty for a random order (recommended); otherwise a list "
                     "of the colour numbers 0-8, each once.")),
    "first_seat": OptionWords(
        gettext_noop("Who moves first"),
        gettext_noop("Leave it empty to draw the first player at random."),
        {"0": gettext_noop("Seat 1 moves first"), "1": gettext_noop("Seat 2 moves first")}),
    "early_finish": OptionWords(
        gettext_noop("Stop when the winner is settled"),
        gettext_noop("End the match as soon as one player can no longer lose (the full game "
                     "would give the same winner)."),
        {"true": gettext_noop("Yes, stop early"), "false": gettext_noop("No, play to the end")}),
}


def _narrow(legal: Any, move: JSON) -> Any:
    """Only the discs of the suggested take stay marked as takeable."""
    if not isinstance(legal, dict):
        return legal
    cells = [list(cell) for cell in move["take"]]
    takeable = {colour: [cell for cell in listed if list(cell) in cells]
                for colour, listed in legal.get("takeable", {}).items()}
    return {"takeable": {colour: listed for colour, listed in takeable.items() if listed}}


TUTORIAL = Tutorial(
    seed=SEED, players=2, config=CONFIG, names=(gettext_noop("You"), gettext_noop("Tutor")),
    intro=gettext_noop(
        "Nibble is played on a 9 by 9 board of coloured discs, nine of each colour. On your "
        "turn you take one or more discs, all of one colour, and keep them. You win at once "
        "with all nine discs of a colour, or with seven or more of three colours that stand "
        "next to each other on the colour table. If the board runs empty first, whoever holds "
        "the most of five colours or more wins."),
    steps=(
        TutorialStep(
            gettext_noop(
                "A disc can be taken only when two sides that meet at a corner are open (facing "
                "an empty cell or the edge of the board), so at the start only the four corners "
                "can go; they are marked with ◆. Two of them are blue: you may take several "
                "discs of one colour in one turn. Select both blue corners, A9 and I9, then "
                "press Take."),
            {"take": [[8, 0], [8, 8]]},
            gettext_noop("Two blue discs are yours: see your row of the colour table. Your "
                         "opponent then took the grey corner A1."),
            ((1, {"take": [[0, 0]]}),)),
        TutorialStep(
            gettext_noop("Taking discs opens up the discs next to them. Two green discs are "
                         "takeable now, B1 and A8, on opposite sides of the board. Take both "
                         "in one turn."),
            {"take": [[0, 1], [7, 0]]},
            gettext_noop("Four discs taken in two turns. Your opponent took the yellow disc "
                         "B9."),
            ((1, {"take": [[8, 1]]}),)),
        TutorialStep(
            gettext_noop("One more rule: the discs left must always stay one group, joined "
                         "side to side. A disc whose removal would cut the board in two may not "
                         "be taken, even on a corner. Take the red disc A2 on its own."),
            {"take": [[1, 0]]},
            gettext_noop("Well done: that is a whole turn. Keep an eye on the colour table: "
                         "three neighbouring colours with seven discs each win at once.")),
    ),
    end=gettext_noop(
        "That is all there is to Nibble. In a real match the board marks every takeable disc "
        "with ◆, and the 'Takeable' buttons select all takeable discs of one colour at once. "
        "Try a match against a level-1 bot next."),
    narrow=_narrow,
)

LEARNING = Learning(
    presets=PRESETS,
    option_words=OPTION_WORDS,
    example_seed=SEED,
    example_players=2,
    example_config=CONFIG,
    examples=(
        Example("start", gettext_noop("The start of a match: only the four corner discs can be "
                                      "taken.")),
        Example("opening", gettext_noop("After four turns: the discs next to the taken corners "
                                        "are open."),
                moves=((0, {"take": [[8, 0], [8, 8]]}), (1, {"take": [[0, 0]]}),
                       (0, {"take": [[0, 1], [7, 0]]}), (1, {"take": [[8, 1]]}))),
    ),
    tutorial=TUTORIAL,
)
