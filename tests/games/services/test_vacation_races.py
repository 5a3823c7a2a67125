"""Vacations racing the deadline sweep and a match's start on PostgreSQL, each thread with its
own connection: the locks are taken in one order (vacation rows, then matches by id), so no
race ends in a deadlock, and afterwards a seat's clock stands stopped for a vacation exactly
when its player is away and the vacation applies."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from games.clocks import vacation
from games.clocks.clock import load_clocks
from games.exceptions import AlreadyOnVacation
from games.models import Match, Seat, Vacation
from games.selectors.clocks import match_control, seat_vacation_applies
from games.selectors.replay import match_replay_problem
from games.selectors.vacations import vacation_policy
from games.services import SeatSpec, match_create, match_join, vacation_start
from games.services.deadlines import match_deadline_expire
from tests.factories import UserFactory
from tests.games.services.test_vacation_clocks import T0, at, people, start, waiting_on
from tests.games.test_concurrency import run_together

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.needs_postgresql("real row-lock concurrency needs PostgreSQL"),
]

ROUNDS = 6


def coded(call: Any) -> Any:
    """Run ``call``; a second start of a vacation is the coded error a player would get."""
    def run() -> Any:
        try:
            return call()
        except AlreadyOnVacation as exc:
            return exc.code
    return run


def away(user: Any, now: Any) -> bool:
    row = Vacation.objects.filter(user=user).first()
    return row is not None and vacation.standing(
        vacation_policy(), vacation.load_bank(row.bank), now).on_vacation


def assert_consistent(users: list[Any], now: Any) -> None:
    """Every running match of ``users`` replays, and each seat's clock stands stopped for a
    vacation exactly when its player is away and the vacation applies to the match."""
    for match in Match.objects.filter(seats__user__in=users).distinct():
        assert match_replay_problem(match) is None, match.id
        if match.status != Match.Status.ACTIVE or match.clocks is None:
            continue
        seats = list(Seat.objects.filter(match=match).select_related("user").order_by("index"))
        timing, clocks = match_control(match), load_clocks(match.clocks)
        assert timing is not None
        for seat in seats:
            if seat.user is None or seat.user.is_bot or seat.forfeited_at is not None:
                continue
            stopped = away(seat.user, now) and seat_vacation_applies(timing, seats, seat.index)
            assert clocks[seat.index].vacation == stopped, (match.id, seat.index)


def test_a_sweep_sparing_a_late_seat_races_both_players_vacations():
    for _ in range(ROUNDS):
        p, q = people(2)
        late = waiting_on(p, q)
        start([q, p], when=at(1))
        start([p, q], when=at(2))
        now = at(72) + timedelta(seconds=30)
        results = run_together([
            lambda late=late, now=now: match_deadline_expire(match_id=late.id, now=now),
            coded(lambda p=p, now=now: vacation_start(user=p, now=now + timedelta(seconds=1))),
            lambda q=q, now=now: vacation_start(user=q, now=now)])
        assert results[0] in ("vacation", None)
        assert results[1] == "already_on_vacation" or isinstance(results[1], Vacation)
        late.refresh_from_db()
        assert late.status == Match.Status.ACTIVE
        assert not late.seats.filter(forfeited_at__isnull=False).exists()
        assert away(p, now) and away(q, now)
        assert_consistent([p, q], now + timedelta(seconds=1))


def test_a_match_starting_races_its_players_vacation():
    for _ in range(ROUNDS):
        p, host = UserFactory(date_joined=T0), UserFactory(date_joined=T0)
        match = match_create(user=host, game="nibble", config={"first_seat": 1},
                             time_control={"kind": "per_move", "turn_seconds": 86400},
                             seats=[SeatSpec("me"), SeatSpec("open")])
        run_together([lambda match=match, p=p: match_join(user=p, match_id=match.id),
                      lambda p=p: vacation_start(user=p)])
        match.refresh_from_db()
        assert match.status == Match.Status.ACTIVE
        assert load_clocks(match.clocks)[1].vacation, "started stopped, or stopped after"
        assert_consistent([p], match.updated_at)
