"""The clocks of a locked match on the write side.

After every transition the recording path moves the seats' clocks on here
(``games.clocks.clock.advance``: the turns of seats no longer to act end, the mover's with its
move, and those of the seats now to act begin) and the match's deadline becomes the soonest of
their deadlines, the one the sweep waits for. The deadline sweep asks which seats ran out
(``late_seats``). A player's vacation stops and restarts their seat's clock
(``clocks_vacation``, recorded by the recording path as a clock-only entry), and a match that
starts while a player is away starts with that seat's clock stopped
(``seats_away_at_start``). Storage: ``Match.time_control`` and ``Match.clocks`` (see
``games.selectors.clocks``, which reads them); nothing else writes them, and every change of
the clocks goes through ``clocks_store``, so the seats' reminders
(``games.services.reminders``) follow every one.

A seat that left the match (resigned, timed out, banned) has no clock running any more, even
where the game lets a bot play its cards on: nothing waits on it but the due-work sweep.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.clocks import clock, control
from games.clocks.calendar import Calendar
from games.clocks.clock import Clocks
from games.clocks.control import TimeControl
from games.clocks.errors import ClockError
from games.exceptions import InvalidTimeControl
from games.models import Match, Seat
from games.selectors.clocks import (
    is_person,
    match_clocks,
    match_control,
    not_before,
    seat_calendars,
    seat_vacation_applies,
)
from games.selectors.vacations import away_at
from games.services.locking import LockedMatch, match_lock, matches_lock, vacations_lock
from games.services.reminders import REMINDER_FIELDS, reminders_follow_clocks

# The match row's fields that change with its clocks, for every save after ``clocks_store``.
CLOCK_FIELDS = ["clocks", "deadline", *REMINDER_FIELDS]


def _time_control_message(error: ClockError) -> str:
    """What a bad time control's error says, in the caller's language."""
    names = {"field": error.field, **error.extra}
    if error.field is None:
        return _("A time control must be a JSON object.")
    if error.field == "kind":
        return _("Unknown clock kind: per_move or bank.")
    if "allowed" in error.extra:
        return _("A %(kind)s time control has no “%(field)s”.") % {
            "kind": "bank" if "initial_seconds" in error.extra["allowed"] else "per_move",
            "field": error.field}
    if "minimum" in error.extra and "maximum" in error.extra:
        return _("The time control's “%(field)s” must be a whole number of seconds from "
                 "%(minimum)d to %(maximum)d.") % names
    return _("The time control's “%(field)s” is not valid.") % names


def time_control_checked(data: Mapping[str, Any] | None) -> TimeControl | None:
    """The time control of ``data`` (``games.clocks.control``'s JSON form; None: none), every
    key and bound checked: ``InvalidTimeControl`` (``invalid_time_control``, with
    ``extra.field``) otherwise."""
    if data is None:
        return None
    try:
        return control.parse(data)
    except ClockError as error:
        raise InvalidTimeControl(_time_control_message(error),
                                 **error.as_dict()["extra"]) from None


def clocks_advance(locked: LockedMatch, *, actors: Iterable[int], now: datetime,
                   mover: int | None = None, new_turn: bool = False,
                   away: Iterable[int] = ()) -> datetime | None:
    """Move the locked match's clocks on after a transition: ``actors`` must act now, ``mover``
    (if any) has just moved, ``new_turn``: the seats to act grew, so a new turn begins for the
    mover too if it must act again (the last to place in a simultaneous draft); ``away``: seats
    whose clocks stop for their players' vacations first (at a match's start,
    ``seats_away_at_start``). Stores the clocks (``clocks_store``: the caller saves
    ``CLOCK_FIELDS``) and returns the soonest deadline; None without a time control."""
    match = locked.match
    timing = match_control(match)
    if timing is None:
        return None
    before = match_clocks(match)
    clocks = before or clock.new_clocks(timing, match.num_players)
    now = not_before(now, clocks)
    calendars = seat_calendars(timing, locked.seats)
    for seat in sorted(set(away)):
        if not clocks[seat].vacation:
            clocks = clock.start_vacation(timing, clocks, seat, now, calendars[seat])
    running = sorted(seat for seat in set(actors) if locked.seats[seat].forfeited_at is None)
    if new_turn and mover in running and mover is not None and clocks[mover].on_turn:
        clocks = clock.move(timing, clocks, mover, now, calendars[mover])
    clocks = clock.advance(timing, clocks, running, now, calendars, mover)
    clocks_store(locked, before, clocks, calendars)
    return clock.soonest_deadline(clocks, calendars)


def clocks_store(locked: LockedMatch, before: Clocks | None, after: Clocks,
                 calendars: Sequence[Calendar]) -> None:
    """The one place the locked match's clocks change: ``after`` becomes ``match.clocks``
    (``before``: the clocks it had, None for none), and its reminders follow them
    (``games.services.reminders``: a seat whose clock changed is reminded anew, and the
    match's next reminder is counted with ``calendars``). The caller saves ``CLOCK_FIELDS``."""
    locked.match.clocks = clock.dump_clocks(after)
    reminders_follow_clocks(locked, before, after, calendars)


def clocks_stop(locked: LockedMatch, *, now: datetime) -> None:
    """The match ended or was called off: every turn ends, no seat's clock stays stopped for its
    player's vacation (``games.clocks.clock.over``), and no reminder is left (``CLOCK_FIELDS``,
    saved by the caller)."""
    timing, before = match_control(locked.match), match_clocks(locked.match)
    if timing is None or before is None:
        return
    calendars = seat_calendars(timing, locked.seats)
    clocks_store(locked, before, clock.over(timing, before, not_before(now, before), calendars),
                 calendars)


def clocks_deadline(locked: LockedMatch) -> datetime | None:
    """The soonest deadline of the locked match's clocks as they are stored."""
    timing, clocks = match_control(locked.match), match_clocks(locked.match)
    if timing is None or clocks is None:
        return None
    return clock.soonest_deadline(clocks, seat_calendars(timing, locked.seats))


def seat_deadlines(locked: LockedMatch) -> dict[int, datetime]:
    """Each seat's deadline, for the seats whose clocks run."""
    timing, clocks = match_control(locked.match), match_clocks(locked.match)
    if timing is None or clocks is None:
        return {}
    calendars = seat_calendars(timing, locked.seats)
    due = {seat: clock.deadline(clocks, seat, cal) for seat, cal in enumerate(calendars)}
    return {seat: moment for seat, moment in due.items() if moment is not None}


def seats_away_at_start(locked: LockedMatch, *, now: datetime, realtime: bool) -> list[int]:
    """The seats of a match starting at ``now`` whose players are on vacation, where their
    vacation stops its clocks (the match allows it, another seat is a person; never a
    real-time race): their clocks start stopped. The players' vacation rows are locked first
    (``vacations_lock``), so a vacation starting meanwhile either waits for this start and
    then stops the match's clock, or is seen here."""
    timing = match_control(locked.match)
    people = [seat for seat in locked.seats if is_person(seat)]
    if timing is None or not timing.vacation_allowed or realtime or len(people) < 2:
        return []
    rows = vacations_lock([seat.user for seat in people if seat.user is not None], now)
    return [seat.index for seat in people
            if seat.user_id in rows and away_at(rows[seat.user_id], now)
            and seat_vacation_applies(timing, locked.seats, seat.index)]


def clocks_vacation(locked: LockedMatch, seat: int, *, away: bool, now: datetime,
                    minimum_left: int = 0) -> Clocks:
    """The locked match's clocks once seat ``seat``'s clock stops for its player's vacation
    (``away``) or restarts on their return, at ``now`` (never before the seat's clock last
    started), a seat on turn coming back with at least ``minimum_left`` seconds
    (``games.clocks.clock.end_vacation``). Nothing is stored: the recording path records it
    (``clocks_store``).
    Raises ``ClockError`` when the seat's clock is already so (``AlreadyOnVacation``,
    ``NotOnVacation``) or the match does not stop for vacations."""
    timing, clocks = match_control(locked.match), match_clocks(locked.match)
    if timing is None or clocks is None:
        raise ValueError("A match without a clock has no vacation to stop it.")
    now = not_before(now, clocks[seat:seat + 1])
    if away:
        return clock.start_vacation(timing, clocks, seat, now,
                                    seat_calendars(timing, locked.seats)[seat])
    return clock.end_vacation(timing, clocks, seat, now, minimum_left=minimum_left)


def late_seats(locked: LockedMatch, *, now: datetime) -> list[Seat]:
    """The seats of the locked match whose time has run out by ``now``, in seat order."""
    timing, clocks = match_control(locked.match), match_clocks(locked.match)
    if timing is None or clocks is None:
        return []
    now = not_before(now, clocks)
    late = clock.late_seats(clocks, now, seat_calendars(timing, locked.seats))
    return [locked.seats[index] for index in late]


@transaction.atomic
def player_time_zone_change(*, user: User, zone: str, now: datetime | None = None) -> int:
    """The player's time zone becomes ``zone`` (an IANA name): in every running match of theirs
    that pauses on weekends, the time their seat's clock used so far is charged under the old
    zone (``games.clocks.clock.settle``), and the match's deadline is then counted under the
    new one. Run it in the transaction that stores the new zone; returns how many matches
    changed."""
    now = now or timezone.now()
    changed = 0
    matches = (Seat.objects.filter(user=user, match__status=Match.Status.ACTIVE,
                                   match__time_control__weekend_pause=True)
               .values_list("match_id", flat=True))
    # In id order, as every transaction that locks several matches does (games.services.locking).
    for match_id in matches_lock(matches):
        locked = match_lock(match_id=match_id)
        timing, clocks, seat = match_control(locked.match), match_clocks(locked.match), \
            locked.seat_of(user)
        if timing is None or clocks is None or seat is None:
            continue
        calendars = seat_calendars(timing, locked.seats)
        settled = clock.settle(clocks, seat.index, not_before(now, clocks),
                               calendars[seat.index])
        counted = seat_calendars(timing, locked.seats, {seat.index: zone})
        clocks_store(locked, clocks, settled, counted)
        if not locked.engine.is_realtime(locked.state):
            locked.match.deadline = clock.soonest_deadline(settled, counted)
        locked.match.save(update_fields=[*CLOCK_FIELDS, "updated_at"])
        changed += 1
    return changed
