"""Throttle budgets on Redis in one round trip (config.throttle_log): the same decisions and
waits as DRF's own throttles, no GET or SET of the cache, and DRF's way in memory while Redis
is away."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from django.core.cache.backends.locmem import LocMemCache
from rest_framework.throttling import SimpleRateThrottle

from config.cache import FallbackRedisCache
from config.throttle_log import LOG_SUFFIX, OneTripThrottle
from config.throttling import PlayerRateThrottle
from tests.games.matchplay import assert_error
from tests.hanging import free_port

OPTIONS = {"socket_connect_timeout": 0.25, "socket_timeout": 0.25}
# Request times (seconds) against a budget of 3 a minute.
TIMES = [0.0, 1.0, 2.0, 3.0, 30.0, 59.9, 60.0, 60.5, 61.0, 61.5, 62.0, 62.5, 200.0, 200.0,
         200.0, 200.0]


class _Caller:
    def __init__(self, ident: str) -> None:
        self.ident = ident


def _throttle_class(base, cache, clock):
    class Budget(base):
        scope = "test"
        rate = "3/min"
        timer = staticmethod(lambda: clock[0])

        def get_cache_key(self, request, view):
            return f"throttle_test_{request.ident}"

    Budget.cache = cache
    return Budget


def _decisions(throttle_class, clock, ident):
    found = []
    for at in TIMES:
        clock[0] = 1_000_000.0 + at
        throttle = throttle_class()
        allowed = throttle.allow_request(_Caller(ident), None)
        found.append((at, allowed, None if allowed else round(throttle.wait(), 6)))
    return found


def _redis_cache() -> FallbackRedisCache:
    return FallbackRedisCache(django_settings.CELERY_BROKER_URL, {"OPTIONS": OPTIONS})


@pytest.fixture
def redis_cache():
    cache = _redis_cache()
    cache.clear()
    yield cache
    cache.clear()


@pytest.mark.needs_redis
def test_the_decisions_and_waits_are_drf_s(redis_cache):
    clock = [0.0]
    drf = _decisions(_throttle_class(SimpleRateThrottle, LocMemCache("drf", {}), clock), clock,
                     "a")
    ours = _decisions(_throttle_class(OneTripThrottle, redis_cache, clock), clock, "a")
    assert ours == drf
    assert [allowed for _, allowed, _ in ours].count(False) >= 5


@pytest.mark.needs_redis
def test_one_round_trip_no_get_or_set(redis_cache, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the budget went through a GET or SET of the cache")

    monkeypatch.setattr(redis_cache, "get", refuse)
    monkeypatch.setattr(redis_cache, "set", refuse)
    clock = [1_000_000.0]
    budget = _throttle_class(OneTripThrottle, redis_cache, clock)
    assert [budget().allow_request(_Caller("b"), None) for _ in range(4)] == [
        True, True, True, False]
    key = redis_cache.make_and_validate_key("throttle_test_b" + LOG_SUFFIX)
    client = redis_cache._cache.get_client(key)
    assert client.type(key) == b"list" and client.llen(key) == 3
    assert 59 <= client.ttl(key) <= 60


@pytest.mark.needs_redis
def test_each_caller_has_a_budget_of_its_own(redis_cache):
    clock = [1_000_000.0]
    budget = _throttle_class(OneTripThrottle, redis_cache, clock)
    for _ in range(3):
        assert budget().allow_request(_Caller("c"), None)
    assert not budget().allow_request(_Caller("c"), None)
    assert budget().allow_request(_Caller("d"), None)


def test_while_redis_is_away_the_budget_is_counted_in_memory(settings):
    settings.REDIS_RETRY_SECONDS = 30
    cache = FallbackRedisCache(f"redis://127.0.0.1:{free_port()}/0", {"OPTIONS": OPTIONS})
    clock = [1_000_000.0]
    budget = _throttle_class(OneTripThrottle, cache, clock)
    assert [budget().allow_request(_Caller("e"), None) for _ in range(4)] == [
        True, True, True, False]
    assert cache.breaker.is_open
    assert len(cache.fallback.get("throttle_test_e")) == 3


def test_any_other_cache_takes_drf_s_way():
    cache = LocMemCache("other", {})
    clock = [1_000_000.0]
    budget = _throttle_class(OneTripThrottle, cache, clock)
    assert budget().allow_request(_Caller("f"), None)
    assert cache.get("throttle_test_f") == [1_000_000.0]


@pytest.mark.needs_redis
@pytest.mark.django_db
def test_the_api_s_budgets_on_redis(settings, monkeypatch, client_for, make_user):
    settings.CACHES = {"default": {"BACKEND": "config.cache.FallbackRedisCache",
                                   "LOCATION": django_settings.CELERY_BROKER_URL,
                                   "OPTIONS": OPTIONS}}
    monkeypatch.setattr(PlayerRateThrottle, "rate", "3/min", raising=False)
    _redis_cache().clear()
    me = client_for(make_user(username="cleo"))
    for _ in range(3):
        assert me.get("/api/me").status_code == 200
    refused = me.get("/api/me")
    assert_error(refused, 429, "throttled")
    assert 1 <= int(refused["Retry-After"]) <= 61
    _redis_cache().clear()
