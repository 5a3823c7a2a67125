"""The cache on Redis while Redis is away (config.cache.FallbackRedisCache): it answers from
process memory, so throttled requests (all of them) neither fail nor hang, and the budgets are
still counted, per process."""

from __future__ import annotations

import logging
import time

import pytest
from django.conf import settings as django_settings
from rest_framework.throttling import AnonRateThrottle

from config.cache import FallbackRedisCache
from config.throttling import PlayerRateThrottle
from tests.games.matchplay import assert_error
from tests.hanging import HangingListener, free_port

OPTIONS = {"socket_connect_timeout": 0.25, "socket_timeout": 0.25}


def redis_cache(url: str) -> FallbackRedisCache:
    return FallbackRedisCache(url, {"OPTIONS": OPTIONS})


@pytest.fixture
def quick_retry(settings):
    settings.REDIS_RETRY_SECONDS = 0.3
    return settings


def test_a_refused_redis_answers_from_memory_and_is_logged_once(quick_retry, caplog):
    cache = redis_cache(f"redis://127.0.0.1:{free_port()}/0")
    caplog.set_level(logging.INFO, logger="config.cache")
    cache.set("budget", [1.0, 2.0], 60)
    assert cache.get("budget") == [1.0, 2.0]
    assert cache.add("other", 1) and not cache.add("other", 2)
    assert cache.incr("other") == 2
    assert cache.get_many(["budget", "other"]) == {"budget": [1.0, 2.0], "other": 2}
    for _ in range(200):
        cache.get("budget")
    assert cache.breaker.is_open
    warnings = [r for r in caplog.records if r.name == "config.cache"]
    assert len(warnings) == 1 and "unavailable" in warnings[0].message
    assert "answering from this process's memory" in warnings[0].message


def test_a_hanging_redis_costs_one_short_timeout_per_interval(quick_retry):
    with HangingListener() as hanging:
        cache = redis_cache(f"redis://127.0.0.1:{hanging.port}/0")
        started = time.monotonic()
        assert cache.get("key", "default") == "default"
        first = time.monotonic() - started
        assert first < 1.0, first  # one timeout (0.25 s), never retried
        started = time.monotonic()
        for _ in range(100):
            cache.set("key", "value")
            assert cache.get("key") == "value"
        assert time.monotonic() - started < 0.5, "the breaker must skip a hanging Redis"
        time.sleep(0.35)  # the retry interval: one call tries again, and waits once more
        started = time.monotonic()
        for _ in range(10):
            cache.get("key")
        assert 0.2 <= time.monotonic() - started < 1.0


def test_every_cache_object_of_the_process_shares_the_outage(quick_retry):
    url = f"redis://127.0.0.1:{free_port()}/0"
    first, second = redis_cache(url), redis_cache(url)
    first.set("key", "value")
    assert first.breaker is second.breaker and second.breaker.is_open
    assert second.get("key") == "value"


@pytest.mark.needs_redis
def test_with_redis_back_the_shared_cache_is_used_again(quick_retry):
    cache = redis_cache(django_settings.CELERY_BROKER_URL)
    cache.delete("outage-test")
    cache.breaker.failed(ConnectionError("as if Redis had gone"))
    cache.set("outage-test", "in memory")
    time.sleep(0.35)
    assert cache.get("outage-test") is None, "Redis itself never got the value"
    assert not cache.breaker.is_open
    cache.set("outage-test", "in Redis", 10)
    assert redis_cache(django_settings.CELERY_BROKER_URL).get("outage-test") == "in Redis"
    cache.delete("outage-test")


@pytest.mark.django_db
def test_throttled_requests_are_answered_and_counted_while_redis_is_away(
        settings, monkeypatch, api_client, client_for, make_user):
    """The API with its default cache on a Redis that refuses: sign-in, reads, and the
    budgets (here 2 and 3 a minute) still enforced, from this process's memory."""
    settings.CACHES = {"default": {"BACKEND": "config.cache.FallbackRedisCache",
                                   "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
                                   "OPTIONS": OPTIONS}}
    settings.REDIS_RETRY_SECONDS = 30
    monkeypatch.setattr(AnonRateThrottle, "rate", "2/min", raising=False)
    monkeypatch.setattr(PlayerRateThrottle, "rate", "3/min", raising=False)
    make_user(username="ada")
    right = {"username": "ada", "password": "correct-horse-battery"}
    for _ in range(2):
        response = api_client.post("/api/auth/token", right, format="json")
        assert response.status_code == 200, response.json()
    assert_error(api_client.post("/api/auth/token", right, format="json"), 429, "throttled")
    me = client_for(make_user(username="bea"))
    for _ in range(3):
        assert me.get("/api/me").status_code == 200
    assert_error(me.get("/api/me"), 429, "throttled")
