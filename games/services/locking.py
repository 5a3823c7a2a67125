"""The one way to lock a match for writing.

Every change to a match, its seats and its moves happens in a transaction that first locks
the match row here: a person's move, a bot's, a system step, a deadline, a race tick, a rating.
Writers queue on that one row, so they see each other's work and never interleave.

``match_lock`` answers a ``LockedMatch``: the match with everything the recording path needs
(its seats in order with their players' reminder offsets, its engine, its game state, which
players could be told anything, and the transaction that holds the lock), so nothing travels
between modules on the model instance. The services read all of it from the ``LockedMatch``;
the match row keeps its seats only where the read selectors look for any match's seats
(``match_seats``), so rendering the answer about it afterwards reads nothing more.

A player's vacation changes the clocks of all their running matches in one transaction, so some
transactions hold several locks. They take them in one order, which makes a deadlock
impossible: first the players' ``Vacation`` rows (``vacations_lock``, by user id), then the
matches (``matches_lock``, by id; ``match_lock`` of a match already locked waits for nothing).
A vacation, the deadline sweep of a match that stops for vacations, a rematch and a change of
time zone follow it; a staff ban locks the account, then the matches by id. The one exception
is a match's start, which reads its players' vacation rows after locking the match
(``games.services.clocks.seats_away_at_start``): nothing that holds a vacation row ever waits
for a match that has not started, since a vacation only locks running matches (a rematch,
whose start follows the lock of a match that just ended, locks the rows first).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any, Literal, overload
from uuid import UUID

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.db.transaction import Atomic

from accounts.models import User
from config.prepared import Prepared
from games.catalog import get_engine
from games.clocks import vacation
from games.exceptions import MatchNotFound, StaleVersion
from games.kit.protocol import AnyEngine
from games.models import Match, Seat, Vacation
from games.selectors import match_of_rows, match_rows, match_state, match_visible
from games.selectors.vacations import vacation_bank, vacation_policy
from games.services.reachability import reachability_condition, reachability_registered
from games.services.reminder_offsets import offsets_annotation, offsets_registered


@dataclass(frozen=True, eq=False)
class LockedMatch:
    """A match locked by ``match_lock`` in the transaction ``block`` (its outermost one).

    ``seats``: its seats with their players, in index order. ``notifiable``: the ids of the
    seated players who have somewhere to be told something (a push device, a verified address),
    as read with the lock; None when no notification app answers that. The game state is
    loaded from the snapshot on first use and follows the match as the recording path changes
    it (``state`` and ``state_set``); nothing else is ever reassigned."""

    match: Match
    seats: tuple[Seat, ...]
    engine: AnyEngine
    block: Atomic
    notifiable: frozenset[int] | None
    _state: Any = field(default=None, repr=False)

    @property
    def state(self) -> Any:
        """The current game state (``MatchNotStarted`` before the match has started)."""
        if self._state is None:
            self.state_set(match_state(self.match, self.engine))
        return self._state

    def state_set(self, state: Any) -> None:
        """The recording path moved the match to ``state`` (its snapshot dumped from it)."""
        object.__setattr__(self, "_state", state)

    def seat(self, index: int) -> Seat:
        return self.seats[index]

    def seat_of(self, user: User) -> Seat | None:
        """The user's seat, if the user holds one."""
        return next((seat for seat in self.seats if seat.user_id == user.pk), None)

    def reachable(self, seat: Seat) -> bool | None:
        """Whether the seat's player could be told anything; None when unknown."""
        if self.notifiable is None:
            return None
        return seat.user_id is not None and seat.user_id in self.notifiable


@overload
def match_lock(*, match_id: UUID | str, user: User | None = None,
               expected_version: int | None = None,
               missing_ok: Literal[False] = False) -> LockedMatch: ...


@overload
def match_lock(*, match_id: UUID | str, user: User | None = None,
               expected_version: int | None = None,
               missing_ok: bool) -> LockedMatch | None: ...


def match_lock(*, match_id: UUID | str, user: User | None = None,
               expected_version: int | None = None,
               missing_ok: bool = False) -> LockedMatch | None:
    """Lock the match row for the rest of the current transaction and return it as a
    ``LockedMatch``, read after the lock with its seats and their players in one query.

    With ``user``, a match the user may not see is ``MatchNotFound``, as a missing one is. With
    ``expected_version``, a match that has moved on is ``StaleVersion``. A missing match is
    ``MatchNotFound``, or None with ``missing_ok`` (system callers, whose match may be gone).
    Must run inside ``transaction.atomic``."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        raise RuntimeError("match_lock must run inside a transaction.")
    rows, notifiable = _locked_rows(match_id)
    match = match_of_rows(rows)
    if match is None or (user is not None and not match_visible(match, user, rows)):
        if missing_ok and match is None:
            return None
        raise MatchNotFound()
    # The lock lasts as long as the outermost transaction: the object names that one.
    locked = LockedMatch(match=match, seats=tuple(rows), engine=get_engine(match.game),
                         block=connection.atomic_blocks[0], notifiable=notifiable)
    if expected_version is not None:
        version_check(match, expected_version)
    return locked


def _lock_query(match_id: UUID | str) -> QuerySet[Seat]:
    """The query that locks the match row and reads its seat rows (``match_rows``), each with
    its player's reminder offsets (``games.services.reminder_offsets``) and, when the
    notification app answers it, whether the player could be told anything."""
    seats = Seat.objects.select_for_update(of=("match",)).annotate(
        **offsets_annotation(_seat_user_column()))
    condition = reachability_condition(_seat_user_column())
    if condition is not None:
        seats = seats.annotate(**{_REACHABLE: condition})
    return match_rows(match_id, seats)


# Where a seat row read by ``match_lock`` says whether its player could be told anything.
_REACHABLE = "notify_reachable"

# Built and compiled once per process and per registration (config.prepared): it runs on every
# change of every match.
_LOCK_QUERY = Prepared(_lock_query, stand_in=UUID(int=0), field=Match._meta.pk)


def _locked_rows(match_id: UUID | str) -> tuple[list[Seat], frozenset[int] | None]:
    """The match's seat rows, locking the match row (none for a malformed id), and the ids of
    their players who could be told anything (read in the same query; None when nothing
    answers that)."""
    key = _MATCH_KEY
    try:
        value = key.get_db_prep_value(key.to_python(match_id), transaction.get_connection())
    except (ValueError, ValidationError):
        return [], None
    condition = reachability_registered()
    rows = _LOCK_QUERY.rows(value, key=(condition, offsets_registered()))
    if condition is None:
        return rows, None
    return rows, frozenset(row.user_id for row in rows
                           if row.user_id is not None and getattr(row, _REACHABLE))


_MATCH_KEY = Match._meta.pk


@cache
def _seat_user_column() -> str:
    quote = transaction.get_connection().ops.quote_name
    return f"{quote(Seat._meta.db_table)}.{quote('user_id')}"


def lock_held(locked: object) -> bool:
    """Whether ``locked`` came from ``match_lock`` in the transaction still running, so its
    row is locked and what it holds is current (a plain match never is)."""
    blocks = transaction.get_connection().atomic_blocks
    return isinstance(locked, LockedMatch) and bool(blocks) and locked.block is blocks[0]


def version_check(match: Match, expected_version: int | None) -> None:
    """``StaleVersion`` (with the current version) if the caller expected another version."""
    if expected_version is not None and expected_version != match.version:
        raise StaleVersion(current_version=match.version)


def vacations_lock(users: Iterable[User], now: datetime) -> dict[int, Vacation]:
    """Lock the players' vacation rows for the rest of the current transaction, in user id
    order, and answer them by user id. An account that has none gets one first, holding its
    starting bank (what the reads count for it anyway, ``games.selectors.vacations``): a row
    being made by another transaction is waited for rather than missed.

    Lock them before any match (see the module's docstring)."""
    people = {user.pk: user for user in users}
    if not people:
        return {}
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("vacations_lock must run inside a transaction.")
    rules = vacation_policy()
    have = set(Vacation.objects.filter(user_id__in=people).values_list("user_id", flat=True))
    Vacation.objects.bulk_create(
        [Vacation(user_id=user_id, bank=vacation.dump_bank(vacation_bank(user, None, now, rules)))
         for user_id, user in sorted(people.items()) if user_id not in have],
        ignore_conflicts=True)
    rows = Vacation.objects.select_for_update().filter(user_id__in=people).order_by("user_id")
    return {row.user_id: row for row in rows}


def matches_lock(match_ids: Iterable[UUID | str]) -> list[UUID]:
    """Lock the matches' rows for the rest of the current transaction, in id order (see the
    module's docstring); answers the ids of those that exist. ``match_lock`` then reads each
    without waiting."""
    wanted = set(match_ids)
    if not wanted:
        return []
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("matches_lock must run inside a transaction.")
    return list(Match.objects.select_for_update().filter(id__in=wanted).order_by("id")
                .values_list("id", flat=True))
