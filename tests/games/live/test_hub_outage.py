"""Long-poll wake-ups while Redis is away (games.live.hub): publishing never fails or stalls a
move, waiting requests poll the database instead, and they trust Redis again only once it has
answered for a while (REDIS_RETRY_SECONDS), when every process publishes again."""

from __future__ import annotations

import asyncio
import logging
import threading
import time

import pytest
from django.db import connection

from games.catalog import get_engine
from games.live import hub as events_hub
from games.models import Match
from games.services import SeatSpec, match_create, match_join, match_move_submit
from tests.factories import UserFactory
from tests.games.helpers import first_nibble_take
from tests.hanging import HangingListener, free_port


@pytest.fixture
def quick(settings):
    settings.REDIS_RETRY_SECONDS = 0.3
    settings.EVENTS_POLL_SECONDS = 0.2
    return settings


def test_publishing_to_a_refused_redis_neither_raises_nor_logs_each_time(quick, caplog):
    quick.EVENTS_REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"
    caplog.set_level(logging.INFO, logger="games.live.hub")
    started = time.monotonic()
    for _ in range(100):
        events_hub.publish(events_hub.match_channel("m"), events_hub.user_channel(1))
    assert time.monotonic() - started < 1.0
    assert events_hub.breaker(quick.EVENTS_REDIS_URL).is_open
    (warning,) = [r for r in caplog.records if r.name == "games.live.hub"]
    assert "events Redis at" in warning.message and "poll the database" in warning.message


def test_publishing_to_a_hanging_redis_costs_one_short_timeout_per_interval(quick):
    with HangingListener() as hanging:
        quick.EVENTS_REDIS_URL = f"redis://127.0.0.1:{hanging.port}/0"
        started = time.monotonic()
        events_hub.publish(events_hub.match_channel("m"))
        assert time.monotonic() - started < 1.0  # REDIS_SOCKET_TIMEOUT, not retried
        started = time.monotonic()
        for _ in range(100):
            events_hub.publish(events_hub.match_channel("m"))
        assert time.monotonic() - started < 0.2, "the breaker must skip a hanging Redis"


def test_waiters_poll_until_redis_has_answered_for_the_retry_interval(quick):
    url = f"redis://127.0.0.1:{free_port()}/0"

    async def scenario() -> None:
        hub = events_hub.Hub(url, channels=["boardpost:match:x"])
        subscription = events_hub.Subscription(hub, "boardpost:match:x")
        hub.live = True
        assert hub.trusted()
        hub.breaker.failed(ConnectionError("a publish failed"))
        assert not hub.trusted()
        started = time.monotonic()
        assert not await subscription.wait(10)
        assert time.monotonic() - started < 1.0, "not trusted: one poll interval"
        hub.breaker.succeeded()
        assert not hub.trusted(), "publishers elsewhere may still skip their publishes"
        await asyncio.sleep(0.35)
        assert hub.trusted()

    asyncio.run(scenario())


def _nibble_match():
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    match = match_create(user=alice, game="nibble", config={"first_seat": 0}, rated=False,
                         seats=[SeatSpec("me"), SeatSpec("user", username="bob")])
    match_join(user=bob, match_id=match.id)
    return match, alice, bob


def _move_later(match: Match, user, delay: float) -> threading.Thread:
    def move() -> None:
        try:
            time.sleep(delay)
            engine = get_engine("nibble")
            current = Match.objects.get(id=match.id)
            legal = engine.view(engine.load(current.state), 0)["legal_moves"]
            match_move_submit(user=user, match_id=current.id, move=first_nibble_take(legal))
        finally:
            connection.close()

    thread = threading.Thread(target=move, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("away", ["refused", "hanging"])
def test_a_long_poll_answers_from_the_database_while_redis_is_away(
        away, quick, client_for, transactional_db):
    """Under WSGI (the test client), where each waiting request subscribes on its own: the
    subscription fails, the request polls, and a move committed meanwhile is answered within
    about a poll interval."""
    with HangingListener() as hanging:
        port = hanging.port if away == "hanging" else free_port()
        quick.EVENTS_REDIS_URL = f"redis://127.0.0.1:{port}/0"
        match, alice, bob = _nibble_match()
        watcher = client_for(bob)
        started = time.monotonic()
        response = watcher.get(f"/api/matches/{match.id}/events?after=0&wait=0")
        assert response.status_code == 200 and time.monotonic() - started < 1.0
        started = time.monotonic()
        response = watcher.get(f"/api/matches/{match.id}/events?after=0&wait=1")
        elapsed = time.monotonic() - started
        assert response.status_code == 200 and response.json()["moves"] == []
        assert 0.9 <= elapsed < 2.0, elapsed
        started = time.monotonic()
        mover = _move_later(match, alice, 0.5)
        response = watcher.get(f"/api/matches/{match.id}/events?after=0&wait=20")
        answered = time.monotonic()
        mover.join()
        assert response.status_code == 200
        assert [move["seq"] for move in response.json()["moves"]] == [1]
        assert answered - started < 0.5 + 1.5, "answered by polling, not after 20 s"
