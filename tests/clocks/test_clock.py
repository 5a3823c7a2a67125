"""Seat clocks by example: today's per-move deadlines, simultaneous phases, reminders,
auto-vacation, carrying old deadlines over, and every coded error (which changes nothing)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.clocks import clock
from games.clocks.calendar import calendar
from games.clocks.control import MAX_TURN, MIN_TURN, dump, parse, per_move
from games.clocks.errors import (
    AlreadyOnVacation,
    ClockError,
    InvalidClockState,
    InvalidTimeControl,
    NotOnTurn,
    NotOnVacation,
    TimeWentBack,
    VacationNotAllowed,
)
from tests.clocks.strategies import PROPERTY_SETTINGS, instants

HOUR, DAY = 3600, 86400
MONDAY = datetime(2026, 12, 7, 9, tzinfo=UTC)
NONE = calendar(None)
BANK = parse({"kind": "bank", "initial_seconds": 3 * DAY, "increment_seconds": DAY,
              "maximum_seconds": 5 * DAY})


def later(hours: float) -> datetime:
    return MONDAY + timedelta(hours=hours)


@PROPERTY_SETTINGS
@given(st.integers(MIN_TURN, MAX_TURN), instants, st.integers(0, MAX_TURN))
def test_per_move_deadlines_are_those_of_today(turn, start, asked) -> None:
    control = per_move(turn)
    clocks = clock.start_turns(control, clock.new_clocks(control, 2), [1], start)
    start = start.replace(microsecond=0)
    assert clock.deadline(clocks, 1, NONE) == start + timedelta(seconds=turn)
    assert clock.time_left(clocks, 1, start + timedelta(seconds=asked), NONE) == \
        max(0, turn - asked)
    # The next turn is a full one again, whatever the last one used.
    clocks = clock.move(control, clocks, 1, start + timedelta(seconds=asked), NONE)
    assert clocks[1].left == turn


def test_a_simultaneous_phase_runs_every_seat_on_its_own_clock() -> None:
    control, cals = BANK, [NONE] * 3
    clocks = clock.advance(control, clock.new_clocks(control, 3), {0, 1, 2}, MONDAY, cals)
    clocks = clock.advance(control, clocks, {0, 2}, later(10), cals, mover=1)
    assert clocks[1].left == 3 * DAY - 10 * HOUR + DAY
    assert not clocks[1].on_turn
    # The seats still choosing keep the deadlines they had.
    assert clock.deadline(clocks, 0, cals[0]) == clock.deadline(clocks, 2, cals[2]) == later(72)
    assert clock.soonest_deadline(clocks, cals) == later(72)
    assert clock.late_seats(clocks, later(72), cals) == (0, 2)
    # A seat that acts again straight after its move goes on with the same turn.
    again = clock.advance(control, clocks, {0, 2}, later(11), cals, mover=0)
    assert again == clocks


def test_a_bank_is_capped_at_its_maximum() -> None:
    clocks = clock.start_turns(BANK, clock.new_clocks(BANK, 2), [0], MONDAY)
    for hour in range(1, 4):
        clocks = clock.move(BANK, clocks, 0, later(hour * 2 - 1), NONE)
        clocks = clock.start_turns(BANK, clocks, [0], later(hour * 2))
    assert clocks[0].left == 5 * DAY


def test_a_weekend_pause_stops_the_clock_on_the_players_weekend() -> None:
    control = parse({"kind": "per_move", "turn_seconds": 2 * DAY, "weekend_pause": True})
    cal = clock.seat_calendar(control, "Asia/Kathmandu")
    friday = datetime(2026, 12, 11, 12, tzinfo=UTC)
    clocks = clock.start_turns(control, clock.new_clocks(control, 2), [0], friday)
    # Friday 17:45 to Saturday 00:00 local is 6 h 15 min; the rest runs from Monday 00:00.
    assert clock.deadline(clocks, 0, cal) == datetime(2026, 12, 15, 12, tzinfo=UTC)
    assert clock.seat_calendar(per_move(DAY), "Asia/Kathmandu") == NONE


def test_reminders_come_once_each_as_the_time_left_falls() -> None:
    control, offsets = per_move(2 * DAY), [DAY, 4 * HOUR, HOUR]
    clocks = clock.start_turns(control, clock.new_clocks(control, 2), [0], MONDAY)
    assert clock.due_reminders(clocks, 0, MONDAY, NONE, offsets) == ()
    assert clock.next_reminder(clocks, 0, NONE, offsets) == later(24)
    assert clock.due_reminders(clocks, 0, later(24), NONE, offsets) == (DAY,)
    assert clock.next_reminder(clocks, 0, NONE, offsets, sent=[DAY]) == later(44)
    # A sweep that comes late finds several due at once, the most urgent last.
    assert clock.due_reminders(clocks, 0, later(47.5), NONE, offsets) == (DAY, 4 * HOUR, HOUR)
    assert clock.due_reminders(clocks, 0, later(47.5), NONE, offsets, sent=offsets) == ()
    assert clock.next_reminder(clocks, 0, NONE, offsets, sent=offsets) is None
    # None once the time has run out, none for a turn shorter than the reminder.
    assert clock.due_reminders(clocks, 0, later(48), NONE, offsets) == ()
    short = per_move(3 * HOUR)
    clocks = clock.start_turns(short, clock.new_clocks(short, 2), [0], MONDAY)
    assert clock.due_reminders(clocks, 0, later(2.5), NONE, offsets) == (HOUR,)


def test_auto_vacation_starts_instead_of_a_timeout_only_when_it_may() -> None:
    clocks = clock.start_turns(BANK, clock.new_clocks(BANK, 2), [0], MONDAY)
    out = later(72)

    def asks(control=BANK, now=out, **options) -> bool:
        options = {"vacation_left": DAY, "enabled": True, "others_all_bots": False} | options
        return clock.should_auto_vacation(control, clocks, 0, now, NONE, **options)

    assert asks()
    assert not asks(now=out - timedelta(seconds=1))
    assert not asks(vacation_left=0)
    assert not asks(enabled=False)
    assert not asks(others_all_bots=True)
    forbidding = parse({"kind": "bank", "initial_seconds": 3 * DAY, "vacation_allowed": False})
    assert not asks(control=forbidding)
    away = clock.start_vacation(BANK, clocks, 0, out, NONE)
    assert not clock.should_auto_vacation(BANK, away, 0, out, NONE, vacation_left=DAY)


def test_auto_vacation_needs_the_bank_to_hold_what_a_return_gives_back() -> None:
    clocks = clock.start_turns(BANK, clock.new_clocks(BANK, 2), [0], MONDAY)
    out = later(72)

    def asks(control=BANK, left=DAY, minimum=DAY) -> bool:
        return clock.should_auto_vacation(control, clocks, 0, out, NONE, vacation_left=left,
                                          minimum_left=minimum)

    assert asks(left=DAY) and not asks(left=DAY - 1)
    # The floor is what the return would give: never more than the control's most.
    assert clock.returning_minimum(BANK, 99 * DAY) == 5 * DAY
    assert asks(left=5 * DAY, minimum=99 * DAY) and not asks(left=5 * DAY - 1, minimum=99 * DAY)
    hourly = per_move(HOUR)
    hourly_clocks = clock.start_turns(hourly, clock.new_clocks(hourly, 2), [0], MONDAY)
    assert clock.should_auto_vacation(hourly, hourly_clocks, 0, later(1), NONE,
                                      vacation_left=HOUR, minimum_left=DAY)
    assert not clock.should_auto_vacation(hourly, hourly_clocks, 0, later(1), NONE,
                                          vacation_left=HOUR - 1, minimum_left=DAY)
    # Without a minimum, a second of vacation is enough; an empty bank never is.
    assert asks(left=1, minimum=0) and not asks(left=0, minimum=0)


def test_a_return_from_vacation_may_bring_a_minimum_of_time() -> None:
    clocks = clock.start_turns(BANK, clock.new_clocks(BANK, 2), [0], MONDAY)
    clocks = clock.start_vacation(BANK, clocks, 0, later(72), NONE)
    back = clock.end_vacation(BANK, clocks, 0, later(100), minimum_left=DAY)
    assert clock.time_left(back, 0, later(100), NONE) == DAY
    assert clock.deadline(back, 0, NONE) == later(124)
    huge = clock.end_vacation(BANK, clocks, 0, later(100), minimum_left=99 * DAY)
    assert huge[0].left == 5 * DAY


def test_a_vacation_off_turn_stops_the_next_turn_from_its_start() -> None:
    clocks = clock.start_vacation(BANK, clock.new_clocks(BANK, 2), 1, MONDAY, NONE)
    clocks = clock.start_turns(BANK, clocks, [1], later(1))
    assert clock.deadline(clocks, 1, NONE) is None
    clocks = clock.end_vacation(BANK, clocks, 1, later(5))
    assert clock.deadline(clocks, 1, NONE) == later(77)
    assert clock.describe(clocks, 1, later(5), NONE) == {
        "time_left": 3 * DAY, "deadline": later(77).isoformat(), "on_turn": True,
        "running": True, "vacation": False}


def test_a_match_over_ends_every_turn_and_keeps_no_clock_stopped_for_a_vacation() -> None:
    clocks = clock.start_turns(BANK, clock.new_clocks(BANK, 3), [0, 1], MONDAY)
    clocks = clock.start_vacation(BANK, clocks, 1, later(2), NONE)
    clocks = clock.start_vacation(BANK, clocks, 2, later(2), NONE)
    done = clock.over(BANK, clocks, later(5), [NONE] * 3)
    assert done == (clock.SeatClock(left=3 * DAY - 5 * HOUR),
                    clock.SeatClock(left=3 * DAY - 2 * HOUR), clock.SeatClock(left=3 * DAY))
    assert clock.load_clocks(clock.dump_clocks(done)) == done


def test_an_old_shared_deadline_is_carried_over_to_the_second() -> None:
    deadline = datetime(2026, 12, 8, 10, 30, 15, 250000, tzinfo=UTC)
    clocks = clock.carried_over(per_move(DAY), 3, [0, 2], deadline)
    rounded = deadline.replace(microsecond=0) + timedelta(seconds=1)
    assert [clock.deadline(clocks, seat, NONE) for seat in range(3)] == [rounded, None, rounded]
    with pytest.raises(InvalidTimeControl):
        clock.carried_over(BANK, 2, [0], deadline)


def _unchanged(call, clocks, error: type[ClockError], code: str) -> None:
    before = clock.dump_clocks(clocks)
    with pytest.raises(error) as caught:
        call()
    assert caught.value.code == code
    assert clock.dump_clocks(clocks) == before


def test_every_bad_transition_is_a_coded_error() -> None:
    clocks = clock.start_turns(BANK, clock.new_clocks(BANK, 2), [0], MONDAY)
    away = clock.start_vacation(BANK, clocks, 0, later(1), NONE)
    forbidding = parse({"kind": "bank", "initial_seconds": DAY, "vacation_allowed": False})
    cases = [
        (lambda: clock.move(BANK, clocks, 1, later(1), NONE), NotOnTurn, "not_on_turn"),
        (lambda: clock.stop_turn(BANK, clocks, 1, later(1), NONE), NotOnTurn, "not_on_turn"),
        (lambda: clock.move(BANK, clocks, 2, later(1), NONE), InvalidClockState,
         "invalid_clock_state"),
        (lambda: clock.start_turns(BANK, clocks, [0, -1], later(1)), InvalidClockState,
         "invalid_clock_state"),
        (lambda: clock.move(BANK, clocks, 0, later(-1), NONE), TimeWentBack, "time_went_back"),
        (lambda: clock.start_vacation(forbidding, clocks, 0, later(1), NONE),
         VacationNotAllowed, "vacation_not_allowed"),
        (lambda: clock.start_vacation(BANK, away, 0, later(2), NONE), AlreadyOnVacation,
         "already_on_vacation"),
        (lambda: clock.end_vacation(BANK, clocks, 0, later(2)), NotOnVacation,
         "not_on_vacation"),
        (lambda: clock.end_vacation(BANK, away, 0, later(-1)), TimeWentBack, "time_went_back"),
        (lambda: clock.soonest_deadline(clocks, [NONE]), InvalidClockState,
         "invalid_clock_state"),
        (lambda: clock.advance(BANK, clocks, {3}, later(1), [NONE, NONE]), InvalidClockState,
         "invalid_clock_state"),
    ]
    for call, error, code in cases:
        _unchanged(call, clocks, error, code)


@pytest.mark.parametrize("data", [
    None, {}, [None], [{"left": 1}],
    [{"left": -1, "turn_started": None, "since": None, "vacation": False}],
    [{"left": 1.5, "turn_started": None, "since": None, "vacation": False}],
    [{"left": 1, "turn_started": None, "since": None, "vacation": "no"}],
    [{"left": 1, "turn_started": "yesterday", "since": None, "vacation": False}],
    [{"left": 1, "turn_started": "2026-12-07T09:00:00", "since": None, "vacation": False}],
    [{"left": 1, "turn_started": None, "since": "2026-12-07T09:00:00+00:00",
      "vacation": False}],
    [{"left": 1, "turn_started": "2026-12-07T09:00:00+00:00", "since": None,
      "vacation": False}],
    [{"left": 1, "turn_started": "2026-12-07T09:00:00+00:00",
      "since": "2026-12-07T08:00:00+00:00", "vacation": False}],
    [{"left": 1, "turn_started": "2026-12-07T09:00:00+00:00",
      "since": "2026-12-07T09:00:00+00:00", "vacation": True}],
])
def test_stored_clocks_that_do_not_parse_are_a_coded_error(data) -> None:
    with pytest.raises(InvalidClockState) as caught:
        clock.load_clocks(data)
    assert caught.value.code == "invalid_clock_state"


def test_a_running_clock_counts_down_except_while_a_weekend_holds_it() -> None:
    paris = clock.seat_calendar(parse({**dump(BANK), "weekend_pause": True}),
                                "Europe/Paris")
    clocks = clock.start_turns(BANK, clock.new_clocks(BANK, 2), [0], MONDAY)
    assert clock.counting(clocks, 0, later(1), paris) is True
    assert clock.counting(clocks, 1, later(1), paris) is False, "not its turn"
    saturday = datetime(2026, 12, 12, 12, tzinfo=UTC)
    assert clock.counting(clocks, 0, saturday, paris) is False
    assert clock.counting(clocks, 0, saturday, NONE) is True
    # The first second of the weekend (Saturday 00:00 in Paris, 23:00 UTC) is held.
    assert clock.counting(clocks, 0, datetime(2026, 12, 11, 22, 59, 59, tzinfo=UTC), paris)
    assert not clock.counting(clocks, 0, datetime(2026, 12, 11, 23, 0, tzinfo=UTC), paris)
    on_vacation = clock.start_vacation(BANK, clocks, 0, later(2), NONE)
    assert clock.counting(on_vacation, 0, later(3), NONE) is False
