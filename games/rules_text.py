"""The engines' errors in the caller's language.

The game engines are pure Python without Django: they raise coded errors (``games.kit.protocol``)
with an English message and, for an illegal move, a stable rule code (``extra.rule``, e.g.
``nibble.splits_board``). The words people read are made here, at the API's edge, from
translatable texts: by rule code for an illegal move, by the English message itself for the
engines' fixed messages, and by error code (naming the field or option concerned) for anything
else. Codes, rules and every other ``extra`` field never change with the language.

A game that adds a rule adds its text to ``RULE_TEXTS``; a test fails on a rule code without a
text, and on a fixed engine message missing from ``ENGINE_MESSAGES``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language, gettext_lazy, gettext_noop
from django.utils.translation import gettext as _

# The games' names as players read them: the publishers' own (Nibble's Korean edition writes
# 니블), else the name as it is.
GAME_NAMES: dict[str, Any] = {
    "nibble": gettext_lazy("Nibble"),
    "nimble": gettext_lazy("Nimble"),
    "nimalia": gettext_lazy("Nimalia"),
}


def game_name(slug: str, default: str | None = None) -> str:
    """A game's name in the active language (``default``, else the slug capitalised, for a game
    without a translated name)."""
    found = GAME_NAMES.get(slug)
    if found is not None:
        return str(found)
    return default or slug.capitalize()


# The rule an illegal move breaks, by its code: what the player is told.
RULE_TEXTS: dict[str, Any] = {
    # Nibble
    "nibble.empty_take": gettext_lazy("Take at least one disc."),
    "nibble.duplicate_cell": gettext_lazy("A disc is listed more than once."),
    "nibble.off_board": gettext_lazy("A cell is off the board."),
    "nibble.no_disc": gettext_lazy("There is no disc on that cell."),
    "nibble.mixed_colours": gettext_lazy("All discs taken in a turn must be of one colour."),
    "nibble.not_exposed": gettext_lazy("A disc needs two adjacent exposed sides to be taken."),
    "nibble.splits_board": gettext_lazy("The discs left must stay one connected group."),
    # Nimble
    "nimble.set_empty": gettext_lazy("Your Set is empty."),
    "nimble.discard_empty": gettext_lazy("Your discard pile is empty."),
    "nimble.frame_mismatch": gettext_lazy(
        "The card's frame must match the circle of the stack top."),
    "nimble.set_not_empty": gettext_lazy(
        "You can take your discard back only once your Set is empty."),
    "nimble.budget_spent": gettext_lazy("No hand actions are left this turn."),
    "nimble.not_turn_mode": gettext_lazy("There are no turns to end in race mode."),
    # Nimalia
    "nimalia.nothing_to_undo": gettext_lazy("You have no pending placement to take back."),
    "nimalia.already_placed": gettext_lazy(
        "You have already placed a card this turn; undo it first."),
    "nimalia.card_not_in_hand": gettext_lazy("That card is not in your hand."),
    "nimalia.no_overlap": gettext_lazy("A card must cover 1 to 4 squares of your reserve."),
    "nimalia.exceeds_6x6": gettext_lazy("Your reserve must stay within 6 x 6 squares."),
}

# The engines' fixed (English) messages other than the rules': looked up in the catalogue as
# they are. A message made with values in it (a field's name, say) is told by its code below.
ENGINE_MESSAGES = (
    gettext_noop("The match is over."),
    gettext_noop("It is not your turn."),
    gettext_noop("No such seat."),
    gettext_noop("A move must be a JSON object."),
    gettext_noop("The options must be a JSON object."),
    gettext_noop("Each cell must be a [row, col] pair of whole numbers."),
    gettext_noop("Each cell must be a [row, col] pair."),
    gettext_noop('"take" must be a list of [row, col] pairs.'),
    gettext_noop("A take lists at most 81 cells."),
    gettext_noop("Not a Nibble move."),
    gettext_noop("Nibble is played by exactly 2 players."),
    gettext_noop("Option color_order: must list each colour id 0-8 exactly once."),
    gettext_noop("A place move needs a stack (0, 1 or 2)."),
    gettext_noop("The stack must be 0, 1 or 2."),
    gettext_noop("Not a Nimble move."),
    gettext_noop("The seed must be a string."),
    gettext_noop("Field undo must be true."),
    gettext_noop("Field card must be a card id from 1 to 60."),
    gettext_noop("Field rotation must be 0, 90, 180 or 270."),
    gettext_noop("Not a Nimalia move."),
    gettext_noop("Nimalia is for 1 to 4 players."),
)
_FIXED = frozenset(ENGINE_MESSAGES)

# By error code, when the message carries values: the field or option it names, if any.
_BY_CODE: dict[str, tuple[Any, Any]] = {
    "malformed_move": (
        gettext_lazy("The move is not in this game's move syntax."),
        gettext_lazy("The move is not in this game's move syntax (field “%(name)s”)."),
    ),
    "invalid_config": (
        gettext_lazy("The match options are not valid for this game and player count."),
        gettext_lazy("The option “%(name)s” is not valid for this game and player count."),
    ),
    "not_your_turn": (gettext_lazy("It is not your turn."), None),
    "game_over": (gettext_lazy("The match is over."), None),
    "illegal_move": (gettext_lazy("The move breaks a rule of the game."), None),
}


def engine_message(exc: Any) -> str:
    """What an engine error says to the caller, in the active language."""
    message = str(getattr(exc, "message", "") or "")
    rule = getattr(exc, "rule", None)
    if isinstance(rule, str) and rule in RULE_TEXTS:
        return str(RULE_TEXTS[rule])
    if message in _FIXED:
        return _(message)
    if (get_language() or "en").split("-")[0] == "en":
        return message  # the engines write English: a message with values in it, as it is
    code = str(getattr(exc, "code", ""))
    plain, named = _BY_CODE.get(code, (None, None))
    extra = getattr(exc, "extra", {}) or {}
    name = extra.get("field") or extra.get("option")
    if named is not None and isinstance(name, str):
        return str(named) % {"name": name}
    if plain is not None:
        return str(plain)
    return message
