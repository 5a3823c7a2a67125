"""Running time: wall time minus the pauses of a seat's calendar.

A :class:`Calendar` holds what stops a seat's clock: the weekend in a time zone (when the match
pauses on weekends) and vacation intervals. A weekend begins at the first instant the local wall
clock reads Saturday 00:00 or later and ends at the first instant it reads Monday 00:00 or
later, so a daylight-saving change inside it makes it an hour (or half an hour, on Lord Howe
Island) shorter or longer in real time, and one on the Saturday or Monday midnight itself moves
its edge to the instant the clock jumps. A vacation interval runs from its start to its end, or
for ever when it has no end yet.

Two functions answer everything the clocks ask, in whole seconds:

- ``running_between(calendar, start, end)``: the running time from ``start`` to ``end``;
  ``paused_between`` is the rest, and the two add up to the wall time.
- ``after_running(calendar, start, n)``: the first instant at which ``n`` seconds of running
  time have elapsed since ``start`` (``None`` when an open vacation stops the clock before),
  so ``running_between(c, t, after_running(c, t, n)) == n``.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from games.clocks.errors import InvalidTimeZone
from games.clocks.instants import instant, seconds

# An interval that never ends (an open vacation) ends here, far beyond any real instant.
FOREVER = 2**62
SATURDAY = 5


@dataclass(frozen=True)
class Calendar:
    """What pauses one seat's clock: a weekend zone (or ``None``) and vacation intervals."""

    zone: ZoneInfo | None = None
    vacations: tuple[tuple[datetime, datetime | None], ...] = ()


def calendar(zone: str | None = None,
             vacations: Iterable[tuple[datetime, datetime | None]] = ()) -> Calendar:
    """A calendar pausing weekends in the IANA zone named ``zone`` (none if ``None``)."""
    return Calendar(zone=None if zone is None else time_zone(zone), vacations=tuple(vacations))


def time_zone(name: str) -> ZoneInfo:
    """The zone of an IANA name, or :class:`InvalidTimeZone`."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        raise InvalidTimeZone("Unknown time zone.", field="time_zone", value=str(name)) from None


# --------------------------------------------------------------------------- weekends


def _reading(zone: ZoneInfo, second: int) -> datetime:
    """What a wall clock in ``zone`` reads at a whole second (naive local datetime)."""
    return instant(second).astimezone(zone).replace(tzinfo=None)


def first_reading(zone: ZoneInfo, wall: datetime) -> int:
    """The first second at which the wall clock in ``zone`` reads ``wall`` or later.

    A reading that happens twice (clocks set back) is taken the first time; one that never
    happens (clocks set forward over it) gives the instant of the jump.
    """
    ends = [seconds(wall.replace(tzinfo=zone, fold=fold)) for fold in (0, 1)]
    low, high = min(ends), max(ends)
    if _reading(zone, low) >= wall:
        return low
    # ``wall`` falls in a gap between ``low`` and ``high``: find the jump by halving.
    while high - low > 1:
        middle = (low + high) // 2
        if _reading(zone, middle) >= wall:
            high = middle
        else:
            low = middle
    return high


@lru_cache(maxsize=4096)
def weekend_of(zone: ZoneInfo, saturday: date) -> tuple[int, int]:
    """The weekend beginning on the local ``saturday``: [start, end) in seconds."""
    start = datetime.combine(saturday, datetime.min.time())
    return (first_reading(zone, start), first_reading(zone, start + timedelta(days=2)))


def weekends(zone: ZoneInfo, since: int) -> Iterator[tuple[int, int]]:
    """The weekends that end after ``since``, in order, for ever."""
    today = _reading(zone, since).date()
    saturday = today - timedelta(days=(today.weekday() - SATURDAY) % 7 + 7)
    while True:
        start, end = weekend_of(zone, saturday)
        if end > since:
            yield start, end
        saturday += timedelta(days=7)


# --------------------------------------------------------------------------- pauses


def _vacations(cal: Calendar, since: int) -> Iterator[tuple[int, int]]:
    spans = sorted((seconds(start), FOREVER if end is None else seconds(end))
                   for start, end in cal.vacations)
    return ((start, end) for start, end in spans if end > since and end > start)


def pauses(cal: Calendar, since: int) -> Iterator[tuple[int, int]]:
    """The calendar's pauses that end after ``since``, merged where they overlap or touch,
    in order; the last one ends at ``FOREVER`` if an open vacation is among them."""
    streams = [_vacations(cal, since)]
    if cal.zone is not None:
        streams.append(weekends(cal.zone, since))
    current: tuple[int, int] | None = None
    for start, end in heapq.merge(*streams):
        if current is not None and start <= current[1]:
            current = (current[0], max(current[1], end))
        else:
            if current is not None:
                yield current
            current = (start, end)
        if current[1] >= FOREVER:
            break
    if current is not None:
        yield current


def paused_seconds(cal: Calendar, start: int, end: int) -> int:
    """Seconds of ``[start, end)`` inside a pause (both bounds whole seconds)."""
    if end < start:
        raise ValueError("An interval cannot end before it starts.")
    paused = 0
    for pause_start, pause_end in pauses(cal, start):
        if pause_start >= end:
            break
        paused += min(end, pause_end) - max(start, pause_start)
    return paused


def running_seconds(cal: Calendar, start: int, end: int) -> int:
    """Seconds of ``[start, end)`` outside every pause."""
    return end - start - paused_seconds(cal, start, end)


def after_running_seconds(cal: Calendar, start: int, amount: int) -> int | None:
    """The first second by which ``amount`` seconds of running time have elapsed since
    ``start``; ``None`` when an open vacation stops the clock first."""
    if amount < 0:
        raise ValueError("Running time cannot be negative.")
    cursor, remaining = start, amount
    if remaining == 0:
        return start
    for pause_start, pause_end in pauses(cal, start):
        if pause_start > cursor:
            if pause_start - cursor >= remaining:
                return cursor + remaining
            remaining -= pause_start - cursor
        if pause_end >= FOREVER:
            return None
        cursor = max(cursor, pause_end)
    return cursor + remaining


def running_between(cal: Calendar, start: datetime, end: datetime) -> int:
    """Running seconds from ``start`` to ``end`` (whole seconds; ``end`` not before ``start``)."""
    return running_seconds(cal, seconds(start), seconds(end))


def paused_between(cal: Calendar, start: datetime, end: datetime) -> int:
    """Paused seconds from ``start`` to ``end``: weekends and vacations, counted once."""
    return paused_seconds(cal, seconds(start), seconds(end))


def after_running(cal: Calendar, start: datetime, amount: int) -> datetime | None:
    """The instant at which ``amount`` seconds of running time have elapsed since ``start``."""
    second = after_running_seconds(cal, seconds(start), amount)
    return None if second is None else instant(second)


def is_paused(cal: Calendar, moment: datetime) -> bool:
    """Whether the clock stands still at ``moment``."""
    second = seconds(moment)
    return paused_seconds(cal, second, second + 1) == 1
