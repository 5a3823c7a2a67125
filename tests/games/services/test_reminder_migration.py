"""The migration to reminders at each player's offsets: every active match with clocks gets its
next reminder counted, an offset whose moment has already passed counting as reminded; a row it
cannot read is left without reminders instead of failing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import Match
from games.notify.models import NotificationSettings
from games.services import SeatSpec, match_create, match_join
from tests.factories import UserFactory

BEFORE = ("games", "0013_match_clocks")
AFTER = ("games", "0014_seat_reminders")
HOUR, DAY = 3600, 86400
WEDNESDAY = datetime(2031, 1, 8, 12, 0, tzinfo=UTC)
BANK = {"kind": "bank", "initial_seconds": 3 * DAY, "increment_seconds": DAY,
        "maximum_seconds": 7 * DAY}


def _migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([target])
    return executor.loader.project_state([target]).apps


def _started(users, time_control=BANK) -> Match:
    with time_machine.travel(WEDNESDAY, tick=False):
        match = match_create(user=users[0], game="nibble", config={"first_seat": 0},
                             time_control=time_control,
                             seats=[SeatSpec("me"), SeatSpec("user", username=users[1].username)])
        match_join(user=users[1], match_id=match.id)
    return Match.objects.get(id=match.id)


@pytest.mark.django_db(transaction=True)
def test_active_matches_get_their_next_reminder_and_nothing_fails():
    plain = _started([UserFactory(), UserFactory()])
    chooser = UserFactory()
    NotificationSettings.objects.create(user=chooser, reminder_offsets=[2 * HOUR, 30 * 60])
    chosen = _started([chooser, UserFactory()])
    broken = _started([UserFactory(), UserFactory()])
    casual = _started([UserFactory(), UserFactory()], time_control=None)
    deadline = WEDNESDAY + timedelta(days=3)
    try:
        old = _migrate(BEFORE).get_model("games", "Match")
        old.objects.filter(id=broken.id).update(clocks=[{"left": "soon"}])
        with time_machine.travel(WEDNESDAY + timedelta(days=2, hours=12), tick=False):
            new = _migrate(AFTER).get_model("games", "Match")

        row = new.objects.get(id=plain.id)
        assert row.reminders_sent == [[DAY], []], "12 hours left: the 24-hour moment passed"
        assert row.next_reminder_at == deadline - timedelta(hours=4)
        row = new.objects.get(id=chosen.id)
        assert row.reminders_sent == [[], []]
        assert row.next_reminder_at == deadline - timedelta(hours=2)
        row = new.objects.get(id=broken.id)
        assert row.reminders_sent is None and row.next_reminder_at is None
        row = new.objects.get(id=casual.id)
        assert row.reminders_sent is None and row.next_reminder_at is None
    finally:
        MigrationExecutor(connection).migrate(
            MigrationExecutor(connection).loader.graph.leaf_nodes())
