"""The migration to time controls of a kind: every match with turn_seconds becomes per move, and
every active one keeps exactly its deadline (to the second: the clocks count whole seconds)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.clocks.clock import load_clocks
from games.models import Match
from games.services import SeatSpec, match_create, match_join, match_resign
from tests.factories import UserFactory

BEFORE = ("games", "0012_list_orders")
AFTER = ("games", "0013_match_clocks")
DAY = 86400


def _migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([target])
    return executor.loader.project_state([target]).apps


def _started(users, game="nibble", config=None):
    match = match_create(user=users[0], game=game, config=config or {}, turn_seconds=DAY,
                         seats=[SeatSpec("me")] + [SeatSpec("user", username=u.username)
                                                   for u in users[1:]])
    for user in users[1:]:
        match_join(user=user, match_id=match.id)
    return Match.objects.get(id=match.id)


@pytest.mark.django_db(transaction=True)
def test_matches_with_turn_seconds_become_per_move_and_keep_their_deadlines():
    two = _started([UserFactory(), UserFactory()])
    three_users = [UserFactory() for _ in range(3)]
    three = _started(three_users, game="nimalia", config={"objectives": "first_game"})
    match_resign(user=three_users[1], match_id=three.id)
    waiting = match_create(user=UserFactory(), game="nibble", turn_seconds=2 * DAY)
    casual = match_create(user=UserFactory(), game="nibble")
    odd = datetime(2030, 3, 4, 5, 6, 7, 250000, tzinfo=UTC)
    whole = datetime(2030, 3, 4, 5, 6, 7, tzinfo=UTC)
    try:
        old = _migrate(BEFORE).get_model("games", "Match")
        old.objects.filter(id=two.id).update(deadline=odd, turn_seconds=DAY)
        old.objects.filter(id=three.id).update(deadline=whole, turn_seconds=3 * DAY)
        old.objects.filter(id=waiting.id).update(turn_seconds=2 * DAY)
        old.objects.filter(id=casual.id).update(turn_seconds=None)
        new = _migrate(AFTER).get_model("games", "Match")

        row = new.objects.get(id=two.id)
        assert row.time_control == {"kind": "per_move", "turn_seconds": DAY,
                                    "weekend_pause": False, "vacation_allowed": True}
        assert row.deadline == odd.replace(microsecond=0) + timedelta(seconds=1)
        clocks = load_clocks(row.clocks)
        mover = row.actors[0]
        assert clocks[mover].turn_started == row.deadline - timedelta(days=1)
        assert [c.on_turn for c in clocks] == [seat == mover for seat in range(2)]

        row = new.objects.get(id=three.id)
        assert row.deadline == whole, "a whole-second deadline stays exactly the same"
        clocks = load_clocks(row.clocks)
        assert clocks[1].on_turn is False, "a seat that left runs no clock"
        assert [seat for seat, c in enumerate(clocks) if c.on_turn] == \
            [seat for seat in row.actors if seat != 1]
        assert row.time_control["turn_seconds"] == 3 * DAY

        row = new.objects.get(id=waiting.id)
        assert row.time_control["turn_seconds"] == 2 * DAY and row.deadline is None
        assert not any(c.on_turn for c in load_clocks(row.clocks))
        row = new.objects.get(id=casual.id)
        assert row.time_control is None and row.clocks is None
    finally:
        MigrationExecutor(connection).migrate(
            MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_the_migration_goes_back_to_turn_seconds():
    timed = match_create(user=UserFactory(), game="nibble", turn_seconds=5 * 3600)
    banked = match_create(user=UserFactory(), game="nibble", time_control={
        "kind": "bank", "initial_seconds": 3 * DAY, "increment_seconds": DAY,
        "maximum_seconds": 7 * DAY})
    try:
        old = _migrate(BEFORE).get_model("games", "Match")
        assert old.objects.get(id=timed.id).turn_seconds == 5 * 3600
        assert old.objects.get(id=banked.id).turn_seconds is None
    finally:
        MigrationExecutor(connection).migrate(
            MigrationExecutor(connection).loader.graph.leaf_nodes())
