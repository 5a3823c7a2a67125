"""What players read of Nimalia: its name, the rules an illegal move breaks, the engine's fixed
messages and its bots' measured strength (see ``games.kit.texts``)."""

from __future__ import annotations

from games.kit.learn import gettext_noop
from games.kit.texts import Texts

TEXTS = Texts(
    name=gettext_noop("Nimalia"),
    rules={
        "nimalia.nothing_to_undo": gettext_noop("You have no pending placement to take back."),
        "nimalia.already_placed": gettext_noop(
            "You have already placed a card this turn; undo it first."),
        "nimalia.card_not_in_hand": gettext_noop("That card is not in your hand."),
        "nimalia.no_overlap": gettext_noop("A card must cover 1 to 4 squares of your reserve."),
        "nimalia.exceeds_6x6": gettext_noop("Your reserve must stay within 6 x 6 squares."),
    },
    messages=(
        gettext_noop("No such seat."),
        gettext_noop("Field undo must be true."),
        gettext_noop("Field card must be a card id from 1 to 60."),
        gettext_noop("Field rotation must be 0, 90, 180 or 270."),
        gettext_noop("Not a Nimalia move."),
        gettext_noop("Nimalia is for 1 to 4 players."),
    ),
    # Where it was measured: docs/bots.md.
    strength={
        4: gettext_noop("About 0.35 s a move; beat level 3 in 132 of 200 arena games "
                        "(66.0%)."),
    },
)
