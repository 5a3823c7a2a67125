"""The vacation bank: accrual up to the cap, spending while away, running out, coded errors."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.clocks import vacation
from games.clocks.errors import (
    AlreadyOnVacation,
    ClockError,
    InvalidClockState,
    InvalidVacationPolicy,
    NotOnVacation,
    TimeWentBack,
    VacationBankEmpty,
)
from tests.clocks.strategies import PROPERTY_SETTINGS, instants

DAY = 86400
START = datetime(2026, 12, 7, 9, tzinfo=UTC)
RULES = vacation.policy()


def days(n: float) -> datetime:
    return START + timedelta(days=n)


def test_a_new_account_has_20_days_and_earns_a_day_every_eight_up_to_30() -> None:
    bank = vacation.new_bank(RULES, START)
    assert vacation.left_at(RULES, bank, START) == 20 * DAY
    assert vacation.left_at(RULES, bank, days(8)) == 21 * DAY
    assert vacation.left_at(RULES, bank, days(80)) == 30 * DAY
    assert vacation.left_at(RULES, bank, days(8000)) == 30 * DAY


def test_a_vacation_spends_wall_time_and_ends_by_itself() -> None:
    bank = vacation.start(RULES, vacation.new_bank(RULES, START), days(1))
    assert bank.on_vacation and bank.left == 20 * DAY + DAY // 8
    assert vacation.left_at(RULES, bank, days(3)) == 18 * DAY + DAY // 8
    out = days(21) + timedelta(seconds=DAY // 8)
    assert vacation.runs_out_at(bank) == out
    assert vacation.warning_at(bank) == out - timedelta(days=1)
    assert not vacation.has_run_out(bank, out - timedelta(seconds=1))
    assert vacation.has_run_out(bank, out)
    # The sweep comes late: the vacation ended when the bank ran out, and accrual starts then.
    ended = vacation.end(RULES, bank, out + timedelta(hours=1))
    assert (ended.left, ended.as_of, ended.on_vacation) == (0, out, False)
    assert vacation.left_at(RULES, ended, out + timedelta(days=8)) == DAY


def test_ending_by_hand_keeps_what_is_left() -> None:
    bank = vacation.start(RULES, vacation.new_bank(RULES, START), START)
    ended = vacation.end(RULES, bank, days(2.5))
    assert ended.left == 17.5 * DAY and ended.as_of == days(2.5)
    assert vacation.runs_out_at(ended) is vacation.warning_at(ended) is None


def test_the_warning_comes_at_the_start_when_less_than_a_day_is_left() -> None:
    rules = vacation.policy(starting=3600)
    bank = vacation.start(rules, vacation.new_bank(rules, START), START)
    assert vacation.warning_at(bank) == START


@PROPERTY_SETTINGS
@given(instants, st.lists(st.tuples(st.integers(0, 40 * DAY), st.booleans()), max_size=20))
def test_the_bank_is_never_negative_nor_above_its_cap(start, steps) -> None:
    bank, now = vacation.new_bank(RULES, start), start
    for gap, toggle in steps:
        now += timedelta(seconds=gap)
        left = vacation.left_at(RULES, bank, now)
        assert 0 <= left <= RULES.cap
        if toggle and bank.on_vacation:
            bank = vacation.end(RULES, bank, now)
        elif toggle and left > 0:
            bank = vacation.start(RULES, bank, now)
            assert vacation.runs_out_at(bank) == now.replace(microsecond=0) + \
                timedelta(seconds=left)
        assert vacation.load_bank(json.loads(json.dumps(vacation.dump_bank(bank)))) == bank


def _refused(call, error: type[ClockError], code: str) -> None:
    with pytest.raises(error) as caught:
        call()
    assert caught.value.code == code


def test_every_bad_vacation_request_is_a_coded_error() -> None:
    empty = vacation.policy(starting=0, accrual_per_day=0)
    bank = vacation.new_bank(RULES, START)
    away = vacation.start(RULES, bank, START)
    _refused(lambda: vacation.start(empty, vacation.new_bank(empty, START), days(5)),
             VacationBankEmpty, "vacation_bank_empty")
    spent = vacation.end(RULES, away, days(40))
    _refused(lambda: vacation.start(empty, spent, days(40)), VacationBankEmpty,
             "vacation_bank_empty")
    _refused(lambda: vacation.start(RULES, away, days(1)), AlreadyOnVacation,
             "already_on_vacation")
    _refused(lambda: vacation.end(RULES, bank, days(1)), NotOnVacation, "not_on_vacation")
    _refused(lambda: vacation.end(RULES, away, days(-1)), TimeWentBack, "time_went_back")
    _refused(lambda: vacation.policy(starting=31 * DAY), InvalidVacationPolicy,
             "invalid_vacation_settings")
    _refused(lambda: vacation.policy(accrual_per_day=-1), InvalidVacationPolicy,
             "invalid_vacation_settings")
    _refused(lambda: vacation.policy(accrual_per_day=2 * DAY), InvalidVacationPolicy,
             "invalid_vacation_settings")
    _refused(lambda: vacation.policy(cap=1.5), InvalidVacationPolicy,
             "invalid_vacation_settings")


@pytest.mark.parametrize("data", [
    None, {}, {"left": 1, "as_of": None, "since": None},
    {"left": -1, "as_of": "2026-12-07T09:00:00+00:00", "since": None},
    {"left": 1, "as_of": "2026-12-07T09:00:00+00:00", "since": "2026-12-08T09:00:00+00:00"},
    {"left": 1, "as_of": "2026-12-07T09:00:00+00:00", "since": None, "extra": 1},
])
def test_a_stored_bank_that_does_not_parse_is_a_coded_error(data) -> None:
    _refused(lambda: vacation.load_bank(data), InvalidClockState, "invalid_clock_state")
