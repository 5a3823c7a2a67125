"""Publishing wake-ups (games.live.hub.publish) on a real Redis: each thread keeps a connection
of its own for it, sends every channel's PUBLISH once, in one go, and survives Redis closing
that connection (it connects again at once, the breaker staying shut)."""

from __future__ import annotations

import threading
import time

import pytest
import redis

from games.live import hub as events_hub

pytestmark = pytest.mark.needs_redis


@pytest.fixture
def events_url(settings):
    url = settings.CELERY_BROKER_URL
    settings.EVENTS_REDIS_URL = url
    events_hub.breaker(url).succeeded()
    return url


def _received(url: str, channels: list[str], publish) -> list[str]:
    """The channels a subscriber to ``channels`` hears while ``publish`` runs."""
    listener = redis.Redis.from_url(url).pubsub(ignore_subscribe_messages=True)
    listener.subscribe(*channels)
    while listener.get_message(timeout=0.1) is not None:
        pass
    publish()
    heard, deadline = [], time.monotonic() + 5
    while time.monotonic() < deadline and len(heard) < len(channels):
        message = listener.get_message(timeout=0.2)
        if message is not None:
            heard.append(message["channel"].decode())
    listener.close()
    return heard


def test_each_channel_is_published_once_players_first(events_url):
    user, match = events_hub.user_channel("p1"), events_hub.match_channel("m1")
    heard = _received(events_url, [user, match], lambda: events_hub.publish(match, user, user))
    assert heard == [user, match]


def test_a_connection_redis_closed_is_replaced_at_once(events_url):
    channel = events_hub.match_channel("m2")
    events_hub.publish(channel)
    publisher = events_hub._publisher(events_url)
    publisher.send_command("CLIENT", "ID")
    publisher_id = publisher.read_response()
    assert redis.Redis.from_url(events_url).client_kill_filter(_id=publisher_id) == 1
    assert _received(events_url, [channel], lambda: events_hub.publish(channel)) == [channel]
    assert not events_hub.breaker(events_url).is_open


def test_each_thread_publishes_on_a_connection_of_its_own(events_url):
    mine = events_hub._publisher(events_url)
    theirs = []
    thread = threading.Thread(target=lambda: theirs.append(events_hub._publisher(events_url)))
    thread.start()
    thread.join()
    assert theirs[0] is not mine
    assert events_hub._publisher(events_url) is mine
