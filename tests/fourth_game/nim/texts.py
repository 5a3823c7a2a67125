"""What players read of Nim: its name, the rules an illegal move breaks and the engine's fixed
messages (see ``games.kit.texts``). Marked for translation like a built-in game's texts; Nim
lives in the test suite, outside the message catalogues, so it is read in English."""

from __future__ import annotations

from games.kit.learn import gettext_noop
from games.kit.texts import Texts

TEXTS = Texts(
    name=gettext_noop("Nim"),
    rules={
        "nim.no_such_heap": gettext_noop("There is no such heap."),
        "nim.take_at_least_one": gettext_noop("Take at least one object."),
        "nim.not_enough": gettext_noop("The heap does not hold that many objects."),
        "nim.too_many": gettext_noop("That is more objects than one turn may take."),
    },
    messages=(
        gettext_noop("Nim is played by 2 or 3 players."),
        gettext_noop("Not a Nim move."),
        gettext_noop("That seat is not in play."),
    ),
)
