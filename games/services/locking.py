"""The one way to lock a match for writing.

Every change to a match, its seats and its moves happens in a transaction that first locks
the match row here: a person's move, a bot's, a system step, a deadline, a race tick, a rating.
Writers queue on that one row, so they see each other's work and never interleave.
"""

from __future__ import annotations

from functools import cache
from typing import Literal, overload
from uuid import UUID

from django.apps import apps
from django.db import transaction
from django.db.models import QuerySet
from django.db.models.expressions import RawSQL

from accounts.models import User
from games.exceptions import MatchNotFound, StaleVersion
from games.models import Match, Seat
from games.selectors import match_loaded, match_visible


@overload
def match_lock(*, match_id: UUID | str, user: User | None = None,
               expected_version: int | None = None,
               missing_ok: Literal[False] = False) -> Match: ...


@overload
def match_lock(*, match_id: UUID | str, user: User | None = None,
               expected_version: int | None = None, missing_ok: bool) -> Match | None: ...


def match_lock(*, match_id: UUID | str, user: User | None = None,
               expected_version: int | None = None, missing_ok: bool = False) -> Match | None:
    """Lock the match row for the rest of the current transaction and return the match, read
    after the lock with its seats and their players (``match_seats`` reads no more).

    With ``user``, a match the user may not see is ``MatchNotFound``, as a missing one is. With
    ``expected_version``, a match that has moved on is ``StaleVersion``. A missing match is
    ``MatchNotFound``, or None with ``missing_ok`` (system callers, whose match may be gone).
    Must run inside ``transaction.atomic``."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        raise RuntimeError("match_lock must run inside a transaction.")
    seats = _with_reachability(Seat.objects.select_for_update(of=("match",)))
    match = match_loaded(match_id, seats)
    if match is None or (user is not None and not match_visible(match, user)):
        if missing_ok and match is None:
            return None
        raise MatchNotFound()
    # The lock lasts as long as the outermost transaction: remember which one holds it.
    match._locked_by = connection.atomic_blocks[0]  # type: ignore[attr-defined]
    if expected_version is not None:
        version_check(match, expected_version)
    return match


def _with_reachability(seats: QuerySet[Seat]) -> QuerySet[Seat]:
    """The seats, each also saying whether its player has somewhere to be notified (read in
    the same query): a push device or a verified address. Over-inclusive on purpose (a device
    with push unconfigured, a mail kind switched off): it only spares the notification task
    when nobody could be told anything. The models are looked up by app label, as the
    notification app depends on the services and not the other way round; the condition is
    written in SQL, as compiling two ORM subqueries on every move costs more than the lock."""
    return seats.annotate(notify_reachable=RawSQL(_reachable_sql(), ()))


@cache
def _reachable_sql() -> str:
    seat = _quote(Seat._meta.db_table)
    devices = _quote(apps.get_model("notify", "PushSubscription")._meta.db_table)
    prefs = _quote(apps.get_model("notify", "NotificationSettings")._meta.db_table)
    return (f"(EXISTS (SELECT 1 FROM {devices} d WHERE d.user_id = {seat}.user_id)"
            f" OR EXISTS (SELECT 1 FROM {prefs} n WHERE n.user_id = {seat}.user_id"
            " AND n.verified_email <> ''))")


def _quote(name: str) -> str:
    return transaction.get_connection().ops.quote_name(name)


def seat_reachable(seat: Seat) -> bool | None:
    """Whether the seat's player has a push device or a verified address, as read when the
    match was locked; None when the seat was not read by ``match_lock``."""
    reachable = getattr(seat, "notify_reachable", None)
    return None if reachable is None else bool(reachable)


def lock_held(match: Match) -> bool:
    """Whether this match object came from ``match_lock`` in the transaction still running,
    so its row is locked and what it holds is current."""
    blocks = transaction.get_connection().atomic_blocks
    return bool(blocks) and getattr(match, "_locked_by", None) is blocks[0]


def version_check(match: Match, expected_version: int | None) -> None:
    """``StaleVersion`` (with the current version) if the caller expected another version."""
    if expected_version is not None and expected_version != match.version:
        raise StaleVersion(current_version=match.version)
