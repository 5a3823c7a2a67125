"""What players read of Nibble: its name, the rules an illegal move breaks, the engine's fixed
messages and its bots' measured strength (see ``games.kit.texts``)."""

from __future__ import annotations

from games.kit.learn import gettext_noop
from games.kit.texts import Texts

TEXTS = Texts(
    # The publisher's own name in each language (the Korean edition writes 니블).
    name=gettext_noop("Nibble"),
    rules={
        "nibble.empty_take": gettext_noop("Take at least one disc."),
        "nibble.duplicate_cell": gettext_noop("A disc is listed more than once."),
        "nibble.off_board": gettext_noop("A cell is off the board."),
        "nibble.no_disc": gettext_noop("There is no disc on that cell."),
        "nibble.mixed_colours": gettext_noop("All discs taken in a turn must be of one colour."),
        "nibble.not_exposed": gettext_noop(
            "A disc needs two adjacent exposed sides to be taken."),
        "nibble.splits_board": gettext_noop("The discs left must stay one connected group."),
    },
    messages=(
        gettext_noop("No such seat."),
        gettext_noop("Each cell must be a [row, col] pair of whole numbers."),
        gettext_noop("Each cell must be a [row, col] pair."),
        gettext_noop('"take" must be a list of [row, col] pairs.'),
        gettext_noop("A take lists at most 81 cells."),
        gettext_noop("Not a Nibble move."),
        gettext_noop("Nibble is played by exactly 2 players."),
        gettext_noop("Option color_order: must list each colour id 0-8 exactly once."),
    ),
    # Where it was measured: docs/bots.md.
    strength={
        4: gettext_noop("About 0.76 s a move; beat level 3 in 186 of 200 arena games "
                        "(93.0%)."),
    },
)
