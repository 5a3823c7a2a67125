"""When each seat's player wants to be reminded before a deadline: their reminder offsets.

Only the notification app keeps a player's offsets (``reminder_offsets`` of their notification
settings), and it depends on the services, not the other way round: when it starts it registers
here how to read a player's offsets in SQL (``games.notify.apps``). ``match_lock`` annotates
every locked seat row with them (``OFFSETS_ATTR``), in the query that locks the match, so the
recording path and the reminder sweep know them without a query more. With nothing registered,
or for a player who never chose, the offsets are the defaults: 24 hours, 4 hours and 1 hour.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import Expression

from games.models import Seat

# The offsets of a player who never chose (seconds before a deadline, longest first); the
# notification settings' own default (games.notify.models.DEFAULT_REMINDER_OFFSETS) is the same.
DEFAULT_OFFSETS: tuple[int, ...] = (24 * 3600, 4 * 3600, 3600)

# Where a seat row read by ``match_lock`` keeps its player's offsets (None: none chosen).
OFFSETS_ATTR = "reminder_offsets"

# Given a row's user id column (quoted SQL, table included), its user's offsets as a JSON list
# (or NULL): an expression to annotate the row with.
OffsetsExpression = Callable[[str], Expression]

_registered: list[OffsetsExpression] = []


def reminder_offsets_register(expression: OffsetsExpression) -> None:
    """Read players' reminder offsets with ``expression`` from now on (a later registration
    replaces an earlier one)."""
    _registered[:] = [expression]


def offsets_registered() -> OffsetsExpression | None:
    """What is registered (None: nothing), for a cache of queries built with it."""
    return _registered[0] if _registered else None


def offsets_annotation(user_column: str) -> dict[str, Expression]:
    """For ``annotate`` on seat rows: each row's player's offsets as ``OFFSETS_ATTR``; nothing
    when no app registered where they are kept."""
    if not _registered:
        return {}
    return {OFFSETS_ATTR: _registered[0](user_column)}


def seat_offsets(seat: Seat) -> tuple[int, ...]:
    """The offsets of the seat's player as its row was read (the defaults when they never
    chose, or when the row was read without them); none for a bot or an open seat."""
    if seat.user is None or seat.is_bot or seat.user.is_bot:
        return ()
    chosen = getattr(seat, OFFSETS_ATTR, None)
    if not isinstance(chosen, list):
        return DEFAULT_OFFSETS
    return tuple(value for value in chosen
                 if isinstance(value, int) and not isinstance(value, bool) and value > 0)
