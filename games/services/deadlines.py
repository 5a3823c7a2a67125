"""Correspondence deadlines: what happens when one passes, the one reminder before it, and the
sweep Celery beat runs to find both. Each match is re-checked under ``match_lock`` and changes
through the one recording path (a stalemate, forfeits) or the abort a player would use."""

from __future__ import annotations

from datetime import datetime, timedelta
from uuid import UUID

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games import movelog
from games.models import Match, Move, UserEvent
from games.services import _recording
from games.services.leaving import seat_forfeit
from games.services.locking import match_lock
from games.services.notifications import notify


@transaction.atomic
def match_deadline_expire(*, match_id: UUID | str, now: datetime | None = None) -> str | None:
    """Act on an expired deadline, if it still is one; returns what was done.

    A real-time match nobody touched for a while ends as a stalemate. A match where nobody has
    moved yet is aborted (never rated). Otherwise every seat that had to act forfeits: with two
    players the other wins; with more, play goes on (the game decides whether the seat's cards
    leave play or a bot plays it on)."""
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
    if not match.moves.filter(kind=Move.Kind.MOVE).exists():
        _recording.abort(locked=locked, reason=movelog.TIMEOUT)
        return "aborted"
    late = [seat for seat in locked.seats
            if seat.index in match.actors and seat.forfeited_at is None]
    for seat in late:
        if match.status != Match.Status.ACTIVE:
            break
        if seat.user is not None and not seat.user.is_bot:
            notify(user_ids=[seat.user.id], type=UserEvent.Type.TIMED_OUT, match=match,
                   game=match.game)
        seat_forfeit(locked=locked, seat=seat, reason=movelog.TIMEOUT)
    if match.status == Match.Status.ACTIVE and match.deadline is not None \
            and match.deadline <= now and match.turn_seconds:
        # Whoever must still act (a bot playing on for a seat that left) gets a fresh period.
        match.deadline = now + timedelta(seconds=match.turn_seconds)
        match.save(update_fields=["deadline", "updated_at"])
    return "forfeit"


@transaction.atomic
def match_deadline_remind(*, match_id: UUID | str, now: datetime | None = None) -> bool:
    """Send the one "deadline soon" entry for the match's current deadline."""
    now = now or timezone.now()
    locked = match_lock(match_id=match_id, missing_ok=True)
    if locked is None:
        return False
    match = locked.match
    if (match.status != Match.Status.ACTIVE or match.deadline is None
            or match.reminded_deadline == match.deadline or match.deadline <= now):
        return False
    late = [seat.user.id for seat in locked.seats
            if seat.index in match.actors and seat.user is not None and not seat.user.is_bot
            and seat.forfeited_at is None]
    notify(user_ids=late, type=UserEvent.Type.DEADLINE_SOON, match=match, game=match.game,
           deadline=match.deadline)
    match.reminded_deadline = match.deadline
    match.save(update_fields=["reminded_deadline"])
    return True


def deadlines_sweep(*, now: datetime | None = None, batch: int = 500) -> dict[str, int]:
    """Expire overdue deadlines and send due reminders, in batches through the partial index
    on active deadlines. Safe to run concurrently and repeatedly: each match is re-checked
    under its row lock."""
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
    soon = now + timedelta(seconds=settings.DEADLINE_REMINDER_SECONDS)
    last = None
    while True:
        page = active.filter(deadline__gt=now, deadline__lte=soon)
        if last is not None:
            page = page.filter(deadline__gt=last)
        rows = list(page.exclude(reminded_deadline=F("deadline")).order_by("deadline")
                    .values_list("id", "deadline")[:batch])
        done["reminded"] += sum(1 for match_id, _ in rows
                                if match_deadline_remind(match_id=match_id, now=now))
        if len(rows) < batch:
            break
        last = rows[-1][1]
    return done
