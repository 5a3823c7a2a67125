"""Reminders before a deadline: each seat's player is told at each of their reminder offsets
before their own seat's deadline, once per offset and deadline, by a "deadline soon" entry.

Which seats: those of a person (not a bot) still in play whose clock runs (a seat stopped for
its player's vacation runs none). Which offsets: the player's own
(``games.services.reminder_offsets``, read with the lock). When: the clocks' arithmetic says
(``games.clocks.clock.due_reminders`` and ``next_reminder``): a reminder ``N`` seconds before the
deadline is due once the seat has ``N`` seconds of running time left or less, never when its
clock started this stretch with ``N`` or less (a turn begun with 3 hours to play gets no
"4 hours left").

What is stored, on the match row (``Match.reminders_sent``, ``Match.next_reminder_at``): for
each seat the offsets already reminded for its clock's current stretch, and the soonest instant
any seat's next reminder is due. Whenever a seat's clock changes (a move, a new turn, a start,
a timeout, a vacation, a time zone's settling) its stretch begins anew and what it was reminded
of is forgotten: a new turn or a new deadline is reminded again, and the arithmetic never makes
an offset due again within one turn (a stretch begun with ``N`` seconds or less never reminds
``N``). ``reminders_follow_clocks`` does this wherever the clocks are written
(``games.services.clocks``), so the row is saved with the clocks in the same ``UPDATE``.

The sweep (``reminders_sweep``, run by ``games.services.deadlines.deadlines_sweep``) reads only
the due rows, through the partial index on ``next_reminder_at``, and re-checks each under
``match_lock``: a reminder goes out exactly once however often and concurrently it runs. A
sweep that comes late sends one entry for the most urgent offset due and counts the others
as reminded.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.clocks import clock
from games.clocks.calendar import Calendar
from games.clocks.clock import Clocks
from games.models import Match, Seat, UserEvent
from games.selectors.clocks import match_clocks, match_control, not_before, seat_calendars
from games.services.locking import LockedMatch, match_lock
from games.services.notifications import notify
from games.services.reminder_offsets import seat_offsets

# The match row's fields this module writes (saved by whoever saves the clocks).
REMINDER_FIELDS = ["reminders_sent", "next_reminder_at"]


def _remindable(seat: Seat) -> bool:
    """A person's seat still in play (its clock decides whether anything is due)."""
    return seat.forfeited_at is None and bool(seat_offsets(seat))


def _sent_of(match: Match, seats: int) -> list[list[int]]:
    """What each seat was reminded of for its clock's current stretch, as stored."""
    stored: Any = match.reminders_sent
    rows = stored if isinstance(stored, list) else []
    return [sorted({value for value in row if isinstance(value, int)}, reverse=True)
            if index < len(rows) and isinstance(row := rows[index], list) else []
            for index in range(seats)]


def _next_due(seats: Sequence[Seat], clocks: Clocks, calendars: Sequence[Calendar],
              sent: Sequence[Sequence[int]]) -> datetime | None:
    """The soonest instant one of the seats' next reminders is due."""
    due = [clock.next_reminder(clocks, seat.index, calendars[seat.index], seat_offsets(seat),
                               sent[seat.index])
           for seat in seats if _remindable(seat)]
    return min((moment for moment in due if moment is not None), default=None)


def reminders_follow_clocks(locked: LockedMatch, before: Clocks | None, after: Clocks,
                            calendars: Sequence[Calendar]) -> None:
    """The locked match's clocks change from ``before`` (None: it had none) to ``after``,
    counted with ``calendars``: each seat whose clock changed forgets what it was reminded of,
    and the match's next reminder is counted again. Sets the match's ``REMINDER_FIELDS``; the
    caller saves them with the clocks."""
    match = locked.match
    sent = _sent_of(match, len(after))
    for index, seat_clock in enumerate(after):
        if before is None or index >= len(before) or before[index] != seat_clock:
            sent[index] = []
    match.reminders_sent = sent
    match.next_reminder_at = _next_due(locked.seats, after, calendars, sent)


def _remind(locked: LockedMatch, seat: Seat, clocks: Clocks, calendar: Calendar, now: datetime,
            sent: list[int]) -> tuple[bool, list[int]]:
    """Tell the seat's player of the most urgent reminder due at ``now``, if any: whether an
    entry went out, and what the seat has been reminded of afterwards (every offset whose
    moment has passed)."""
    match, index = locked.match, seat.index
    offsets = seat_offsets(seat)
    due = clock.due_reminders(clocks, index, now, calendar, offsets, sent)
    left = clock.time_left(clocks, index, now, calendar)
    if due and seat.user is not None:
        notify(user_ids=[seat.user.id], type=UserEvent.Type.DEADLINE_SOON, match=match,
               game=match.game, deadline=clock.deadline(clocks, index, calendar),
               offset=due[-1], left_seconds=left, reachable=locked.reachable(seat))
    passed = {offset for offset in offsets if left <= offset < clocks[index].left}
    return bool(due), sorted(set(sent) | passed, reverse=True)


@transaction.atomic
def match_reminders_send(*, match_id: UUID | str, now: datetime | None = None) -> int:
    """Send the match's reminders due at ``now``, if they still are; how many entries went
    out. Every offset whose moment has passed counts as reminded (one entry per seat, for the
    most urgent), and the match's next reminder is counted again."""
    now = now or timezone.now()
    locked = match_lock(match_id=match_id, missing_ok=True)
    if locked is None:
        return 0
    match = locked.match
    if match.next_reminder_at is None or match.next_reminder_at > now:
        return 0
    timing, clocks = match_control(match), match_clocks(match)
    if match.status != Match.Status.ACTIVE or timing is None or clocks is None:
        match.reminders_sent, match.next_reminder_at = None, None
        match.save(update_fields=REMINDER_FIELDS)
        return 0
    now = not_before(now, clocks)
    calendars = seat_calendars(timing, locked.seats)
    sent = _sent_of(match, len(clocks))
    told = 0
    for seat in locked.seats:
        if not _remindable(seat) or clocks[seat.index].since is None:
            continue
        reminded, sent[seat.index] = _remind(locked, seat, clocks, calendars[seat.index], now,
                                             sent[seat.index])
        told += reminded
    match.reminders_sent = sent
    match.next_reminder_at = _next_due(locked.seats, clocks, calendars, sent)
    match.save(update_fields=REMINDER_FIELDS)
    return told


def reminders_sweep(*, now: datetime | None = None, batch: int = 500) -> int:
    """Send every reminder due at ``now``, in batches through the partial index on
    ``next_reminder_at``; how many entries went out. Safe to run concurrently and repeatedly:
    each match is re-checked under its row lock."""
    now = now or timezone.now()
    told = 0
    due = Match.objects.filter(next_reminder_at__lte=now).order_by("next_reminder_at", "id")
    last: tuple[datetime | None, UUID] | None = None
    while True:
        page = due
        if last is not None:
            page = page.filter(next_reminder_at__gte=last[0]).exclude(
                next_reminder_at=last[0], id__lte=last[1])
        rows = list(page.values_list("next_reminder_at", "id")[:batch])
        told += sum(match_reminders_send(match_id=match_id, now=now) for _, match_id in rows)
        if len(rows) < batch:
            return told
        last = rows[-1]


def player_reminders_recount(*, user: User) -> int:
    """The player's reminder offsets changed: in every running match of theirs with a clock,
    the next reminder is counted again with them (what was reminded stays reminded). Run it
    in the transaction that stores the new offsets; returns how many matches it counted."""
    # In one order, so two players' changes locking the same matches never wait on each other.
    matches = (Seat.objects.filter(user=user, match__status=Match.Status.ACTIVE,
                                   match__time_control__isnull=False)
               .order_by("match_id").values_list("match_id", flat=True))
    counted = 0
    for match_id in list(matches):
        locked = match_lock(match_id=match_id)
        timing, clocks = match_control(locked.match), match_clocks(locked.match)
        if timing is None or clocks is None:
            continue
        reminders_follow_clocks(locked, clocks, clocks, seat_calendars(timing, locked.seats))
        locked.match.save(update_fields=REMINDER_FIELDS)
        counted += 1
    return counted
