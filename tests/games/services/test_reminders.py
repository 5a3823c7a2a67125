"""Reminders before a deadline: at each of the player's offsets before their own seat's
deadline, once per offset and deadline, only to people still in play whose clock runs, from a
sweep that reads only the due rows. Time is moved with time-machine; nothing sleeps."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games.catalog import get_engine
from games.clocks import clock
from games.clocks.clock import load_clocks
from games.models import Match, UserEvent
from games.notify.models import DEFAULT_REMINDER_OFFSETS
from games.notify.preferences import preferences_update
from games.selectors.clocks import match_clocks, match_control, seat_calendars
from games.services import (
    SeatSpec,
    match_create,
    match_join,
    match_lock,
    match_move_submit,
    match_resign,
    reminder_offsets,
    reminders_sweep,
)
from games.services.clocks import CLOCK_FIELDS, clocks_store
from games.services.deadlines import deadlines_sweep
from games.services.reminder_offsets import DEFAULT_OFFSETS, seat_offsets
from tests.factories import UserFactory
from tests.games.test_concurrency import run_together

pytestmark = pytest.mark.django_db

HOUR, DAY = 3600, 86400
# A Wednesday noon in UTC.
WEDNESDAY = datetime(2031, 1, 8, 12, 0, tzinfo=UTC)
BANK = {"kind": "bank", "initial_seconds": 3 * DAY, "increment_seconds": DAY,
        "maximum_seconds": 7 * DAY}


def start(game, users, *, time_control=BANK, config=None, seats=None) -> Match:
    specs = seats or [SeatSpec("me")] + [SeatSpec("user", username=u.username)
                                         for u in users[1:]]
    with time_machine.travel(WEDNESDAY, tick=False):
        match = match_create(user=users[0], game=game, config=config or {},
                             time_control=time_control, seats=specs)
        for user in users[1:]:
            match_join(user=user, match_id=match.id)
    return Match.objects.get(id=match.id)


def nibble(users, time_control=BANK) -> Match:
    return start("nibble", users, time_control=time_control, config={"first_seat": 0})


def move(match: Match, users, seat: int, at: datetime) -> Match:
    """Seat ``seat`` plays its first legal move at ``at``."""
    match.refresh_from_db()
    engine = get_engine(match.game)
    legal = engine.dump_move(engine.legal_moves(engine.load(match.state), seat)[0])
    with time_machine.travel(at, tick=False):
        match_move_submit(user=users[seat], match_id=match.id, move=legal)
    match.refresh_from_db()
    return match


def sweep(at: datetime) -> int:
    with time_machine.travel(at, tick=False):
        return deadlines_sweep(now=at)["reminded"]


def reminders(user) -> list[UserEvent]:
    return list(UserEvent.objects.filter(user=user, type=UserEvent.Type.DEADLINE_SOON)
                .order_by("id"))


def test_the_services_default_offsets_are_the_settings_default():
    assert DEFAULT_OFFSETS == DEFAULT_REMINDER_OFFSETS == (DAY, 4 * HOUR, HOUR)


def test_the_lock_reads_each_players_offsets_in_its_one_query(alice, bob):
    preferences_update(user=alice, reminder_offsets=[2 * HOUR])
    match = nibble([alice, bob])
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locked = match_lock(match_id=match.id)
    assert len(queries) == 1
    assert [seat_offsets(seat) for seat in locked.seats] == [(2 * HOUR,), DEFAULT_OFFSETS]


def test_with_nothing_registered_every_player_has_the_defaults(alice, bob, monkeypatch):
    preferences_update(user=alice, reminder_offsets=[2 * HOUR])
    monkeypatch.setattr(reminder_offsets, "_registered", [])
    match = nibble([alice, bob])
    assert match.next_reminder_at == match.deadline - timedelta(hours=24)


def test_the_default_offsets_24_4_and_1_hour_each_go_out_once():
    users = [UserFactory(), UserFactory()]
    match = nibble(users)
    deadline = WEDNESDAY + timedelta(days=3)
    assert match.deadline == deadline
    assert match.next_reminder_at == deadline - timedelta(hours=24)
    for offset in (24, 4, 1):
        at = deadline - timedelta(hours=offset)
        assert sweep(at - timedelta(seconds=1)) == 0, "not before its moment"
        assert sweep(at) == 1
        assert sweep(at) == 0 and sweep(at + timedelta(minutes=5)) == 0, "once"
    assert sweep(deadline - timedelta(seconds=1)) == 0
    told = reminders(users[0])
    assert [entry.data["offset"] for entry in told] == [DAY, 4 * HOUR, HOUR]
    assert [entry.data["left_seconds"] for entry in told] == [DAY, 4 * HOUR, HOUR]
    assert {entry.data["deadline"] for entry in told} == {deadline.isoformat()}
    assert all(entry.match_id == match.id and entry.data["game"] == "nibble" for entry in told)
    assert reminders(users[1]) == [], "not the seat waiting for its turn"
    match.refresh_from_db()
    assert match.next_reminder_at is None and match.reminders_sent == [[DAY, 4 * HOUR, HOUR], []]


def test_a_turn_that_begins_with_less_than_an_offset_is_not_reminded_at_it():
    users = [UserFactory(), UserFactory()]
    match = nibble(users, {"kind": "per_move", "turn_seconds": 3 * HOUR})
    assert match.next_reminder_at == match.deadline - timedelta(hours=1)
    assert sweep(match.deadline - timedelta(hours=2)) == 0
    assert sweep(match.deadline - timedelta(minutes=59)) == 1
    assert [entry.data["offset"] for entry in reminders(users[0])] == [HOUR]


def test_a_late_sweep_sends_one_reminder_for_the_most_urgent_offset():
    users = [UserFactory(), UserFactory()]
    match = nibble(users)
    at = match.deadline - timedelta(minutes=30)
    assert sweep(at) == 1
    [entry] = reminders(users[0])
    assert entry.data["offset"] == HOUR and entry.data["left_seconds"] == 30 * 60
    match.refresh_from_db()
    assert match.next_reminder_at is None


def test_a_seat_whose_time_ran_out_is_reminded_of_nothing_more():
    users = [UserFactory(), UserFactory()]
    match = nibble(users)
    at = match.deadline + timedelta(minutes=1)
    with time_machine.travel(at, tick=False):
        assert reminders_sweep(now=at) == 0
    match.refresh_from_db()
    assert match.next_reminder_at is None, "every offset's moment has passed"
    assert reminders(users[0]) == []


def test_the_players_own_offsets(alice, bob):
    preferences_update(user=alice, reminder_offsets=[2 * DAY, 30 * 60])
    match = nibble([alice, bob])
    assert match.next_reminder_at == match.deadline - timedelta(days=2)
    assert sweep(match.deadline - timedelta(hours=4)) == 1, "the 2-day one, late"
    assert sweep(match.deadline - timedelta(hours=1)) == 0
    assert sweep(match.deadline - timedelta(minutes=30)) == 1
    assert [entry.data["offset"] for entry in reminders(alice)] == [2 * DAY, 30 * 60]


def test_new_offsets_count_at_once_in_running_matches(alice, bob):
    match = nibble([alice, bob])
    assert match.next_reminder_at == match.deadline - timedelta(hours=24)
    with time_machine.travel(WEDNESDAY + timedelta(hours=1), tick=False):
        preferences_update(user=alice, reminder_offsets=[2 * DAY])
    match.refresh_from_db()
    assert match.next_reminder_at == match.deadline - timedelta(days=2)
    with time_machine.travel(WEDNESDAY + timedelta(hours=2), tick=False):
        preferences_update(user=alice, reminder_offsets=[])
    match.refresh_from_db()
    assert match.next_reminder_at is None
    assert sweep(match.deadline - timedelta(minutes=1)) == 0
    assert reminders(alice) == []


def test_what_was_reminded_stays_reminded_when_the_offsets_change(alice, bob):
    match = nibble([alice, bob])
    assert sweep(match.deadline - timedelta(hours=20)) == 1
    with time_machine.travel(match.deadline - timedelta(hours=19), tick=False):
        preferences_update(user=alice, reminder_offsets=[DAY, 2 * HOUR])
    match.refresh_from_db()
    assert match.next_reminder_at == match.deadline - timedelta(hours=2)
    assert sweep(match.deadline - timedelta(hours=2)) == 1
    assert [entry.data["offset"] for entry in reminders(alice)] == [DAY, 2 * HOUR]


def _vacation(match: Match, seat: int, at: datetime) -> None:
    """The seat's clock stops for its player's vacation at ``at`` (the clocks' own arithmetic,
    stored where every clock change is)."""
    with time_machine.travel(at, tick=False), transaction.atomic():
        locked = match_lock(match_id=match.id)
        timing, clocks = match_control(locked.match), match_clocks(locked.match)
        assert timing is not None and clocks is not None
        calendars = seat_calendars(timing, locked.seats)
        stopped = clock.start_vacation(timing, clocks, seat, at, calendars[seat])
        clocks_store(locked, clocks, stopped, calendars)
        locked.match.save(update_fields=CLOCK_FIELDS)


def test_a_seat_stopped_for_a_vacation_gets_no_reminder():
    users = [UserFactory(), UserFactory()]
    match = nibble(users)
    _vacation(match, 0, WEDNESDAY + timedelta(hours=1))
    match.refresh_from_db()
    stopped = load_clocks(match.clocks)[0]
    assert stopped.vacation is True and stopped.since is None
    assert match.next_reminder_at is None
    for hours in (48, 70, 80, 200):
        assert sweep(WEDNESDAY + timedelta(hours=hours)) == 0
    assert reminders(users[0]) == []


def test_no_reminder_to_a_bot(alice):
    from games.services.bots import bot_accounts_ensure

    bot_accounts_ensure()
    # The bot moves first; its turn waits on a worker that the test never runs.
    match = start("nibble", [alice], config={"first_seat": 1},
                  seats=[SeatSpec("me"), SeatSpec("bot", level=1)])
    assert match.actors == [1]
    assert load_clocks(match.clocks)[1].since is not None, "the bot's clock runs"
    assert match.next_reminder_at is None
    assert sweep(match.deadline - timedelta(minutes=30)) == 0
    assert not UserEvent.objects.filter(type=UserEvent.Type.DEADLINE_SOON).exists()


def test_no_reminder_to_a_seat_that_left_the_others_still_get_theirs():
    users = [UserFactory() for _ in range(3)]
    match = start("nimalia", users, time_control={"kind": "per_move", "turn_seconds": 2 * DAY},
                  config={"objectives": "first_game"})
    assert match.actors == [0, 1, 2]
    with time_machine.travel(WEDNESDAY + timedelta(hours=1), tick=False):
        match_resign(user=users[2], match_id=match.id)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert sweep(WEDNESDAY + timedelta(days=2) - timedelta(hours=24)) == 2
    assert [len(reminders(user)) for user in users] == [1, 1, 0]


def test_a_new_turn_is_reminded_again():
    users = [UserFactory(), UserFactory()]
    match = nibble(users, {"kind": "per_move", "turn_seconds": 2 * DAY})
    first = match.deadline
    assert sweep(first - timedelta(hours=24)) == 1
    assert sweep(first - timedelta(hours=4)) == 1
    match = move(match, users, 0, first - timedelta(hours=3))
    match = move(match, users, 1, first - timedelta(hours=2))
    second = match.deadline
    assert second == first - timedelta(hours=2) + timedelta(days=2)
    match.refresh_from_db()
    assert match.reminders_sent == [[], []]
    assert match.next_reminder_at == second - timedelta(hours=24)
    assert sweep(second - timedelta(hours=24)) == 1
    told = reminders(users[0])
    assert [(entry.data["offset"], entry.data["deadline"]) for entry in told] == [
        (DAY, first.isoformat()), (4 * HOUR, first.isoformat()), (DAY, second.isoformat())]


def test_a_bank_seats_deadline_moves_with_each_move_and_its_reminders_with_it():
    users = [UserFactory(), UserFactory()]
    match = nibble(users)
    # Seat 0 takes two and a half days: its 24-hour reminder went out.
    assert sweep(WEDNESDAY + timedelta(days=2)) == 1
    at = WEDNESDAY + timedelta(days=2, hours=12)
    match = move(match, users, 0, at)
    match = move(match, users, 1, at)
    # 12 hours were left, the increment adds a day: a new turn of 36 hours.
    assert load_clocks(match.clocks)[0].left == 36 * HOUR
    assert match.deadline == at + timedelta(hours=36)
    assert match.next_reminder_at == at + timedelta(hours=12)
    assert sweep(at + timedelta(hours=12)) == 1
    told = reminders(users[0])
    assert [entry.data["offset"] for entry in told] == [DAY, DAY]
    assert told[1].data["deadline"] == (at + timedelta(hours=36)).isoformat()


def test_the_sweep_goes_through_every_due_row_batch_after_batch():
    users = [UserFactory(), UserFactory()]
    matches = [nibble(users) for _ in range(3)]
    at = matches[0].deadline - timedelta(hours=4)
    with time_machine.travel(at, tick=False):
        assert reminders_sweep(now=at, batch=1) == 3
        assert reminders_sweep(now=at, batch=1) == 0
    assert {entry.match_id for entry in reminders(users[0])} == {m.id for m in matches}


def test_sweeping_twice_sends_once():
    users = [UserFactory(), UserFactory()]
    match = nibble(users)
    at = match.deadline - timedelta(hours=4)
    with time_machine.travel(at, tick=False):
        assert reminders_sweep(now=at) == 1
        assert reminders_sweep(now=at) == 0
    assert len(reminders(users[0])) == 1


@pytest.mark.needs_postgresql("the plan is PostgreSQL's")
def test_the_sweep_reads_only_due_rows_through_its_index():
    nibble([UserFactory(), UserFactory()])
    with connection.cursor() as cursor:
        # A table this small would be read whole; the plan for a big one is the index's.
        cursor.execute("SET LOCAL enable_seqscan = off")
    plan = (Match.objects.filter(next_reminder_at__lte=WEDNESDAY)
            .order_by("next_reminder_at", "id").values_list("next_reminder_at", "id")[:500]
            .explain())
    assert "match_reminder_due" in plan


@pytest.mark.django_db(transaction=True)
@pytest.mark.needs_postgresql("real row-lock concurrency needs PostgreSQL")
def test_sweeps_running_at_once_send_each_reminder_once():
    users = [UserFactory(), UserFactory()]
    matches = [nibble(users) for _ in range(3)]
    at = matches[0].deadline - timedelta(hours=4)
    with time_machine.travel(at, tick=False):
        told = run_together([lambda: reminders_sweep(now=at) for _ in range(4)])
    assert sum(told) == 3
    assert len(reminders(users[0])) == 3
    assert {entry.match_id for entry in reminders(users[0])} == {m.id for m in matches}


def test_a_finished_match_has_no_reminder_left(alice, bob):
    match = nibble([alice, bob])
    with time_machine.travel(WEDNESDAY + timedelta(hours=1), tick=False):
        match_resign(user=alice, match_id=match.id)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.next_reminder_at is None
    assert sweep(WEDNESDAY + timedelta(days=2, hours=23)) == 0
