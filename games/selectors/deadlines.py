"""A player's turns whose own deadline is near: the running matches where it is their turn and
their seat's clock runs out within a given time (the daily digest lists those under a day)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from django.db.models import QuerySet

from games.clocks import clock
from games.models import Match, Seat
from games.selectors.clocks import match_clocks, match_control, seat_calendars
from games.selectors.matches import match_seats, matches_loaded


@dataclass(frozen=True)
class TurnEnding:
    """One of the player's turns: the match, its game, the other players' names (in seat order,
    open seats left out), the seat's own deadline and the wall time until it, in seconds."""

    match_id: UUID
    game: str
    opponents: tuple[str, ...]
    deadline: datetime
    seconds_left: int


def _near(now: datetime, within: timedelta) -> QuerySet[Seat]:
    """Seats still in play of running matches whose deadline (the soonest of their seats') is
    within ``within`` of ``now``: a superset of the seats whose own is, read through the
    partial index on active deadlines."""
    return Seat.objects.filter(forfeited_at__isnull=True, user__isnull=False,
                               match__status=Match.Status.ACTIVE,
                               match__time_control__isnull=False,
                               match__deadline__gt=now, match__deadline__lte=now + within)


def players_near_deadlines(*, now: datetime, within: timedelta) -> QuerySet[Seat, Any]:
    """The ids of the players (``user_id`` values) who may have a turn ending within
    ``within``: a subquery to narrow others with; ``turns_ending`` says which turns do."""
    return _near(now, within).values("user_id")


def turns_ending(user_id: int, *, now: datetime, within: timedelta) -> list[TurnEnding]:
    """The player's turns whose own deadline is after ``now`` and at most ``within`` from it,
    soonest first: their seat's clock runs (not stopped for a vacation) in a running match with
    a clock."""
    match_ids = _near(now, within).filter(user_id=user_id).values_list("match_id", flat=True)
    found: list[TurnEnding] = []
    for match in matches_loaded(list(match_ids)).values():
        timing, clocks = match_control(match), match_clocks(match)
        seats = match_seats(match)
        mine = next((seat for seat in seats if seat.user_id == user_id), None)
        if timing is None or clocks is None or mine is None or mine.index >= len(clocks):
            continue
        calendar = seat_calendars(timing, seats)[mine.index]
        deadline = clock.deadline(clocks, mine.index, calendar)
        if deadline is None or not now < deadline <= now + within:
            continue
        found.append(TurnEnding(
            match_id=match.id, game=match.game,
            opponents=tuple(seat.user.username for seat in seats
                            if seat.user is not None and seat.index != mine.index),
            deadline=deadline, seconds_left=int((deadline - now).total_seconds())))
    return sorted(found, key=lambda turn: (turn.deadline, str(turn.match_id)))
