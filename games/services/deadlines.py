"""Correspondence deadlines: what happens when a seat's time runs out, and the sweep Celery beat
runs to find it (the same sweep then sends the reminders due before deadlines,
``games.services.reminders``). The match's ``deadline`` is the soonest of its seats' clocks
(``games.services.clocks``); at it, the clocks say which seats ran out. Each match is
re-checked under ``match_lock`` and changes through the one recording path (a stalemate,
forfeits) or the abort a player would use."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from django.db import transaction
from django.utils import timezone

from games import movelog
from games.models import Match, Move, Seat, UserEvent
from games.services import _recording
from games.services.clocks import clocks_deadline, late_seats
from games.services.leaving import seat_forfeit
from games.services.locking import LockedMatch, match_lock
from games.services.notifications import notify
from games.services.reminders import reminders_sweep
from games.services.timeouts import timeout_unrates


def seats_timing_out(locked: LockedMatch, *, now: datetime) -> list[Seat]:
    """The seats of the locked match that time out at ``now``: those still in play whose clocks
    have run out (``games.clocks.clock.late_seats``). The one place that decides between a
    late seat's timeout and anything that spares it: every other seat keeps its clock."""
    return [seat for seat in late_seats(locked, now=now) if seat.forfeited_at is None]


def _time_out(locked: LockedMatch, seat: Seat) -> None:
    """The seat times out: its player is told, and it forfeits (a timeout in a run leaves the
    match unrated, ``games.services.timeouts``)."""
    match = locked.match
    if seat.user is not None and not seat.user.is_bot:
        notify(user_ids=[seat.user.id], type=UserEvent.Type.TIMED_OUT, match=match,
               game=match.game)
    unrated = timeout_unrates(locked=locked, seat=seat)
    seat_forfeit(locked=locked, seat=seat, reason=movelog.TIMEOUT, unrated=unrated)


@transaction.atomic
def match_deadline_expire(*, match_id: UUID | str, now: datetime | None = None) -> str | None:
    """Act on an expired deadline, if it still is one; returns what was done.

    A real-time match nobody touched for a while ends as a stalemate. Otherwise the seats
    whose clocks ran out time out: where nobody has moved yet the match is aborted (never
    rated); else each late seat forfeits: with two players the other wins, with more play goes
    on (the game decides whether the seat's cards leave play or a bot plays it on) and the
    other seats keep their clocks. A deadline that passed with no clock run out (stored before
    the clocks changed) is replaced by theirs."""
    now = now or timezone.now()
    locked = match_lock(match_id=match_id, missing_ok=True)
    if locked is None:
        return None
    match = locked.match
    if match.status != Match.Status.ACTIVE or match.deadline is None or match.deadline > now:
        return None
    engine = locked.engine
    if engine.is_realtime(locked.state):
        _recording.record(locked=locked, kind=Move.Kind.SYSTEM, seat=None, user=None,
                          payload=movelog.system_payload(movelog.IDLE),
                          transition=engine.end_stalemate(locked.state))
        return "stalemate"
    late = seats_timing_out(locked, now=now)
    if not late:
        match.deadline = clocks_deadline(locked)
        match.save(update_fields=["deadline", "updated_at"])
        return None
    if not match.moves.filter(kind=Move.Kind.MOVE).exists():
        _recording.abort(locked=locked, reason=movelog.TIMEOUT)
        return "aborted"
    for seat in late:
        if match.status != Match.Status.ACTIVE:
            break
        _time_out(locked, seat)
    return "forfeit"


def deadlines_sweep(*, now: datetime | None = None, batch: int = 500) -> dict[str, int]:
    """Expire overdue deadlines, in batches through the partial index on active deadlines, then
    send the reminders due (``games.services.reminders.reminders_sweep``, through its own
    index). Safe to run concurrently and repeatedly: each match is re-checked under its row
    lock."""
    now = now or timezone.now()
    done = {"expired": 0, "reminded": 0}
    active = Match.objects.filter(status=Match.Status.ACTIVE, deadline__isnull=False)
    while True:
        due = list(active.filter(deadline__lte=now).order_by("deadline")
                   .values_list("id", flat=True)[:batch])
        done["expired"] += sum(1 for match_id in due
                               if match_deadline_expire(match_id=match_id, now=now))
        if len(due) < batch:
            break
    done["reminded"] = reminders_sweep(now=now, batch=batch)
    return done
