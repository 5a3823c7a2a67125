"""A match's clocks as the reads and the recording path see them.

The arithmetic is ``games.clocks``'s alone; this module only feeds it from the match row: the
time control (``Match.time_control``, ``games.clocks.control.dump``'s form, null for a casual
match), the seats' clock state (``Match.clocks``, ``games.clocks.clock.dump_clocks``'s form,
null exactly when the control is) and each seat's calendar, which pauses its clock on weekends
in its player's time zone when the match asks for it. It answers each seat's clock as a view
shows it (``clocks_view``).

A player's time zone is the one their notification settings hold. Only the notification app
knows its tables, so it registers here, when it starts, how to read a seat's player's zone in
SQL (``zone_register``); ``match_rows`` annotates every seat row with it (``ZONE_ATTR``), in
the same query that reads the match and its seats, so neither the lock nor a match's detail
costs a query more. Seats read otherwise get their zones in one query when the match pauses on
weekends (``seat_calendars``). Bots, open seats and players without settings count in UTC.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from functools import cache

from django.db import connection
from django.db.models import Expression

from games.clocks import clock, control
from games.clocks.calendar import Calendar
from games.clocks.clock import Clocks
from games.clocks.control import TimeControl
from games.clocks.errors import InvalidTimeZone
from games.models import Match, Seat
from games.selectors import shapes

# Where a seat row read by ``match_rows`` keeps its player's time zone (None: none known).
ZONE_ATTR = "clock_zone"
DEFAULT_ZONE = "UTC"

# Given a row's user id column (quoted SQL, table included), its user's IANA time zone (or
# NULL): an expression to annotate the row with.
ZoneExpression = Callable[[str], Expression]

_registered: list[ZoneExpression] = []


def zone_register(expression: ZoneExpression) -> None:
    """Read players' time zones with ``expression`` from now on (a later registration replaces
    an earlier one)."""
    _registered[:] = [expression]


@cache
def _seat_user_column() -> str:
    quote = connection.ops.quote_name
    return f"{quote(Seat._meta.db_table)}.{quote('user_id')}"


def zone_annotation() -> dict[str, Expression]:
    """For ``annotate`` on seat rows: each row's player's time zone as ``ZONE_ATTR``; nothing
    when no app registered where zones are kept."""
    if not _registered:
        return {}
    return {ZONE_ATTR: _registered[0](_seat_user_column())}


def match_control(match: Match) -> TimeControl | None:
    """The match's time control; None for a casual match."""
    return None if match.time_control is None else control.parse(match.time_control)


def match_clocks(match: Match) -> Clocks | None:
    """The match's seats' clocks; None for a casual match."""
    return None if match.clocks is None else clock.load_clocks(match.clocks)


def turn_seconds(match: Match) -> int | None:
    """The seconds of a per-move match's turn, as answers have always carried them; None for a
    bank or a casual match."""
    data = match.time_control
    if data is None or data.get("kind") != control.PER_MOVE:
        return None
    return int(data["turn_seconds"])


def not_before(now: datetime, clocks: Clocks) -> datetime:
    """``now``, or the latest instant the clocks were counted from if that is later (another
    host's clock a little ahead of this one's): time never runs back for the clocks."""
    known = [moment for seat in clocks for moment in (seat.turn_started, seat.since)
             if moment is not None]
    return max([now, *known])


def _zones_loaded(seats: Sequence[Seat]) -> None:
    """Read the time zones of seats that were read without them, in one query."""
    missing = [seat for seat in seats if not hasattr(seat, ZONE_ATTR)]
    annotation = zone_annotation()
    if not missing or not annotation:
        return
    zones = dict(Seat.objects.filter(pk__in=[seat.pk for seat in missing])
                 .annotate(**annotation).values_list("pk", ZONE_ATTR))
    for seat in missing:
        setattr(seat, ZONE_ATTR, zones.get(seat.pk))


def is_person(seat: Seat) -> bool:
    """Whether a person (not a bot, not an open seat) holds the seat."""
    return seat.user is not None and not seat.user.is_bot


def _calendar(timing: TimeControl, seat: Seat, zone: str | None = None) -> Calendar:
    zone = (zone or getattr(seat, ZONE_ATTR, None) if is_person(seat) else None) or DEFAULT_ZONE
    try:
        return clock.seat_calendar(timing, zone)
    except InvalidTimeZone:
        # A zone the system no longer knows counts as UTC rather than failing a move.
        return clock.seat_calendar(timing, DEFAULT_ZONE)


def seat_calendars(timing: TimeControl, seats: Sequence[Seat],
                   zones: Mapping[int, str] | None = None) -> list[Calendar]:
    """Each seat's calendar, in seat order: weekends in its player's zone when the match pauses
    on weekends, no pause otherwise. ``zones``: a zone by seat index to count in instead of
    the stored one (a player's new zone, before it is stored)."""
    if timing.weekend_pause:
        _zones_loaded(seats)
    chosen = zones or {}
    return [_calendar(timing, seat, chosen.get(seat.index)) for seat in seats]


def others_all_bots(seats: Sequence[Seat], index: int) -> bool:
    """Whether every seat still in play but seat ``index`` is a bot (seats that left do not
    count)."""
    return not any(is_person(seat) for seat in seats
                   if seat.index != index and seat.forfeited_at is None)


def seat_vacation_applies(timing: TimeControl, seats: Sequence[Seat], index: int) -> bool:
    """Whether the vacation of the player of seat ``index`` stops its clock
    (``games.clocks.clock.vacation_applies``): the match allows it, and some other seat still
    in play is a person."""
    return clock.vacation_applies(timing, others_all_bots=others_all_bots(seats, index))


def clocks_view(match: Match, seats: Sequence[Seat], now: datetime) -> shapes.MatchClocks | None:
    """Each seat's clock as of ``now`` (``clock.describe``), with the control's kind; None for
    a casual match."""
    timing, clocks = match_control(match), match_clocks(match)
    if timing is None or clocks is None:
        return None
    calendars = seat_calendars(timing, seats)
    now = not_before(now, clocks)
    described: list[shapes.SeatClock] = []
    for seat, cal in enumerate(calendars):
        about = clock.describe(clocks, seat, now, cal)
        described.append({
            "seat": seat, "time_left": about["time_left"],
            "deadline": clock.deadline(clocks, seat, cal), "on_turn": about["on_turn"],
            "running": about["running"], "counting": clock.counting(clocks, seat, now, cal),
            "vacation": about["vacation"]})
    return {"kind": timing.kind, "as_of": now, "seats": described}
