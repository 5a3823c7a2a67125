"""Seat clocks over random schedules: turns (several at once), moves, vacations, settling,
checked after every step against an independent account of the running time."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from games.clocks import clock, vacation
from games.clocks.calendar import after_running, calendar, running_between
from games.clocks.control import Bank, PerMove, TimeControl
from games.clocks.errors import AlreadyOnVacation, NotOnVacation
from tests.clocks.strategies import PROPERTY_SETTINGS, at, controls, seconds_between, zones

ACTIONS = ["advance", "advance", "vacation_on", "vacation_off", "settle", "look"]


@dataclass
class SeatAccount:
    """What the test itself knows of a seat: its turn, what it held then, its vacations."""

    zone: str
    held: int
    turn_start: datetime | None = None
    vacations: list[list[datetime | None]] = field(default_factory=list)

    @property
    def away(self) -> bool:
        return bool(self.vacations) and self.vacations[-1][1] is None


@st.composite
def matches(draw: st.DrawFn):
    control = draw(controls)
    seats = draw(st.integers(2, 4))
    steps = draw(st.lists(st.tuples(st.integers(0, 4 * 86400), st.sampled_from(ACTIONS),
                                    st.frozensets(st.integers(0, seats - 1)),
                                    st.integers(0, seats - 1)), max_size=25))
    # The least time a seat on turn is given back when its player's vacation ends.
    minimum = draw(st.one_of(st.just(0), st.integers(0, 3 * 86400), st.just(86400)))
    return control, [draw(zones) for _ in range(seats)], at(draw(seconds_between)), steps, \
        minimum


def expected_left(control: TimeControl, account: SeatAccount, now: datetime) -> int:
    """The seat's time left counted afresh: wall time minus weekends and vacations."""
    if account.turn_start is None:
        return account.held
    oracle = calendar(account.zone if control.weekend_pause else None,
                      [(start, end) for start, end in account.vacations])
    return max(0, account.held - running_between(oracle, account.turn_start, now))


def end_turn(control: TimeControl, account: SeatAccount, now: datetime, moved: bool) -> None:
    left = expected_left(control, account, now)
    rule = control.clock
    if isinstance(rule, PerMove):
        account.held = rule.turn
    else:
        account.held = min(rule.maximum, left + rule.increment) if moved else left
    account.turn_start = None


def play_advance(control, clocks, accounts, cals, now, actors, mover):
    for seat, account in enumerate(accounts):
        if account.turn_start is not None and seat not in actors:
            end_turn(control, account, now, moved=seat == mover)
    for seat in actors:
        account = accounts[seat]
        if account.turn_start is None:
            account.turn_start = now
            if isinstance(control.clock, PerMove):
                account.held = control.clock.turn
    return clock.advance(control, clocks, actors, now, cals, mover=mover), set(range(len(cals)))


def play_vacation(control, clocks, accounts, cals, now, seat, on, minimum=0):
    account = accounts[seat]
    if account.away == on:
        error = AlreadyOnVacation if on else NotOnVacation
        try:
            if on:
                clock.start_vacation(control, clocks, seat, now, cals[seat])
            else:
                clock.end_vacation(control, clocks, seat, now, minimum_left=minimum)
        except error:
            return clocks, set()
        raise AssertionError("a vacation started twice or ended when off")
    if on:
        # The time used so far is charged now: the account starts counting afresh too.
        account.held = expected_left(control, account, now) if account.turn_start else \
            account.held
        account.turn_start = now if account.turn_start else None
        account.vacations = [[now, None]]
        return clock.start_vacation(control, clocks, seat, now, cals[seat]), {seat}
    account.vacations[-1][1] = now
    if account.turn_start is not None:
        # A seat on turn comes back with what it held, or the minimum if that is more (never
        # more than the control's most), counted afresh from its return.
        stopped = expected_left(control, account, now)
        account.held = max(stopped, min(minimum, control.most))
        account.turn_start, account.vacations = now, []
    return clock.end_vacation(control, clocks, seat, now, minimum_left=minimum), {seat}


def check_seat(control, clocks, accounts, cals, now, seat) -> datetime | None:
    state, account, cal = clocks[seat], accounts[seat], cals[seat]
    left = clock.time_left(clocks, seat, now, cal)
    assert 0 <= state.left <= control.most
    assert left == expected_left(control, account, now) >= 0
    assert state.on_turn == (account.turn_start is not None)
    assert state.vacation == account.away
    due = clock.deadline(clocks, seat, cal)
    assert (due is None) == (not state.on_turn or account.away)
    assert clock.has_run_out(clocks, seat, now, cal) == (due is not None and left == 0)
    if due is not None:
        assert clock.time_left(clocks, seat, due, cal) == 0
        if due > state.since:
            assert clock.time_left(clocks, seat, due - timedelta(seconds=1), cal) >= 1
        if isinstance(control.clock, PerMove) and not control.weekend_pause \
                and state.since == state.turn_started:
            assert due == state.turn_started + timedelta(seconds=control.clock.turn)
    return due


@settings(PROPERTY_SETTINGS, max_examples=200)
@given(matches())
def test_clocks_agree_with_the_running_time_counted_afresh(match) -> None:
    control, zone_names, now, steps, minimum = match
    cals = [clock.seat_calendar(control, zone) for zone in zone_names]
    clocks = clock.new_clocks(control, len(zone_names))
    accounts = [SeatAccount(zone=zone, held=control.fresh) for zone in zone_names]
    deadlines: list[datetime | None] = [None] * len(zone_names)
    for gap, action, actors, seat in steps:
        now += timedelta(seconds=gap)
        touched: set[int] = set()
        if action == "advance":
            clocks, touched = play_advance(control, clocks, accounts, cals, now, actors, seat)
        elif action in ("vacation_on", "vacation_off"):
            clocks, touched = play_vacation(control, clocks, accounts, cals, now, seat,
                                            on=action == "vacation_on", minimum=minimum)
        elif action == "settle":
            clocks = clock.settle(clocks, seat, now, cal=cals[seat])
        for index in range(len(zone_names)):
            due = check_seat(control, clocks, accounts, cals, now, index)
            if index not in touched and (deadlines[index] is None or deadlines[index] > now):
                # Asked at any later instant, with nothing changed, the deadline is the same.
                assert due == deadlines[index]
            deadlines[index] = due
        assert clock.load_clocks(json.loads(json.dumps(clock.dump_clocks(clocks)))) == clocks
        known = [due for due in deadlines if due is not None]
        assert clock.soonest_deadline(clocks, cals) == min(known, default=None)


@PROPERTY_SETTINGS
@given(controls, zones, seconds_between, st.lists(st.integers(0, 3 * 86400), max_size=12))
def test_a_bank_never_exceeds_its_maximum(control, zone, start, thinking) -> None:
    cal = clock.seat_calendar(control, zone)
    clocks, now = clock.new_clocks(control, 2), at(start)
    for seconds in thinking:
        clocks = clock.start_turns(control, clocks, [0], now)
        now += timedelta(seconds=seconds)
        before = clock.time_left(clocks, 0, now, cal)
        clocks = clock.move(control, clocks, 0, now, cal)
        assert 0 <= clocks[0].left <= control.most
        if isinstance(control.clock, Bank):
            assert clocks[0].left == min(control.clock.maximum, before + control.clock.increment)
        else:
            assert clocks[0].left == control.clock.turn


@PROPERTY_SETTINGS
@given(controls, zones, seconds_between, st.integers(0, 30 * 86400),
       st.integers(0, 30 * 86400), st.integers(0, 70 * 86400))
def test_vacation_time_is_never_charged(control, zone, start, before, away, minimum) -> None:
    cal = clock.seat_calendar(control, zone)
    now = at(start)
    clocks = clock.start_turns(control, clock.new_clocks(control, 2), [0], now)
    clocks = clock.start_vacation(control, clocks, 0, now + timedelta(seconds=before), cal)
    stopped = clock.time_left(clocks, 0, now + timedelta(seconds=before), cal)
    back = now + timedelta(seconds=before + away)
    assert clock.time_left(clocks, 0, back, cal) == stopped
    assert clock.deadline(clocks, 0, cal) is None
    returned = clock.end_vacation(control, clocks, 0, back)
    assert clock.time_left(returned, 0, back, cal) == stopped
    # With a minimum: never less than before, never more than the control's most, and no
    # less than the minimum (capped by the most).
    given_back = clock.end_vacation(control, clocks, 0, back, minimum_left=minimum)
    left = clock.time_left(given_back, 0, back, cal)
    assert 0 <= left <= control.most and given_back[0].left <= control.most
    assert left == max(stopped, min(minimum, control.most)) >= stopped
    assert clock.deadline(given_back, 0, cal) == after_running(cal, back, left)


@dataclass
class Absent:
    """A player who never moves again, with auto-vacation on: the bank and the seat's clock."""

    bank: vacation.VacationBank
    clocks: clock.Clocks
    cycles: int = 0


@settings(PROPERTY_SETTINGS, max_examples=150)
@given(controls, zones, seconds_between, st.integers(0, 30 * 86400),
       st.one_of(st.just(86400), st.integers(0, 3 * 86400)))
def test_a_player_who_stays_away_times_out_after_a_few_auto_vacations(
        control, zone, start, bank_left, minimum) -> None:
    """Auto-vacation, the bank running out, the return with the minimum, again: the bank earns
    less while the seat runs than the return gives back, so the seat times out in the end,
    and a stopped clock is never charged."""
    rules = vacation.policy()
    cal = clock.seat_calendar(control, zone)
    now = at(start)
    player = Absent(bank=vacation.VacationBank(left=bank_left, as_of=now),
                    clocks=clock.start_turns(control, clock.new_clocks(control, 2), [0], now))
    while True:
        due = clock.deadline(player.clocks, 0, cal)
        assert due is not None
        player.bank = vacation.standing(rules, player.bank, due)
        left = vacation.left_at(rules, player.bank, due)
        if not clock.should_auto_vacation(control, player.clocks, 0, due, cal,
                                          vacation_left=left, minimum_left=minimum):
            break  # the seat times out
        assert left >= max(1, clock.returning_minimum(control, minimum))
        player.cycles += 1
        assert player.cycles <= 4, "auto-vacations go on and on"
        player.bank = vacation.start(rules, player.bank, due)
        player.clocks = clock.start_vacation(control, player.clocks, 0, due, cal)
        out = vacation.runs_out_at(player.bank)
        assert out is not None
        player.bank = vacation.end(rules, player.bank, out)
        assert clock.time_left(player.clocks, 0, out, cal) == 0, "nothing charged while away"
        player.clocks = clock.end_vacation(control, player.clocks, 0, out, minimum_left=minimum)
        assert clock.time_left(player.clocks, 0, out, cal) == \
            clock.returning_minimum(control, minimum)
    assert clock.has_run_out(player.clocks, 0, clock.deadline(player.clocks, 0, cal), cal)
