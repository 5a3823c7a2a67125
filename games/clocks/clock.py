"""Each seat's clock, the transitions that change it and the questions asked of it.

A seat's clock is a :class:`SeatClock`: ``left``, the running time the seat has, counted from
``since``, the instant its clock last started running (``None`` while it stands still: not the
seat's turn, or its player on vacation); ``turn_started``, the instant its current turn began
(``None`` when it is not its turn); ``vacation``, whether its player's vacation stops it. A
match's clocks are a tuple of them, one per seat, and round-trip through JSON
(``load_clocks(dump_clocks(c)) == c``).

At any instant ``now`` a seat has ``left - running_between(calendar, since, now)`` seconds left,
never less than zero, where the seat's calendar pauses weekends in its player's zone when the
match asks for it. Its deadline is the instant that reaches zero; it depends only on the state
and the calendar, so it is the same instant whenever it is asked while nothing changes.

The transitions, each returning new clocks and changing nothing when it raises:

- :func:`start_turns`: the seats' turns begin (several at once in a simultaneous phase); a
  per-move seat gets its full turn again, a bank seat goes on with its bank.
- :func:`move`: the seat's turn ends with its move: the running time of the turn comes off,
  then the increment is added and the bank capped at its maximum (per move: the next turn will
  be a full one). :func:`stop_turn` ends a turn without a move (no increment).
- :func:`advance`: the one call after a game's transition: turns end for the seats no longer
  to act (the mover's with its move), turns begin for the new ones; a seat that acts again
  right away (an undo, a turn of several parts) simply goes on with the turn it has.
- :func:`start_vacation` / :func:`end_vacation`: the seat's clock stops (the time used so far
  is charged) and starts again, a seat on turn with at least a given minimum (never more than
  the control's most).
- :func:`settle`: the time used so far is charged and counting starts again from ``now``
  (before a change of the seat's calendar, such as its player's time zone).
- :func:`over`: the match is over: every turn ends, no clock stays stopped for a vacation.

Invariants (property-tested in ``tests/clocks``): time left is never negative; paused and
vacation time is never charged; over a turn, the time charged plus the time paused equals the
wall time; a bank never exceeds its maximum; per move without pauses, the deadline is the turn's
start plus the turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from games.clocks.calendar import (
    Calendar,
    after_running,
    calendar,
    running_between,
    running_seconds,
)
from games.clocks.control import PerMove, TimeControl
from games.clocks.errors import (
    AlreadyOnVacation,
    InvalidClockState,
    InvalidTimeControl,
    NotOnTurn,
    NotOnVacation,
    TimeWentBack,
    VacationNotAllowed,
)
from games.clocks.instants import dump_instant, instant, load_instant, seconds, seconds_up, whole


@dataclass(frozen=True)
class SeatClock:
    left: int
    turn_started: datetime | None = None
    since: datetime | None = None
    vacation: bool = False

    @property
    def on_turn(self) -> bool:
        return self.turn_started is not None

    @property
    def running(self) -> bool:
        return self.since is not None


Clocks = tuple[SeatClock, ...]


def _at(now: datetime) -> datetime:
    return instant(seconds(now))


def new_clocks(control: TimeControl, seats: int) -> Clocks:
    """The clocks of a new match: every seat with its full turn or initial bank, none running."""
    return tuple(SeatClock(left=control.fresh) for _ in range(seats))


def carried_over(control: TimeControl, seats: int, actors: Iterable[int],
                 deadline: datetime) -> Clocks:
    """The clocks of a per-move match that had one shared ``deadline`` before seats had clocks:
    each seat to act has a turn that began a full turn before it, so its deadline stays the
    same (to the second, rounded up)."""
    if not isinstance(control.clock, PerMove):
        raise InvalidTimeControl("Only a per-move match carries a deadline over.", field="kind")
    started = instant(seconds_up(deadline) - control.clock.turn)
    clocks = new_clocks(control, seats)
    for seat in set(actors):
        _seat(clocks, seat)
        clocks = _put(clocks, seat, replace(clocks[seat], turn_started=started, since=started))
    return clocks


def seat_calendar(control: TimeControl, zone: str | None) -> Calendar:
    """A seat's calendar: weekends in its player's ``zone`` if the match pauses on weekends."""
    return calendar(zone if control.weekend_pause else None)


def vacation_applies(control: TimeControl, *, others_all_bots: bool) -> bool:
    """Whether a player's vacation stops this match's clock: the match allows it and some other
    seat is a person (a match against bots only neither stops nor spends the bank)."""
    return control.vacation_allowed and not others_all_bots


# --------------------------------------------------------------------------- helpers


def _seat(clocks: Clocks, seat: int) -> SeatClock:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(clocks):
        raise InvalidClockState("No such seat.", field="seat", seat=seat, seats=len(clocks))
    return clocks[seat]


def _put(clocks: Clocks, seat: int, clock: SeatClock) -> Clocks:
    return clocks[:seat] + (clock,) + clocks[seat + 1:]


def _used(clock: SeatClock, now: datetime, cal: Calendar) -> int:
    """Running time since the clock last started (0 when it stands still)."""
    if clock.since is None:
        return 0
    if seconds(now) < seconds(clock.since):
        raise TimeWentBack("The instant is earlier than the clock's start.", field="now",
                           since=dump_instant(clock.since))
    return running_between(cal, clock.since, now)


def _charged(clock: SeatClock, now: datetime, cal: Calendar) -> int:
    """What the clock holds at ``now`` once the running time is charged."""
    return max(0, clock.left - _used(clock, now, cal))


# --------------------------------------------------------------------------- transitions


def start_turns(control: TimeControl, clocks: Clocks, seats: Iterable[int],
                now: datetime) -> Clocks:
    """The turns of ``seats`` begin at ``now`` (seats already on turn go on with theirs)."""
    now = _at(now)
    chosen = sorted(set(seats))
    for seat in chosen:
        _seat(clocks, seat)
    for seat in chosen:
        clock = clocks[seat]
        if clock.on_turn:
            continue
        left = control.fresh if isinstance(control.clock, PerMove) else clock.left
        clocks = _put(clocks, seat, replace(clock, left=left, turn_started=now,
                                            since=None if clock.vacation else now))
    return clocks


def _end_turn(control: TimeControl, clocks: Clocks, seat: int, now: datetime, cal: Calendar,
              *, moved: bool) -> Clocks:
    clock = _seat(clocks, seat)
    if not clock.on_turn:
        raise NotOnTurn("The seat's turn is not running.", field="seat", seat=seat)
    left = _charged(clock, now, cal)
    rule = control.clock
    if isinstance(rule, PerMove):
        left = rule.turn
    elif moved:
        left = min(rule.maximum, left + rule.increment)
    return _put(clocks, seat, replace(clock, left=left, turn_started=None, since=None))


def move(control: TimeControl, clocks: Clocks, seat: int, now: datetime,
         cal: Calendar) -> Clocks:
    """The seat's turn ends with its move at ``now``."""
    return _end_turn(control, clocks, seat, now, cal, moved=True)


def stop_turn(control: TimeControl, clocks: Clocks, seat: int, now: datetime,
              cal: Calendar) -> Clocks:
    """The seat's turn ends without a move of its own (it left, the match ended)."""
    return _end_turn(control, clocks, seat, now, cal, moved=False)


def advance(control: TimeControl, clocks: Clocks, actors: Iterable[int], now: datetime,
            calendars: Sequence[Calendar], mover: int | None = None) -> Clocks:
    """The clocks after a transition of the game: ``actors`` must act now, ``mover`` (if any)
    has just moved."""
    to_act = set(actors)
    _calendars(clocks, calendars)
    for seat in to_act:
        _seat(clocks, seat)
    for seat, clock in enumerate(clocks):
        if clock.on_turn and seat not in to_act:
            clocks = _end_turn(control, clocks, seat, now, calendars[seat],
                               moved=seat == mover)
    return start_turns(control, clocks, to_act, now)


def over(control: TimeControl, clocks: Clocks, now: datetime,
         calendars: Sequence[Calendar]) -> Clocks:
    """The clocks of a match that is over at ``now``: every turn still on ends without a move,
    and no clock stands stopped for a vacation any more (nothing of the match runs again)."""
    clocks = advance(control, clocks, (), now, calendars)
    return tuple(replace(clock, vacation=False) for clock in clocks)


def settle(clocks: Clocks, seat: int, now: datetime, cal: Calendar) -> Clocks:
    """Charge the running time so far and count again from ``now`` (same deadline)."""
    clock = _seat(clocks, seat)
    if clock.since is None:
        return clocks
    return _put(clocks, seat, replace(clock, left=_charged(clock, now, cal), since=_at(now)))


def start_vacation(control: TimeControl, clocks: Clocks, seat: int, now: datetime,
                   cal: Calendar) -> Clocks:
    """The seat's player goes on vacation at ``now``: its clock stops."""
    clock = _seat(clocks, seat)
    if not control.vacation_allowed:
        raise VacationNotAllowed("This match does not stop for vacations.", field="seat",
                                 seat=seat)
    if clock.vacation:
        raise AlreadyOnVacation("The seat's clock is already stopped for a vacation.",
                                field="seat", seat=seat)
    return _put(clocks, seat, replace(clock, left=_charged(clock, now, cal), since=None,
                                      vacation=True))


def returning_minimum(control: TimeControl, minimum_left: int) -> int:
    """The least time a seat whose turn runs is given back when its player's vacation ends:
    ``minimum_left``, never more than the control's most (the turn, or the bank's maximum)."""
    return max(0, min(minimum_left, control.most))


def end_vacation(control: TimeControl, clocks: Clocks, seat: int, now: datetime,
                 minimum_left: int = 0) -> Clocks:
    """The seat's player is back at ``now``: its clock runs again if it is its turn, with at
    least ``minimum_left`` seconds (never more than the control's most:
    :func:`returning_minimum`); a seat off turn keeps what it holds for its next turn."""
    clock = _seat(clocks, seat)
    if not clock.vacation:
        raise NotOnVacation("The seat's clock is not stopped for a vacation.", field="seat",
                            seat=seat)
    if not clock.on_turn:
        return _put(clocks, seat, replace(clock, vacation=False))
    if clock.turn_started is not None and seconds(now) < seconds(clock.turn_started):
        raise TimeWentBack("The instant is earlier than the turn's start.", field="now",
                           turn_started=dump_instant(clock.turn_started))
    left = max(clock.left, returning_minimum(control, minimum_left))
    return _put(clocks, seat, replace(clock, left=left, since=_at(now), vacation=False))


# --------------------------------------------------------------------------- questions


def time_left(clocks: Clocks, seat: int, now: datetime, cal: Calendar) -> int:
    """The seat's running time left at ``now``, in seconds (never negative)."""
    return _charged(_seat(clocks, seat), now, cal)


def used(clocks: Clocks, seat: int, now: datetime, cal: Calendar) -> int:
    """The running time the seat's clock has counted since it last started."""
    return _used(_seat(clocks, seat), now, cal)


def deadline(clocks: Clocks, seat: int, cal: Calendar) -> datetime | None:
    """The instant the seat's time runs out, given the pauses its calendar knows; ``None``
    while its clock stands still."""
    clock = _seat(clocks, seat)
    if clock.since is None:
        return None
    return after_running(cal, clock.since, clock.left)


def has_run_out(clocks: Clocks, seat: int, now: datetime, cal: Calendar) -> bool:
    """Whether the seat's deadline has come by ``now``."""
    due = deadline(clocks, seat, cal)
    return due is not None and seconds(due) <= seconds(now)


def counting(clocks: Clocks, seat: int, now: datetime, cal: Calendar) -> bool:
    """Whether the seat's clock counts down at ``now``: it runs, and no pause of its calendar
    (a weekend) holds it during that second. A view counts a running clock down only while
    this holds."""
    clock = _seat(clocks, seat)
    if clock.since is None:
        return False
    second = seconds(now)
    return running_seconds(cal, second, second + 1) == 1


def _calendars(clocks: Clocks, calendars: Sequence[Calendar]) -> None:
    if len(calendars) != len(clocks):
        raise InvalidClockState("One calendar per seat is needed.", field="calendars",
                                seats=len(clocks), calendars=len(calendars))


def soonest_deadline(clocks: Clocks, calendars: Sequence[Calendar]) -> datetime | None:
    """The match's next deadline, the one the deadline sweep waits for."""
    _calendars(clocks, calendars)
    due = [deadline(clocks, seat, cal) for seat, cal in enumerate(calendars)]
    known = [moment for moment in due if moment is not None]
    return min(known, default=None)


def late_seats(clocks: Clocks, now: datetime, calendars: Sequence[Calendar]) -> tuple[int, ...]:
    """The seats whose time has run out by ``now``."""
    _calendars(clocks, calendars)
    return tuple(seat for seat, cal in enumerate(calendars)
                 if has_run_out(clocks, seat, now, cal))


def due_reminders(clocks: Clocks, seat: int, now: datetime, cal: Calendar,
                  offsets: Iterable[int], sent: Iterable[int] = ()) -> tuple[int, ...]:
    """The reminders due for the seat at ``now``, most urgent last.

    A reminder ``N`` seconds before the deadline is due once the seat has ``N`` seconds or
    less of running time left, if its clock started this stretch with more than ``N`` (a
    player told of a turn with 3 hours to play is not also reminded 4 hours before); never
    once the time has run out, nor twice (``sent``: those already sent for this deadline).
    """
    clock = _seat(clocks, seat)
    if clock.since is None:
        return ()
    left = _charged(clock, now, cal)
    done = set(sent)
    return tuple(sorted((offset for offset in set(offsets)
                         if offset not in done and 0 < left <= offset < clock.left),
                        reverse=True))


def next_reminder(clocks: Clocks, seat: int, cal: Calendar, offsets: Iterable[int],
                  sent: Iterable[int] = ()) -> datetime | None:
    """The instant the seat's next reminder becomes due (``None``: no reminder is left)."""
    clock = _seat(clocks, seat)
    if clock.since is None:
        return None
    done = set(sent)
    pending = [offset for offset in set(offsets) if offset not in done and offset < clock.left]
    if not pending:
        return None
    return after_running(cal, clock.since, clock.left - max(pending))


def should_auto_vacation(control: TimeControl, clocks: Clocks, seat: int, now: datetime,
                         cal: Calendar, *, vacation_left: int, enabled: bool = True,
                         others_all_bots: bool = False, minimum_left: int = 0) -> bool:
    """Whether the seat's player goes on vacation instead of timing out: the time has run out,
    the player keeps auto-vacation on, the match stops for vacations and the vacation bank
    holds at least what the seat would be given back on its return (``minimum_left`` as
    :func:`end_vacation` takes it, capped by :func:`returning_minimum`; at least a second).

    Without that floor a player who stays away would never time out: each return gives the
    seat the minimum, and the few hours the bank earns meanwhile would start the next
    vacation. With it, a player whose bank ran out times out at the deadline after the
    return, the bank having earned less than it gave back (an eighth of it by default)."""
    clock = _seat(clocks, seat)
    floor = max(1, returning_minimum(control, minimum_left))
    return (enabled and vacation_left >= floor and not clock.vacation
            and vacation_applies(control, others_all_bots=others_all_bots)
            and has_run_out(clocks, seat, now, cal))


def describe(clocks: Clocks, seat: int, now: datetime, cal: Calendar) -> dict[str, Any]:
    """The seat's clock for a view: time left, deadline, whether it runs or is on vacation."""
    clock = _seat(clocks, seat)
    return {"time_left": time_left(clocks, seat, now, cal),
            "deadline": dump_instant(deadline(clocks, seat, cal)),
            "on_turn": clock.on_turn, "running": clock.running, "vacation": clock.vacation}


# --------------------------------------------------------------------------- JSON


def dump_clocks(clocks: Clocks) -> list[dict[str, Any]]:
    return [{"left": clock.left, "turn_started": dump_instant(clock.turn_started),
             "since": dump_instant(clock.since), "vacation": clock.vacation}
            for clock in clocks]


def _load_seat(data: object) -> SeatClock:
    if not isinstance(data, Mapping) or set(data) != {"left", "turn_started", "since",
                                                      "vacation"}:
        raise InvalidClockState("A seat clock has left, turn_started, since and vacation.",
                                field="clocks")
    left = whole(data["left"], "left")
    vacation = data["vacation"]
    turn_started = load_instant(data["turn_started"], "turn_started")
    since = load_instant(data["since"], "since")
    if left < 0 or not isinstance(vacation, bool):
        raise InvalidClockState("A seat clock's left is not negative and vacation is a flag.",
                                field="clocks")
    if since is not None and (turn_started is None or vacation or since < turn_started):
        raise InvalidClockState("A clock runs only on its turn, off vacation, since it began.",
                                field="since")
    if turn_started is not None and since is None and not vacation:
        raise InvalidClockState("A turn off vacation has a running clock.", field="since")
    return SeatClock(left=left, turn_started=turn_started, since=since, vacation=vacation)


def load_clocks(data: object) -> Clocks:
    """The clocks stored as JSON, every field checked (:class:`InvalidClockState`)."""
    if not isinstance(data, list):
        raise InvalidClockState("The clocks are a list, one per seat.", field="clocks")
    return tuple(_load_seat(item) for item in data)
