"""A staff abort and a player's move racing on PostgreSQL: both take the match row lock, so
one waits for the other and sees its work; the loser gets a coded answer, never a mixed
match."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction

from games.exceptions import StaleVersion
from games.models import AuditEntry, Match, Move
from games.selectors.replay import match_replay_problem
from games.services import match_lock, match_move_submit, moderation
from tests.factories import UserFactory
from tests.games.matchplay import assert_error, start_nibble_match, submit

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.needs_postgresql("real row-lock concurrency needs PostgreSQL"),
]


def in_thread(call: Callable[[], Any], results: dict[str, Any], key: str) -> threading.Thread:
    def work() -> None:
        try:
            results[key] = call()
        except BaseException as exc:
            results[key] = exc
        finally:
            connection.close()

    thread = threading.Thread(target=work)
    thread.start()
    return thread


def wait_until_someone_waits_for_a_lock() -> None:
    """Until another session of this database waits on a lock (bounded: 30 s)."""
    for _ in range(600):
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                           "current_database() AND wait_event_type = 'Lock'")
            if cursor.fetchone()[0]:
                return
        time.sleep(0.05)
    raise AssertionError("nobody ever waited for the match lock")


def holding_the_lock(match_id: str, locked: threading.Event, release: threading.Event,
                     then: Callable[[], Any]) -> Callable[[], Any]:
    def call() -> Any:
        with transaction.atomic():
            match_lock(match_id=match_id)
            locked.set()
            assert release.wait(30)
            return then()
    return call


@pytest.fixture
def game(client_for, alice, bob):
    return start_nibble_match(client_for(alice), client_for(bob))


def first_take(match_id: str) -> dict[str, Any]:
    detail = Match.objects.get(pk=match_id)
    from games.catalog import get_engine
    engine = get_engine("nibble")
    state = engine.load(detail.state)
    return engine.dump_move(engine.legal_moves(state, detail.actors[0])[0])


def test_an_abort_waits_for_the_move_holding_the_lock_and_sees_it(game, alice):
    staff = UserFactory(is_staff=True, is_superuser=True)
    move = first_take(game.id)
    locked, release, results = threading.Event(), threading.Event(), {}
    mover = in_thread(holding_the_lock(game.id, locked, release, lambda: match_move_submit(
        user=alice, match_id=game.id, move=move, expected_version=0)), results, "move")
    assert locked.wait(30)
    aborter = in_thread(lambda: moderation.match_abort_by_staff(
        actor=staff, match_id=game.id, reason="stuck"), results, "abort")
    wait_until_someone_waits_for_a_lock()
    release.set()
    mover.join(60)
    aborter.join(60)
    assert not isinstance(results["move"], BaseException), results["move"]
    assert isinstance(results["abort"], AuditEntry), results["abort"]
    match = Match.objects.get(pk=game.id)
    assert match.status == "aborted" and match.version == 1
    assert list(Move.objects.filter(match=match).values_list("seq", flat=True)) == [1]
    assert results["abort"].data == {"version": 1, "status_before": "active"}
    assert match_replay_problem(match) is None


def test_an_abort_for_the_version_staff_saw_is_refused_once_a_move_got_in_first(game, alice):
    staff = UserFactory(is_staff=True, is_superuser=True)
    move = first_take(game.id)
    locked, release, results = threading.Event(), threading.Event(), {}
    mover = in_thread(holding_the_lock(game.id, locked, release, lambda: match_move_submit(
        user=alice, match_id=game.id, move=move, expected_version=0)), results, "move")
    assert locked.wait(30)
    aborter = in_thread(lambda: moderation.match_abort_by_staff(
        actor=staff, match_id=game.id, reason="stuck", expected_version=0), results, "abort")
    wait_until_someone_waits_for_a_lock()
    release.set()
    mover.join(60)
    aborter.join(60)
    assert isinstance(results["abort"], StaleVersion)
    match = Match.objects.get(pk=game.id)
    assert match.status == "active" and match.version == 1
    assert not AuditEntry.objects.exists()


def test_a_move_waiting_behind_an_abort_gets_game_over(game, alice):
    staff = UserFactory(is_staff=True, is_superuser=True)
    move = first_take(game.id)
    locked, release, results = threading.Event(), threading.Event(), {}
    aborter = in_thread(holding_the_lock(game.id, locked, release, lambda: (
        moderation.match_abort_by_staff(actor=staff, match_id=game.id, reason="stuck"))),
        results, "abort")
    assert locked.wait(30)
    mover = in_thread(lambda: submit(game.a, game.id, move, 0), results, "move")
    wait_until_someone_waits_for_a_lock()
    release.set()
    aborter.join(60)
    mover.join(60)
    assert isinstance(results["abort"], AuditEntry)
    assert_error(results["move"], 409, "game_over")
    match = Match.objects.get(pk=game.id)
    assert match.status == "aborted" and match.version == 0
    assert not Move.objects.filter(match=match).exists()
