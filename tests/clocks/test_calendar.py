"""Running time against a brute-force count, weekends across daylight-saving changes."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.clocks.calendar import (
    Calendar,
    after_running,
    calendar,
    first_reading,
    is_paused,
    paused_between,
    running_between,
    weekend_of,
)
from games.clocks.errors import InvalidTimeZone
from games.clocks.instants import instant, seconds
from tests.clocks.strategies import PROPERTY_SETTINGS, ZONES, at, instants, minutes, zones

DST_ZONES = ["Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu"]


@st.composite
def schedules(draw: st.DrawFn) -> tuple[Calendar, datetime, datetime]:
    """A calendar (weekends in some zone or none, up to three vacations, minute-aligned, some
    still open) and a stretch of up to ten days."""
    zone = draw(st.one_of(st.none(), zones))
    start = draw(minutes)
    length = draw(st.integers(0, 10 * 24 * 60))
    vacations = []
    for _ in range(draw(st.integers(0, 3))):
        begin = start + draw(st.integers(-2 * 24 * 60, 12 * 24 * 60))
        length_away = draw(st.one_of(st.none(), st.integers(0, 5 * 24 * 60)))
        end = None if length_away is None else at((begin + length_away) * 60)
        vacations.append((at(begin * 60), end))
    return calendar(zone, vacations), at(start * 60), at((start + length) * 60)


def brute_running(cal: Calendar, start: datetime, end: datetime) -> int:
    """Running seconds counted minute by minute: a minute is paused when its local day is a
    Saturday or Sunday or it lies in a vacation (every edge here falls on a whole minute)."""
    running = 0
    moment = start
    while moment < end:
        weekend = cal.zone is not None and moment.astimezone(cal.zone).weekday() >= 5
        away = any(begin <= moment and (stop is None or moment < stop)
                   for begin, stop in cal.vacations)
        running += 0 if weekend or away else 60
        moment += timedelta(minutes=1)
    return running


@PROPERTY_SETTINGS
@given(schedules())
def test_running_time_matches_a_minute_by_minute_count(schedule) -> None:
    cal, start, end = schedule
    running = running_between(cal, start, end)
    assert running == brute_running(cal, start, end)
    # Charged (running) plus paused is the wall time, and neither is ever negative.
    assert running + paused_between(cal, start, end) == seconds(end) - seconds(start)
    assert running >= 0 and paused_between(cal, start, end) >= 0


@PROPERTY_SETTINGS
@given(schedules(), st.integers(0, 40 * 86400))
def test_the_deadline_is_the_first_instant_with_that_much_running_time(schedule, amount) -> None:
    cal, start, _ = schedule
    due = after_running(cal, start, amount)
    if due is None:
        # Only an open vacation can stop the clock for ever.
        assert any(stop is None for _, stop in cal.vacations)
        return
    assert running_between(cal, start, due) == amount
    if amount:
        assert running_between(cal, start, due - timedelta(seconds=1)) == amount - 1
        assert not is_paused(cal, due - timedelta(seconds=1))


@PROPERTY_SETTINGS
@given(schedules(), st.integers(0, 12 * 24 * 60))
def test_running_time_then_the_deadline_comes_back_to_the_instant(schedule, extra) -> None:
    cal, start, _ = schedule
    end = start + timedelta(minutes=extra)
    due = after_running(cal, start, running_between(cal, start, end))
    assert due is not None and due <= end
    # Only paused time lies between the two.
    assert running_between(cal, due, end) == 0


@PROPERTY_SETTINGS
@given(st.sampled_from(ZONES), instants)
def test_an_instant_is_paused_exactly_on_a_local_saturday_or_sunday(zone, moment) -> None:
    local = moment.astimezone(ZoneInfo(zone))
    assert is_paused(calendar(zone), moment) == (local.weekday() >= 5)
    assert not is_paused(calendar(None), moment)


@PROPERTY_SETTINGS
@given(st.sampled_from(DST_ZONES), st.dates(date(1990, 1, 1), date(2100, 12, 31)))
def test_a_weekend_is_48_local_hours_whatever_the_clocks_do(zone_name, day) -> None:
    zone = ZoneInfo(zone_name)
    saturday = day + timedelta(days=(5 - day.weekday()) % 7)
    start, end = weekend_of(zone, saturday)
    before, first = instant(start - 1).astimezone(zone), instant(start).astimezone(zone)
    last, after = instant(end - 1).astimezone(zone), instant(end).astimezone(zone)
    assert (before.weekday(), first.weekday(), last.weekday(), after.weekday()) == (4, 5, 6, 0)
    assert (first.date(), after.date()) == (saturday, saturday + timedelta(days=2))
    assert first.time() == after.time() == datetime.min.time()
    # 48 hours of local readings: the real length differs by the change of offset, if any.
    shift = after.utcoffset() - first.utcoffset()
    assert end - start == 48 * 3600 - shift.total_seconds()
    assert abs(end - start - 48 * 3600) <= 3600


def test_a_weekend_across_the_spring_change_in_paris_is_one_hour_shorter() -> None:
    start, end = weekend_of(ZoneInfo("Europe/Paris"), date(2026, 3, 28))
    assert instant(start) == datetime(2026, 3, 27, 23, tzinfo=UTC)
    assert instant(end) == datetime(2026, 3, 29, 22, tzinfo=UTC)


def test_a_weekend_on_lord_howe_island_moves_by_half_an_hour() -> None:
    zone = ZoneInfo("Australia/Lord_Howe")
    autumn, spring = weekend_of(zone, date(2026, 4, 4)), weekend_of(zone, date(2026, 10, 3))
    assert autumn[1] - autumn[0] == 48 * 3600 + 1800
    assert spring[1] - spring[0] == 48 * 3600 - 1800


def test_a_weekend_in_kathmandu_starts_at_local_midnight() -> None:
    start, end = weekend_of(ZoneInfo("Asia/Kathmandu"), date(2026, 12, 5))
    assert instant(start) == datetime(2026, 12, 4, 18, 15, tzinfo=UTC)
    assert end - start == 48 * 3600


def test_a_saturday_midnight_the_clocks_skip_starts_the_weekend_at_the_jump() -> None:
    # Tehran moved from +03:30 to +04:30 at the start of Saturday 21 March 2020.
    zone = ZoneInfo("Asia/Tehran")
    start, end = weekend_of(zone, date(2020, 3, 21))
    assert instant(start) == datetime(2020, 3, 20, 20, 30, tzinfo=UTC)
    assert instant(start).astimezone(zone).time() == datetime(2020, 1, 1, 1).time()
    assert end - start == 47 * 3600


def test_a_reading_that_happens_twice_is_taken_the_first_time() -> None:
    # Sao Paulo set its clocks back from Sunday 00:00 to Saturday 23:00 on 17 February 2019.
    zone = ZoneInfo("America/Sao_Paulo")
    first = first_reading(zone, datetime(2019, 2, 16, 23, 30))
    assert instant(first) == datetime(2019, 2, 17, 1, 30, tzinfo=UTC)


def test_a_stretch_inside_a_weekend_runs_no_time() -> None:
    cal = calendar("Europe/Paris")
    saturday_noon = datetime(2026, 12, 5, 11, tzinfo=UTC)
    assert running_between(cal, saturday_noon, saturday_noon + timedelta(hours=30)) == 0
    # The first running second after it is Monday 00:00 in Paris.
    assert after_running(cal, saturday_noon, 1) == datetime(2026, 12, 6, 23, 0, 1, tzinfo=UTC)
    assert after_running(cal, saturday_noon, 0) == saturday_noon


def test_an_unknown_zone_is_a_coded_error() -> None:
    for name in ("Mars/Olympus_Mons", "", "../etc/passwd"):
        with pytest.raises(InvalidTimeZone) as caught:
            calendar(name)
        assert caught.value.code == "invalid_time_zone"


def test_naive_instants_are_refused() -> None:
    with pytest.raises(ValueError):
        running_between(calendar(None), datetime(2026, 1, 1), datetime(2026, 1, 2))
