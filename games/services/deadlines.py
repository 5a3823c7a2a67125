"""Correspondence deadlines: what happens when a seat's time runs out, and the sweep Celery beat
runs to find it (the same sweep then sends the reminders due before deadlines,
``games.services.reminders``). The match's ``deadline`` is the soonest of its seats' clocks
(``games.services.clocks``); at it, the clocks say which seats ran out, and each late seat
times out or is spared by its player's vacation (auto-vacation). Each match is re-checked
under ``match_lock`` (after its players' vacation rows, ``games.services.away``) and changes
through the one recording path (a stalemate, forfeits, a vacation's clock entries) or the
abort a player would use."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from uuid import UUID

from django.db import transaction
from django.utils import timezone

from games import movelog
from games.clocks import clock, vacation
from games.models import Match, Move, Seat, UserEvent, Vacation
from games.selectors.clocks import match_clocks, match_control, others_all_bots, seat_calendars
from games.selectors.vacations import return_minimum, vacation_policy
from games.services import _recording
from games.services.away import player_clocks_stop, vacations_for_deadline
from games.services.clocks import clocks_deadline, late_seats, seat_deadlines
from games.services.leaving import seat_forfeit
from games.services.locking import LockedMatch, match_lock
from games.services.notifications import notify
from games.services.reminders import reminders_sweep
from games.services.timeouts import timeout_unrates
from games.services.vacations import vacation_auto_start


@dataclass(frozen=True)
class Spared:
    """A late seat a vacation spares: its clock stops at ``ran_out``, the instant its time ran
    out, where its player's vacation starts (or, ``away`` already, goes on)."""

    seat: Seat
    ran_out: datetime
    away: bool


@dataclass(frozen=True)
class Lateness:
    """The late seats of a match at a sweep, decided: those that time out and those a vacation
    spares."""

    timing_out: list[Seat] = field(default_factory=list)
    going_away: list[Spared] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.timing_out or self.going_away)


def seats_timing_out(locked: LockedMatch, *, now: datetime,
                     vacations: Mapping[int, Vacation]) -> Lateness:
    """The late seats of the locked match at ``now`` (still in play, clocks run out:
    ``games.clocks.clock.late_seats``), each timing out or spared. The one place that decides
    between a late seat's timeout and anything that spares it; every other seat keeps its
    clock.

    A seat is spared when its player's vacation stops this match's clock and, at the instant
    the seat ran out, the player is on vacation already, or keeps auto-vacation on with at
    least the return minimum in the bank (``games.clocks.clock.should_auto_vacation``):
    the vacation starts at that instant. ``vacations``: the players' rows, locked before the
    match (``games.services.away.vacations_for_deadline``); a player without one times
    out."""
    late = [seat for seat in late_seats(locked, now=now) if seat.forfeited_at is None]
    timing, clocks = match_control(locked.match), match_clocks(locked.match)
    if not late or timing is None or clocks is None or not vacations:
        return Lateness(timing_out=late)
    decided = Lateness()
    due, calendars = seat_deadlines(locked), seat_calendars(timing, locked.seats)
    rules, minimum = vacation_policy(), return_minimum()
    for seat in late:
        row = vacations.get(seat.user_id) if seat.user_id is not None else None
        if row is None:
            decided.timing_out.append(seat)
            continue
        stored = vacation.load_bank(row.bank)
        ran_out = max(due[seat.index], stored.as_of)
        bank = vacation.standing(rules, stored, ran_out)
        alone = others_all_bots(locked.seats, seat.index)
        spared = clock.vacation_applies(timing, others_all_bots=alone) and (
            bank.on_vacation or clock.should_auto_vacation(
                timing, clocks, seat.index, now, calendars[seat.index],
                vacation_left=vacation.left_at(rules, bank, ran_out),
                enabled=row.auto_vacation, others_all_bots=alone, minimum_left=minimum))
        (decided.going_away.append(Spared(seat, due[seat.index], bank.on_vacation)) if spared
         else decided.timing_out.append(seat))
    return decided


def _time_out(locked: LockedMatch, seat: Seat) -> None:
    """The seat times out: its player is told, and it forfeits (a timeout in a run leaves the
    match unrated, ``games.services.timeouts``)."""
    match = locked.match
    if seat.user is not None and not seat.user.is_bot:
        notify(user_ids=[seat.user.id], type=UserEvent.Type.TIMED_OUT, match=match,
               game=match.game)
    unrated = timeout_unrates(locked=locked, seat=seat)
    seat_forfeit(locked=locked, seat=seat, reason=movelog.TIMEOUT, unrated=unrated)


def _go_away(locked: LockedMatch, going: list[Spared]) -> LockedMatch:
    """Start the vacation of each spared seat's player at the instant the seat ran out (for one
    already away, the seat's clock stops then, as the vacation's start would have stopped it),
    and answer the match read again under its lock: the vacations wrote to it."""
    for spared in going:
        user = spared.seat.user
        if user is None:
            continue
        if spared.away:
            player_clocks_stop(user=user, at=spared.ran_out)
        else:
            vacation_auto_start(user=user, match=locked.match, at=spared.ran_out)
    return match_lock(match_id=locked.match.id)


@transaction.atomic
def match_deadline_expire(*, match_id: UUID | str, now: datetime | None = None) -> str | None:
    """Act on an expired deadline, if it still is one; returns what was done.

    A real-time match nobody touched for a while ends as a stalemate. Otherwise the seats
    whose clocks ran out time out, but for those a vacation spares (``seats_timing_out``):
    their players' vacations start at the instant the seats ran out ("vacation"). Where nobody
    has moved yet a timeout aborts the match (never rated); else each late seat forfeits: with
    two players the other wins, with more play goes on (the game decides whether the seat's
    cards leave play or a bot plays it on) and the other seats keep their clocks. A deadline
    that passed with no clock run out (stored before the clocks changed) is replaced by
    theirs."""
    now = now or timezone.now()
    vacations = vacations_for_deadline(match_id=match_id, now=now)
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
    late = seats_timing_out(locked, now=now, vacations=vacations)
    if not late:
        match.deadline = clocks_deadline(locked)
        match.save(update_fields=["deadline", "updated_at"])
        return None
    if late.going_away:
        locked = _go_away(locked, late.going_away)
        match = locked.match
    if not late.timing_out:
        return "vacation"
    if not match.moves.filter(kind=Move.Kind.MOVE).exists():
        _recording.abort(locked=locked, reason=movelog.TIMEOUT,
                         late=frozenset(seat.index for seat in late.timing_out))
        return "aborted"
    for seat in late.timing_out:
        if match.status != Match.Status.ACTIVE:
            break
        _time_out(locked, locked.seat(seat.index))
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
