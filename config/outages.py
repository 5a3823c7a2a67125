"""A circuit breaker for a backing service the request path may do without (Redis, for the
throttle cache and the long-poll wake-ups).

While the service answers, every call goes through. After a failure the breaker opens: callers
skip the service (and do their fallback) for ``retry_seconds``, then ONE caller tries it again
while the others keep skipping, so a service that is down costs one failed call, and one
timeout when it hangs, per interval and process instead of one per request. A success closes
the breaker.

The outage is logged, not each failure: a warning when it starts, a reminder at most every
``REMIND_SECONDS`` while it lasts, and a line when the service is back.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings

REMIND_SECONDS = 60.0


def reconnect_once() -> Any:
    """redis-py's retry policy for Redis on the request path: a connection that Redis closed
    (it restarted, say) is replaced and the command tried once more; a timeout is final, so a
    hanging Redis costs one timeout, not several."""
    from redis.backoff import NoBackoff
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.retry import Retry

    return Retry(NoBackoff(), 1, supported_errors=(RedisConnectionError,))


def redis_retry_seconds() -> float:
    """How long a process leaves Redis alone after it failed (REDIS_RETRY_SECONDS)."""
    return float(getattr(settings, "REDIS_RETRY_SECONDS", 5.0))


class Breaker:
    """See the module docstring. ``name`` says what failed and ``fallback`` what is done instead,
    in the log lines; ``retry_seconds`` is read at each failure, so settings may change it."""

    def __init__(self, name: str, *, logger: logging.Logger, fallback: str,
                 retry_seconds: Callable[[], float] = redis_retry_seconds,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.name = name
        self.fallback = fallback
        self.logger = logger
        self.retry_seconds = retry_seconds
        self.clock = clock
        self._lock = threading.Lock()
        self._down_since: float | None = None
        self._retry_at = 0.0
        self._reminded_at = 0.0
        self._up_since = -math.inf
        self.skipped = 0  # calls that skipped the service during the current outage
        self.outages = 0  # outages seen, for tests and diagnostics

    @property
    def is_open(self) -> bool:
        return self._down_since is not None

    def allow(self) -> bool:
        """Whether this call should use the service: always while it answers; during an outage
        only the first call once ``retry_seconds`` have passed since the last try."""
        if self._down_since is None:
            return True
        with self._lock:
            if self._down_since is None:
                return True
            now = self.clock()
            if now >= self._retry_at:
                self._retry_at = now + self.retry_seconds()  # the others skip while this tries
                return True
            self.skipped += 1
            return False

    def failed(self, exc: BaseException) -> None:
        with self._lock:
            now = self.clock()
            retry = self.retry_seconds()
            self._retry_at = now + retry
            if self._down_since is None:
                self._down_since = self._reminded_at = now
                self.skipped = 0
                self.outages += 1
                self.logger.warning("%s unavailable (%s: %s); %s, trying again every %g s",
                                    self.name, type(exc).__name__, exc, self.fallback, retry)
            elif now - self._reminded_at >= REMIND_SECONDS:
                self._reminded_at = now
                self.logger.warning("%s still unavailable after %.0f s (%s: %s); %s",
                                    self.name, now - self._down_since, type(exc).__name__, exc,
                                    self.fallback)

    def succeeded(self) -> None:
        if self._down_since is None:
            return
        with self._lock:
            if self._down_since is None:
                return
            now = self.clock()
            self.logger.info("%s is back after %.1f s (%d calls did without it)",
                             self.name, now - self._down_since, self.skipped)
            self._down_since = None
            self._up_since = now

    def steady_for(self, seconds: float) -> bool:
        """Whether the service has answered, with no outage, for at least ``seconds``."""
        return self._down_since is None and self.clock() - self._up_since >= seconds
