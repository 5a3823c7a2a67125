"""Due work lives on the match row: each transition marks what the match now waits for that no
person does (a bot's turn, real-time bots' chains, the engine's automatic step, the rating),
the work clears it, and the sweep queues again whatever waited past the grace period, with the
version or ticket it is for. A broker that cannot take a message costs a delay, never a move."""

from __future__ import annotations

import logging
from contextlib import contextmanager
from datetime import timedelta
from unittest import mock

import pytest
from django.db import connection
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from config.celery_app import app as celery_app
from games.catalog import get_engine
from games.models import Match, Move, Seat
from games.services import (
    SeatSpec,
    bot_accounts_ensure,
    due_work_sweep,
    match_abort,
    match_bot_move_play,
    match_bot_race_tick,
    match_create,
    match_join,
    match_move_submit,
    match_rate,
    match_resign,
    match_system_step_run,
    scheduling,
)
from games.services.due import overdue
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

GRACE = 30.0


@pytest.fixture(autouse=True)
def _grace(settings):
    settings.DUE_WORK_GRACE_SECONDS = GRACE


@pytest.fixture
def sent():
    """Every task the services schedule for after commit, recorded instead of sent (these
    tests' transactions all commit; that nothing is sent before is tested elsewhere)."""
    with mock.patch.object(scheduling, "_after_commit") as send:
        yield send


@contextmanager
def broker_down():
    """Tasks go to the broker (not run eagerly), and every publish fails as with the broker
    down."""
    saved = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    try:
        with mock.patch("kombu.messaging.Producer.publish",
                        side_effect=BrokerError("Error 111 connecting")) as publish, \
                mock.patch.object(scheduling, "BROKER", scheduling.broker_breaker()):
            yield publish
    finally:
        celery_app.conf.task_always_eager = saved


def later(seconds: float = GRACE + 1):
    return timezone.now() + timedelta(seconds=seconds)


def calls(send) -> list[tuple]:
    return [(c.args[0], c.args[1]) for c in send.call_args_list]


def nibble_against_bot(user, *, bot_first: bool) -> Match:
    bot_accounts_ensure()
    return match_create(user=user, game="nibble", config={"first_seat": 1 if bot_first else 0},
                        seats=[SeatSpec("me"), SeatSpec("bot", level=1)])


def nibble_take(match: Match) -> dict:
    from games.nibble.engine import takeable_discs

    takeable = takeable_discs(get_engine("nibble").load(match.state))
    return {"take": [list(takeable[min(takeable)][0])]}


def nimalia_move(match: Match, seat: int) -> dict | None:
    legal = get_engine("nimalia").view(get_engine("nimalia").load(match.state), seat)[
        "legal_moves"]
    if not legal or legal["undo"]:
        return None
    row, col = legal["anchors"][0]
    return {"card": legal["cards"][0], "row": row, "col": col, "rotation": 0}


def nimalia_at_round_end(alice, bob) -> Match:
    """A two-player Nimalia match whose first round waits for its scoring."""
    match = match_create(user=alice, game="nimalia",
                         seats=[SeatSpec("me"), SeatSpec("user", username=bob.username)])
    match_join(user=bob, match_id=match.id)
    users = {0: alice, 1: bob}
    while True:
        match.refresh_from_db()
        if not match.actors:
            return match
        for seat in match.actors:
            move = nimalia_move(match, seat)
            if move is not None:
                match_move_submit(user=users[seat], match_id=match.id, move=move)
                break


# --------------------------------------------------------------------------- the mark


def test_a_bots_turn_marks_the_match_and_the_bots_move_clears_it(alice, sent):
    match = nibble_against_bot(alice, bot_first=True)
    match.refresh_from_db()
    assert match.work_due_at is not None
    assert match_bot_move_play(match_id=match.id, expected_version=0, seat=1)
    match.refresh_from_db()
    assert match.actors == [0] and match.work_due_at is None


def test_a_persons_turn_leaves_no_mark(alice, bob, sent):
    match = nibble_against_bot(alice, bot_first=False)
    match.refresh_from_db()
    assert match.work_due_at is None
    match_move_submit(user=alice, match_id=match.id, move=nibble_take(match))
    match.refresh_from_db()
    assert match.actors == [1] and match.work_due_at is not None, "now the bot must act"


def test_a_finished_rated_match_waits_for_its_rating_until_rated(alice, bob, sent):
    match = match_create(user=alice, game="nibble")
    match_join(user=bob, match_id=match.id)
    match.refresh_from_db()
    assert match.work_due_at is None
    match_resign(user=alice, match_id=match.id)
    match.refresh_from_db()
    assert match.status == "finished" and match.work_due_at is not None
    assert match_rate(match_id=str(match.id))
    match.refresh_from_db()
    assert match.work_due_at is None
    unrated = match_create(user=alice, game="nibble", rated=False)
    match_join(user=bob, match_id=unrated.id)
    match_resign(user=bob, match_id=unrated.id)
    assert Match.objects.get(id=unrated.id).work_due_at is None


def test_an_aborted_match_waits_for_nothing(alice, sent):
    match = nibble_against_bot(alice, bot_first=True)
    match_abort(user=alice, match_id=match.id)
    assert Match.objects.get(id=match.id).work_due_at is None


def test_a_nimalia_round_end_waits_for_its_scoring(alice, bob, sent):
    match = nimalia_at_round_end(alice, bob)
    assert match.work_due_at is not None
    assert match_system_step_run(match_id=match.id, expected_version=match.version)
    match.refresh_from_db()
    assert match.actors and match.work_due_at is None


def test_real_time_bots_stamp_their_chains_and_the_match_keeps_the_oldest(alice, sent):
    bot_accounts_ensure()
    match = match_create(user=alice, game="nimble", config={"mode": "race"},
                         seats=[SeatSpec("me"), SeatSpec("bot", level=1),
                                SeatSpec("bot", level=2)])
    match.refresh_from_db()
    seats = {s.index: s for s in Seat.objects.filter(match=match)}
    assert seats[0].bot_tick_at is None
    assert seats[1].bot_tick_at == seats[2].bot_tick_at == match.started_at
    assert match.work_due_at == match.started_at
    assert sorted(c.args[1] for c in sent.call_args_list
                  if c.args[0] != "games.notify_deliver") == [(str(match.id), 1, 0),
                                                               (str(match.id), 2, 0)]
    match_bot_race_tick(match_id=match.id, seat=1, ticket=0)
    match.refresh_from_db()
    seats = {s.index: s for s in Seat.objects.filter(match=match)}
    assert seats[1].bot_tick_at > seats[2].bot_tick_at
    # Seat 2's chain has not moved since the start: the match is as old as it.
    assert match.work_due_at == seats[2].bot_tick_at


# --------------------------------------------------------------------------- the sweep


def test_the_sweep_requeues_only_what_waited_past_the_grace_period(alice, bob, sent):
    waiting = nibble_against_bot(alice, bot_first=True)
    people_only = nibble_against_bot(alice, bot_first=False)
    sent.reset_mock()
    assert due_work_sweep(now=later(GRACE - 5)) == {"requeued": 0, "cleared": 0}
    assert not sent.called
    assert due_work_sweep(now=later()) == {"requeued": 1, "cleared": 0}
    assert calls(sent) == [(scheduling.MATCH_BOT_MOVE_PLAY, (str(waiting.id), 0, 1))]
    assert Match.objects.get(id=people_only.id).work_due_at is None


def test_a_requeued_match_waits_another_grace_period_before_the_next_requeue(alice, sent):
    match = nibble_against_bot(alice, bot_first=True)
    now = later()
    sent.reset_mock()
    assert due_work_sweep(now=now)["requeued"] == 1
    assert Match.objects.get(id=match.id).work_due_at == now
    assert due_work_sweep(now=now)["requeued"] == 0, "a concurrent or repeated sweep"
    assert due_work_sweep(now=now + timedelta(seconds=GRACE - 1))["requeued"] == 0
    assert due_work_sweep(now=now + timedelta(seconds=GRACE + 1))["requeued"] == 1
    assert sent.call_count == 2


def test_the_requeued_task_is_idempotent(alice, sent):
    match = nibble_against_bot(alice, bot_first=True)
    due_work_sweep(now=later())
    name, args = calls(sent)[-1]
    assert name == scheduling.MATCH_BOT_MOVE_PLAY
    assert match_bot_move_play(match_id=args[0], expected_version=args[1], seat=args[2])
    assert not match_bot_move_play(match_id=args[0], expected_version=args[1], seat=args[2])
    assert Move.objects.filter(match=match).count() == 1


def test_the_sweep_requeues_a_lost_system_step_once(alice, bob, sent):
    match = nimalia_at_round_end(alice, bob)
    sent.reset_mock()
    assert due_work_sweep(now=later())["requeued"] == 1
    assert calls(sent) == [(scheduling.MATCH_SYSTEM_STEP_RUN, (str(match.id), match.version))]
    assert match_system_step_run(match_id=match.id, expected_version=match.version)
    assert not match_system_step_run(match_id=match.id, expected_version=match.version)
    assert Move.objects.filter(match=match, kind=Move.Kind.SYSTEM).count() == 1
    assert due_work_sweep(now=later(3 * GRACE))["requeued"] == 0


def test_the_sweep_requeues_a_lost_rating_and_clears_a_rated_match(alice, bob, sent):
    match = match_create(user=alice, game="nibble")
    match_join(user=bob, match_id=match.id)
    match_resign(user=alice, match_id=match.id)
    sent.reset_mock()
    assert due_work_sweep(now=later())["requeued"] == 1
    assert calls(sent) == [(scheduling.MATCH_RATE, (str(match.id),))]
    assert match_rate(match_id=str(match.id))
    # Rated, yet marked again (say, restored from an older backup): the sweep clears it.
    Match.objects.filter(id=match.id).update(work_due_at=timezone.now())
    assert due_work_sweep(now=later()) == {"requeued": 0, "cleared": 1}
    assert Match.objects.get(id=match.id).work_due_at is None


def test_the_sweep_restarts_a_stalled_race_chain_with_the_current_ticket(alice, sent):
    bot_accounts_ensure()
    match = match_create(user=alice, game="nimble", config={"mode": "race"},
                         seats=[SeatSpec("me"), SeatSpec("bot", level=1),
                                SeatSpec("bot", level=2)])
    assert match_bot_race_tick(match_id=match.id, seat=1, ticket=0)
    # Seat 1 ticked just now (its chain is alive); seat 2's first tick was lost.
    Seat.objects.filter(match=match, index=1).update(bot_tick_at=later(GRACE))
    sent.reset_mock()
    now = later()
    assert due_work_sweep(now=now)["requeued"] == 1
    assert calls(sent) == [(scheduling.MATCH_BOT_RACE_TICK, (str(match.id), 2, 0))]
    seat2 = Seat.objects.get(match=match, index=2)
    assert seat2.bot_tick_at == now
    # The restarted tick runs once; a late copy of the lost one does nothing.
    assert match_bot_race_tick(match_id=match.id, seat=2, ticket=0)
    assert not match_bot_race_tick(match_id=match.id, seat=2, ticket=0)
    assert Seat.objects.get(id=seat2.id).bot_ticket == 1


def test_a_live_race_chain_and_its_restart_make_one_chain(alice, sent):
    bot_accounts_ensure()
    match = match_create(user=alice, game="nimble", config={"mode": "race"},
                         seats=[SeatSpec("me"), SeatSpec("bot", level=1)])
    sent.reset_mock()
    due_work_sweep(now=later())
    assert calls(sent) == [(scheduling.MATCH_BOT_RACE_TICK, (str(match.id), 1, 0))]
    # Both the original tick 0 and the re-sent one arrive: one acts and schedules tick 1.
    sent.reset_mock()
    results = [match_bot_race_tick(match_id=match.id, seat=1, ticket=0) for _ in range(2)]
    assert sorted(results) == [False, True]
    assert calls(sent) == [(scheduling.MATCH_BOT_RACE_TICK, (str(match.id), 1, 1))]


@pytest.mark.needs_postgresql("the plan is PostgreSQL's")
def test_the_sweep_query_uses_the_partial_index():
    query = overdue(timezone.now()).values_list("id", flat=True)[:1000]
    with connection.cursor() as cursor:
        # An empty test table is cheaper to scan; the question is whether the index serves.
        cursor.execute("SET LOCAL enable_seqscan = off")
        plan = query.explain()
    assert "match_work_due" in plan, plan


# --------------------------------------------------------------------------- the broker


def test_a_failed_publish_is_logged_and_swallowed(caplog):
    with broker_down(), caplog.at_level(logging.WARNING, logger="games.services.scheduling"):
        scheduling.send(scheduling.MATCH_SYSTEM_STEP_RUN, ("a-match-id", 7))
    assert "games.match_system_step_run" in caplog.text and "a-match-id" in caplog.text


def test_after_a_failed_publish_the_broker_is_left_alone_for_a_while():
    with broker_down() as publish:
        for version in range(5):
            scheduling.send(scheduling.MATCH_SYSTEM_STEP_RUN, ("a-match-id", version))
        assert publish.call_count == 1, "one failed publish opens the breaker"
        assert scheduling.BROKER.is_open and scheduling.BROKER.skipped == 4


@pytest.mark.django_db(transaction=True)
def test_a_move_is_201_when_the_broker_is_down(client_for):
    person = UserFactory()
    match = nibble_against_bot(person, bot_first=False)
    with broker_down() as publish:
        response = client_for(person).post(f"/api/matches/{match.id}/moves",
                                           {"move": nibble_take(match)}, format="json")
    assert response.status_code == 201, response.json()
    assert publish.called, "the bot's turn was offered to the broker"
    match.refresh_from_db()
    assert match.version == 1 and match.actors == [1]
    assert match.work_due_at is not None, "the sweep will queue the bot's turn"
