"""What players read of Nimble: its name, the rules an illegal move breaks, the engine's fixed
messages and its bots' measured strength (see ``games.kit.texts``)."""

from __future__ import annotations

from games.kit.learn import gettext_noop
from games.kit.texts import Texts

TEXTS = Texts(
    name=gettext_noop("Nimble"),
    rules={
        "nimble.set_empty": gettext_noop("Your Set is empty."),
        "nimble.discard_empty": gettext_noop("Your discard pile is empty."),
        "nimble.frame_mismatch": gettext_noop(
            "The card's frame must match the circle of the stack top."),
        "nimble.set_not_empty": gettext_noop(
            "You can take your discard back only once your Set is empty."),
        "nimble.budget_spent": gettext_noop("No hand actions are left this turn."),
        "nimble.not_turn_mode": gettext_noop("There are no turns to end in race mode."),
    },
    messages=(
        gettext_noop("A place move needs a stack (0, 1 or 2)."),
        gettext_noop("The stack must be 0, 1 or 2."),
        gettext_noop("Not a Nimble move."),
        gettext_noop("The seed must be a string."),
    ),
    # Where it was measured: docs/bots.md.
    strength={
        4: gettext_noop("About 0.1 s a move; beat level 3 in 174 of 200 arena games, a draw "
                        "counting half (87.0%)."),
    },
)
