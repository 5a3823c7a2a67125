"""Throttle budgets on Redis in one round trip a request.

DRF's throttles keep a caller's budget as the list of its request times in the cache: they read
it (a GET), drop the times older than the window, refuse when it holds the rate's number of
requests, and otherwise add this request's time and write the list back (a SET). With the cache
on Redis (``CACHE_URL``, ``config.cache.FallbackRedisCache``) that is two round trips on every
throttled request, each pickling the list: about 200 µs of CPU and 270 µs of wall time per
API call on the project's machine, against 110 µs and 160 µs with one (docs/benchmarks.md).

``OneTripThrottle`` does the same in Redis with one script (``EVALSHA``), on a Redis list of the
request times kept under the budget's key plus ``:log``: the times out of the window dropped
from its old end, the rest counted, a refusal when they reach the rate, else this request's
time added and the key's expiry set to the window, as DRF sets it. The budget, the window, the
refusals and the wait DRF advertises (``Retry-After``) are the same; two processes can no
longer both read a list and write it back, losing one request. The time is the server process's
(``timer``), as DRF's.

Any other cache (the in-process one of ``make run``, the benchmarks and the tests) takes DRF's
own way, and so does Redis while it is away: the cache's breaker (``config.outages``) says so,
and its in-process stand-in then counts the budgets as before.
"""

from __future__ import annotations

import weakref
from typing import Any

from django.core.cache.backends.redis import RedisCache
from django.utils.connection import ConnectionProxy
from redis.commands.core import Script
from rest_framework.throttling import SimpleRateThrottle

LOG_SUFFIX = ":log"
# KEYS[1]: the budget's list, newest time first. ARGV: now, the window in seconds, the rate's
# number of requests. Answers {allowed (1 or 0), the times in the window, the oldest of them}.
SCRIPT = """
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local oldest = redis.call('LINDEX', key, -1)
while oldest and tonumber(oldest) <= now - window do
  redis.call('RPOP', key)
  oldest = redis.call('LINDEX', key, -1)
end
local count = redis.call('LLEN', key)
if count >= limit then
  return {0, count, oldest}
end
redis.call('LPUSH', key, ARGV[1])
redis.call('EXPIRE', key, math.ceil(window))
return {1, count + 1, redis.call('LINDEX', key, -1)}
"""

# One registered script per cache client object (its sha is computed once).
_scripts: weakref.WeakKeyDictionary[Any, Script] = weakref.WeakKeyDictionary()


def redis_cache(cache: Any) -> RedisCache | None:
    """The Redis cache behind ``cache`` (DRF's throttles hold the default cache's proxy), or
    None for any other cache."""
    if isinstance(cache, ConnectionProxy):
        cache = cache._connections[cache._alias]  # type: ignore[attr-defined]
    return cache if isinstance(cache, RedisCache) else None


def _script(cache: RedisCache, client: Any) -> Script:
    holder = cache._cache
    script = _scripts.get(holder)
    if script is None:
        script = _scripts[holder] = Script(client, SCRIPT)
    return script


class OneTripThrottle(SimpleRateThrottle):
    """A DRF throttle whose budget on Redis costs one round trip (see the module docstring).
    It takes the place of ``SimpleRateThrottle.allow_request``: named after DRF's class among a
    throttle's bases, so that class's own ``allow_request`` (the scoped throttle sets its rate
    there) runs first and calls it."""

    # Set by DRF from the rate (annotations only: its type stubs leave them out).
    num_requests: int
    duration: int
    _log: tuple[int, float] | None = None

    def allow_request(self, request: Any, view: Any) -> bool:
        self._log = None
        cache = redis_cache(self.cache) if self.rate is not None else None
        breaker = getattr(cache, "breaker", None)
        if cache is None or (breaker is not None and not breaker.allow()):
            return super().allow_request(request, view)
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.now = self.timer()
        try:
            client = cache._cache.get_client(self.key, write=True)
            allowed, count, oldest = _script(cache, client)(
                keys=[cache.make_and_validate_key(self.key + LOG_SUFFIX)],
                args=[repr(self.now), self.duration, self.num_requests], client=client)
        except Exception as exc:  # noqa: BLE001 - any Redis failure: DRF's way, in memory
            if breaker is None:
                raise
            breaker.failed(exc)
            return super().allow_request(request, view)
        if breaker is not None:
            breaker.succeeded()
        self._log = (int(count), float(oldest) if oldest is not None else self.now)
        return bool(allowed)

    def wait(self) -> float | None:
        """DRF's wait, from what the script answered when the budget was on Redis."""
        if self._log is None:
            return super().wait()
        count, oldest = self._log
        remaining = self.duration - (self.now - oldest) if count else self.duration
        available = self.num_requests - count + 1
        if available <= 0:
            return None
        return remaining / float(available)
