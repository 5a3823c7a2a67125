"""Instants as whole seconds.

The clocks count in whole seconds of POSIX time: an instant comes in as an aware ``datetime``
and its fraction of a second is dropped on the way in (``seconds``); instants go out as aware
UTC datetimes on a whole second (``instant``). Durations are ``int`` seconds. All arithmetic on
them is exact integer arithmetic, so a deadline is exact to the second.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from games.clocks.errors import ClockError, InvalidClockState

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
SECOND = timedelta(seconds=1)
MINUTE = 60
HOUR = 3600
DAY = 86400


def seconds(moment: datetime) -> int:
    """The whole second of POSIX time ``moment`` falls in (rounded down)."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError("The clocks take aware datetimes only.")
    return (moment - EPOCH) // SECOND


def seconds_up(moment: datetime) -> int:
    """The first whole second at or after ``moment``."""
    whole_second = seconds(moment)
    return whole_second if instant(whole_second) == moment else whole_second + 1


def instant(second: int) -> datetime:
    """The aware UTC datetime of a whole second of POSIX time."""
    return EPOCH + timedelta(seconds=second)


def dump_instant(moment: datetime | None) -> str | None:
    return None if moment is None else moment.astimezone(UTC).isoformat()


def load_instant(value: object, field: str) -> datetime | None:
    """Parse an ISO 8601 instant with an offset (or ``None``) from stored JSON."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidClockState("An instant must be an ISO 8601 string.", field=field)
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise InvalidClockState("An instant must be an ISO 8601 string.", field=field) from None
    if moment.tzinfo is None:
        raise InvalidClockState("An instant must carry its UTC offset.", field=field)
    return instant(seconds(moment))


def whole(value: object, field: str, error: type[ClockError] = InvalidClockState) -> int:
    """An ``int`` (never a ``bool``) from JSON, or the coded error naming ``field``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f"{field} must be a whole number of seconds.", field=field)
    return value
