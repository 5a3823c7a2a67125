"""A streaming read replica (``DATABASE_REPLICA_URL``) for the reads that tolerate a little lag.

Reads go to the primary unless a selector asks for the replica (``read_database``): the match
lists, leaderboards, rating histories, player pages and the logs of matches finished a while
ago. Everything that locks, checks a version, follows the caller's own write or feeds a
long-poll reads the primary, because it never asks. The replica is used only when all of these
hold, and the primary otherwise:

* a replica is configured, and the read is not inside a transaction on the primary (whose own
  writes the replica cannot have yet);
* the caller wrote nothing in the last ``REPLICA_PIN_SECONDS`` (read-your-writes: every
  successful unsafe request of a signed-in caller pins them to the primary for that long, in the
  shared cache, so a match just created is in its creator's list at once, whichever process
  answers);
* the replica answers and lags by at most ``REPLICA_MAX_LAG_SECONDS``: its state is asked at most
  every ``REPLICA_CHECK_SECONDS`` per process; a replica that fails to answer is left alone for
  ``REDIS_RETRY_SECONDS`` (``config.outages.Breaker``).

``boardpost_replica_reads_total{database, reason}`` counts each decision: ``replica`` /
``ok``, or ``default`` with why (``pinned``, ``transaction``, ``lagging``, ``down``).
Writes always go to the primary (``ReplicaRouter``), and only the primary is migrated.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connections
from django.utils.deprecation import MiddlewareMixin
from prometheus_client import Counter

from config.outages import Breaker

logger = logging.getLogger(__name__)

PRIMARY = "default"
REPLICA = "replica"

READS = Counter("boardpost_replica_reads", "Reads that could use the replica, by the database "
                "that served them and why.", ["database", "reason"])

# The replica's lag: zero when it has replayed all it received, else the time since the last
# transaction it replayed (a replica whose replay is paused or slow falls behind that way).
LAG_SQL = ("SELECT CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0 "
           "ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 0) END")


def configured() -> bool:
    return REPLICA in settings.DATABASES


class ReplicaRouter:
    """Writes and migrations to the primary; a read where the queryset says (``using``), or
    where the instance it follows came from; otherwise the primary."""

    def db_for_read(self, model: Any, **hints: Any) -> str | None:
        instance = hints.get("instance")
        return getattr(getattr(instance, "_state", None), "db", None)

    def db_for_write(self, model: Any, **hints: Any) -> str:
        return PRIMARY

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        return True

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        return db == PRIMARY


class ReplicaHealth:
    """Whether the replica may serve reads now, asked at most every ``REPLICA_CHECK_SECONDS``."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._checked_at = -1e9
        self._verdict = "ok"
        self.breaker = Breaker("The read replica", logger=logger,
                               fallback="reading from the primary")

    def verdict(self) -> str:
        """"ok", "lagging" or "down"."""
        now = time.monotonic()
        if now - self._checked_at < float(getattr(settings, "REPLICA_CHECK_SECONDS", 1.0)):
            return self._verdict
        with self._lock:
            if now - self._checked_at >= float(getattr(settings, "REPLICA_CHECK_SECONDS", 1.0)):
                self._verdict = self._ask()
                self._checked_at = time.monotonic()
            return self._verdict

    def _ask(self) -> str:
        if not self.breaker.allow():
            return "down"
        try:
            with connections[REPLICA].cursor() as cursor:
                cursor.execute(LAG_SQL)
                row = cursor.fetchone()
        except DatabaseError as exc:
            self.breaker.failed(exc)
            connections[REPLICA].close()
            return "down"
        finally:
            # The check's connection goes back to the pool (or closes) at once.
            connections[REPLICA].close_if_unusable_or_obsolete()
        self.breaker.succeeded()
        lag = float(row[0]) if row and row[0] is not None else 0.0
        return "lagging" if lag > float(settings.REPLICA_MAX_LAG_SECONDS) else "ok"

    def failed(self, exc: BaseException) -> None:
        """A read on the replica failed: read from the primary until it answers again."""
        with self._lock:
            self.breaker.failed(exc)
            self._verdict = "down"
            self._checked_at = time.monotonic()

    def forget(self) -> None:
        """Ask again at the next read (tests)."""
        self._checked_at = -1e9


HEALTH = ReplicaHealth()


def _pin_key(user_id: Any) -> str:
    return f"bp:replica-pin:{user_id}"


def pin(user_id: Any) -> None:
    """The caller just wrote: their reads use the primary for ``REPLICA_PIN_SECONDS``."""
    cache.set(_pin_key(user_id), 1, timeout=settings.REPLICA_PIN_SECONDS)


def pinned(user_id: Any) -> bool:
    return cache.get(_pin_key(user_id)) is not None


def in_transaction() -> bool:
    """Whether this thread is inside a transaction on the primary (one of its own: not the
    test runner's wrapping of a test case, as Django's ``durable`` check tells them apart)."""
    return any(not getattr(block, "_from_testcase", False)
               for block in connections[PRIMARY].atomic_blocks)


def read_database(caller: Any = None) -> str:
    """The database a lag-tolerant read uses (see the module docstring); ``caller`` is the
    user reading, whose own recent writes pin them to the primary."""
    if not configured():
        return PRIMARY
    reason = "ok"
    if in_transaction():
        reason = "transaction"
    elif getattr(caller, "is_authenticated", False) and pinned(caller.pk):
        reason = "pinned"
    else:
        reason = HEALTH.verdict()
    database = REPLICA if reason == "ok" else PRIMARY
    READS.labels(database, reason).inc()
    return database


class ReplicaPinMiddleware(MiddlewareMixin):
    """After a successful unsafe request of a signed-in caller, pin them to the primary. A
    response hook only, and nothing to do for a GET: the live-update handler runs it too."""

    UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})

    def process_response(self, request: Any, response: Any) -> Any:
        if (request.method in self.UNSAFE and response.status_code < 400 and configured()
                and getattr(getattr(request, "user", None), "is_authenticated", False)):
            pin(request.user.pk)
        return response
