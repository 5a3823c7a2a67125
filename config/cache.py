"""The cache on Redis, kept answering while Redis is away.

The cache holds the throttles' counters (config.throttling), shared by every process serving
the API. When Redis refuses, errors or hangs, Django's ``RedisCache`` raises, and every
throttled request, which is every API request, would answer 500. ``FallbackRedisCache`` answers
from a memory of this process instead: throttle budgets are then counted per process (a
caller may get up to one budget per process, never an unlimited one, so the anonymous budget
still slows down password guessing during an outage). The switch is a circuit breaker
(config.outages): a Redis that is down costs one failed call per REDIS_RETRY_SECONDS and
process, and with short socket timeouts (REDIS_CONNECT_TIMEOUT, REDIS_SOCKET_TIMEOUT, set in
the settings' CACHES block) a hanging one costs one short timeout, not a hung request. When
Redis answers again the shared counters are used again; what was counted in memory is dropped.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from typing import Any

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache

from config.outages import Breaker, reconnect_once

logger = logging.getLogger(__name__)

# Entries the in-process stand-in keeps (one per throttled caller and scope).
FALLBACK_MAX_ENTRIES = 10_000


@lru_cache(maxsize=16)
def _breaker(where: str) -> Breaker:
    # One per Redis and process: Django makes a cache object per thread (and so per request
    # under ASGI), and an outage must be noticed once, not by each of them.
    return Breaker(f"cache Redis at {where}", logger=logger,
                   fallback="answering from this process's memory")


def _fallback_method(name: str) -> Any:
    def method(self: FallbackRedisCache, *args: Any, **kwargs: Any) -> Any:
        if self.breaker.allow():
            try:
                result = getattr(super(FallbackRedisCache, self), name)(*args, **kwargs)
            except Exception as exc:  # noqa: BLE001 - any Redis failure: use the stand-in
                self.breaker.failed(exc)
            else:
                self.breaker.succeeded()
                return result
        return getattr(self.fallback, name)(*args, **kwargs)

    method.__name__ = name
    method.__doc__ = f"RedisCache.{name}, or the in-process stand-in's while Redis is away."
    return method


class FallbackRedisCache(RedisCache):
    """Django's ``RedisCache`` that, while Redis fails, answers from process memory (see the
    module docstring). A connection Redis dropped (it restarted) is retried once at once on a
    new connection before that counts as a failure; a timeout is not retried."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = {"retry": reconnect_once(), **params.get("OPTIONS", {})}
        super().__init__(server, {**params, "OPTIONS": options})
        where = str(server).split(",")[0].rsplit("@", 1)[-1]  # no credentials in the logs
        self.breaker = _breaker(where)
        # Every cache object of the process for this Redis shares one memory (by its name).
        self.fallback = LocMemCache(f"boardpost-fallback:{where}", {
            "TIMEOUT": params.get("TIMEOUT", 300),
            "OPTIONS": {"MAX_ENTRIES": FALLBACK_MAX_ENTRIES},
            "KEY_PREFIX": params.get("KEY_PREFIX", ""),
            "VERSION": params.get("VERSION", 1),
        })

    add = _fallback_method("add")
    get = _fallback_method("get")
    set = _fallback_method("set")
    touch = _fallback_method("touch")
    delete = _fallback_method("delete")
    get_many = _fallback_method("get_many")
    has_key = _fallback_method("has_key")
    incr = _fallback_method("incr")
    set_many = _fallback_method("set_many")
    delete_many = _fallback_method("delete_many")
    clear = _fallback_method("clear")
