"""The engines' errors and the games' names in the caller's language.

The game engines are pure Python without Django: they raise coded errors (``games.kit.protocol``)
with an English message and, for an illegal move, a stable rule code (``extra.rule``, e.g.
``nibble.splits_board``). The words people read are made here, at the API's edge, from
translatable texts: by rule code for an illegal move, by the English message itself for the
engines' fixed messages, and by error code (naming the field or option concerned) for anything
else. Codes, rules and every other ``extra`` field never change with the language.

A game's own texts (its name, the text of each of its rule codes, its fixed messages) live in its
package (``games/<game>/texts.py``, see ``games.kit.texts``) and are read here from the registry;
this module holds only the texts of the kit's own messages and of the error codes. A test fails
on a rule code without a text, and on a fixed engine message that neither its game nor this
module lists.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language, gettext_lazy, gettext_noop
from django.utils.translation import gettext as _

from games.catalog import games


def game_name(slug: str, default: str | None = None) -> str:
    """A game's name in the active language (``default``, else the slug capitalised, for a game
    that is not registered)."""
    spec = games().get(slug)
    if spec is not None:
        return _(spec.texts.name or spec.name)
    return default or slug.capitalize()


def rule_text(rule: str) -> str | None:
    """What a player is told of the rule an illegal move breaks, by its code, in the active
    language (``None`` for a code no registered game explains)."""
    for spec in games().values():
        text = spec.texts.rules.get(rule)
        if text is not None:
            return _(text)
    return None


# The fixed messages of the kit itself (``games.kit.protocol``), which every engine may raise as
# well: looked up in the catalogue as they are, like each game's ``texts.messages``. A message
# made with values in it (a field's name, say) is told by its code below.
KIT_MESSAGES = (
    gettext_noop("The match is over."),
    gettext_noop("It is not your turn."),
    gettext_noop("A move must be a JSON object."),
    gettext_noop("The options must be a JSON object."),
)


def is_fixed_message(message: str) -> bool:
    """Whether ``message`` is a fixed engine message, of the kit or of a registered game."""
    return message in KIT_MESSAGES or any(message in spec.texts.messages
                                          for spec in games().values())


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
    "plan_malformed": (gettext_lazy("This is not a plan: check the shape of its branches."),
                       None),
    "plan_too_large": (gettext_lazy("The plan is too large."), None),
    "plan_illegal_key": (gettext_lazy("The other player cannot make this move there."), None),
    "plan_illegal_reply": (
        gettext_lazy("A reply of the plan is not legal where it would be played."), None),
    "plan_unreachable": (gettext_lazy("The plan cannot go on after this reply."), None),
    "plans_unavailable": (gettext_lazy("Plans do not apply to this match."), None),
    "plan_not_waiting": (
        gettext_lazy("During your turn a plan starts with your own move."), None),
    "plan_not_your_turn": (
        gettext_lazy("A plan that starts with your own move is saved during your turn."), None),
    "plan_stale": (gettext_lazy("The match has moved on since this plan was made."), None),
}


def engine_message(exc: Any) -> str:
    """What an engine error says to the caller, in the active language."""
    message = str(getattr(exc, "message", "") or "")
    rule = getattr(exc, "rule", None)
    said = rule_text(rule) if isinstance(rule, str) else None
    if said is not None:
        return said
    if is_fixed_message(message):
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
