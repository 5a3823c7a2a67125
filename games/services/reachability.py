"""Whether a seat's player could be told anything at all (a push device, a verified address).

Only the notification app knows where a player can be told something, and it depends on the
services, not the other way round: it registers the condition here when it starts
(``games.notify.apps``). ``match_lock`` reads the condition with the locked seats, in the same
query, so a move whose players nobody could tell sends no notification task. With nothing
registered, reachability is unknown and the notification task decides.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import Expression

# Given a row's user id column (quoted SQL, table included), the condition that the user can be
# told something: a boolean expression to annotate the row with.
Condition = Callable[[str], Expression]

_registered: list[Condition] = []


def reachability_register(condition: Condition) -> None:
    """Use ``condition`` from now on (a later registration replaces an earlier one)."""
    _registered[:] = [condition]


def reachability_condition(user_column: str) -> Expression | None:
    """The registered condition on the row's ``user_column``, or None when none is registered."""
    return _registered[0](user_column) if _registered else None


def reachability_registered() -> Condition | None:
    """What is registered (None: nothing), for a cache of queries built with it."""
    return _registered[0] if _registered else None
