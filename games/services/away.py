"""A player's vacation in their matches: the seat clocks it stops and restarts.

The three events of a vacation (``games.services.vacations``: it starts, the player comes back,
the bank runs out) act on the player's running matches here, in the event's transaction. When
the vacation starts, the player's seat clock stops (``player_clocks_stop``) in every running match
where the vacation applies (``games.clocks.clock.vacation_applies``: the match allows it and
another seat still in play is a person; a real-time race and a match without a clock are left
alone). When it ends, every seat of theirs whose clock stands stopped for a vacation restarts
at the instant it ended (``player_clocks_restart``), a seat on turn with at least the return minimum
(``VACATION_RETURN_MINIMUM_SECONDS``, never more than the match's turn or bank maximum). Each
stop and restart is a clock-only system entry of the match's log (``games.movelog.VACATION``),
written by the recording path under the match's lock, so watchers see the new clocks and the
match's deadline follows them.

Lock order (``games.services.locking``): the player's vacation row is locked by the caller,
then the matches here, all at once in id order. The deadline sweep, which may start a vacation
for a late seat, takes the same locks before the late match's own
(``vacations_for_deadline``).
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from accounts.models import User
from games import movelog
from games.clocks import vacation
from games.models import Match, Seat, Vacation
from games.selectors.clocks import is_person, match_clocks, match_control, seat_vacation_applies
from games.selectors.vacations import return_minimum, vacation_policy
from games.services import _recording
from games.services.clocks import clocks_vacation
from games.services.locking import LockedMatch, match_lock, matches_lock, vacations_lock


def _running(user: User, *, stopping: bool) -> list[UUID]:
    """The ids of the running matches with a clock in which ``user`` holds a seat (with
    ``stopping``: a seat still in play, in a match that does not forbid vacations), locked in
    id order."""
    seats = Seat.objects.filter(user=user, match__status=Match.Status.ACTIVE,
                                match__time_control__isnull=False)
    if stopping:
        seats = seats.filter(forfeited_at__isnull=True).exclude(
            match__time_control__vacation_allowed=False)
    return matches_lock(seats.values_list("match_id", flat=True))


def _seat_index(locked: LockedMatch, user: User) -> int | None:
    """The user's seat in the locked match if it is still running with a clock, not in real
    time."""
    seat = locked.seat_of(user)
    match = locked.match
    if (seat is None or match.status != Match.Status.ACTIVE or match.clocks is None
            or match.state is None or locked.engine.is_realtime(locked.state)):
        return None
    return seat.index


def player_clocks_stop(*, user: User, at: datetime) -> int:
    """The player went on vacation at ``at``: their seat's clock stops in each running match
    where the vacation applies (their vacation row locked by the caller). Returns how many
    matches changed."""
    changed = 0
    for match_id in _running(user, stopping=True):
        locked = match_lock(match_id=match_id)
        index, timing = _seat_index(locked, user), match_control(locked.match)
        clocks = match_clocks(locked.match)
        if (index is None or timing is None or clocks is None or clocks[index].vacation
                or locked.seats[index].forfeited_at is not None
                or not seat_vacation_applies(timing, locked.seats, index)):
            continue
        _recording.clocks_record(
            locked=locked, clocks=clocks_vacation(locked, index, away=True, now=at),
            payload=movelog.vacation_payload(index, away=True))
        changed += 1
    return changed


def player_clocks_restart(*, user: User, at: datetime) -> int:
    """The player's vacation ended at ``at``: each of their seats whose clock stands stopped
    for a vacation runs again from then (a seat on turn with at least the return minimum;
    their vacation row locked by the caller). Returns how many matches changed."""
    changed = 0
    minimum = return_minimum()
    for match_id in _running(user, stopping=False):
        locked = match_lock(match_id=match_id)
        index, clocks = _seat_index(locked, user), match_clocks(locked.match)
        if index is None or clocks is None or not clocks[index].vacation:
            continue
        _recording.clocks_record(
            locked=locked,
            clocks=clocks_vacation(locked, index, away=False, now=at, minimum_left=minimum),
            payload=movelog.vacation_payload(index, away=False))
        changed += 1
    return changed


def vacations_for_deadline(*, match_id: UUID | str, now: datetime) -> dict[int, Vacation]:
    """Before the deadline sweep locks a match that stops for vacations: lock the vacation rows
    of the people seated in it, then every running match of those whose late seat could be
    spared by a vacation (already away, or auto-vacation on with time in the bank), the match
    itself among them, in id order. Answers the rows by user id (none for a match that never
    stops for vacations: it forbids them or seats a single person; or one gone or over)."""
    timing = (Match.objects.filter(id=match_id, status=Match.Status.ACTIVE)
              .values_list("time_control", flat=True).first())
    if not isinstance(timing, dict) or timing.get("vacation_allowed") is False:
        return {}
    seats = Seat.objects.filter(match_id=match_id, user__isnull=False).select_related("user")
    people = [seat.user for seat in seats if is_person(seat) and seat.user is not None]
    if len(people) < 2:
        return {}
    rows = vacations_lock(people, now)
    rules = vacation_policy()
    could = [user.pk for user in people
             if _could_go_away(rules, rows[user.pk], vacation.load_bank(rows[user.pk].bank), now)]
    theirs = (Seat.objects.filter(user_id__in=could, match__status=Match.Status.ACTIVE,
                                  match__time_control__isnull=False)
              .exclude(match__time_control__vacation_allowed=False)
              .values_list("match_id", flat=True))
    matches_lock([match_id, *theirs])
    return rows


def _could_go_away(rules: vacation.VacationPolicy, row: Vacation, bank: vacation.VacationBank,
                   now: datetime) -> bool:
    """Whether a vacation could spare the player's late seat by ``now``: one runs, or
    auto-vacation is on and the bank has time."""
    return bank.on_vacation or (row.auto_vacation
                                and vacation.left_at(rules, bank, max(now, bank.as_of)) > 0)
