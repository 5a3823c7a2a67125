"""Hypothesis strategies shared by the clock tests: instants, zones, controls, calendars."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from games.clocks.control import MAX_BANK, MAX_INCREMENT, MAX_TURN, MIN_TURN, parse

PROPERTY_SETTINGS = settings(max_examples=80, deadline=None,
                             suppress_health_check=[HealthCheck.too_slow])

# Zones whose clocks change by an hour (Paris, New York), by half an hour (Lord Howe Island),
# or that sit at an odd offset (Kathmandu +05:45, Chatham +12:45/+13:45).
ZONES = ["Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu",
         "Pacific/Chatham", "UTC"]

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
LOW = int((datetime(2000, 1, 1, tzinfo=UTC) - EPOCH).total_seconds())
HIGH = int((datetime(2040, 1, 1, tzinfo=UTC) - EPOCH).total_seconds())


def at(second: int) -> datetime:
    return EPOCH + timedelta(seconds=second)


seconds_between = st.integers(LOW, HIGH)
instants = seconds_between.map(at)
minutes = st.integers(LOW // 60, HIGH // 60)
zones = st.sampled_from(ZONES)

per_move = st.builds(lambda turn, weekend: parse({"kind": "per_move", "turn_seconds": turn,
                                                  "weekend_pause": weekend}),
                     st.integers(MIN_TURN, MAX_TURN), st.booleans())


@st.composite
def banks(draw: st.DrawFn) -> object:
    initial = draw(st.integers(MIN_TURN, MAX_TURN))
    return parse({"kind": "bank", "initial_seconds": initial,
                  "increment_seconds": draw(st.integers(0, MAX_INCREMENT)),
                  "maximum_seconds": draw(st.integers(initial, MAX_BANK)),
                  "weekend_pause": draw(st.booleans())})


controls = st.one_of(per_move, banks())
