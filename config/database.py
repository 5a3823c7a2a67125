"""The database settings, and what the server does when the database cannot be reached.

Connections are bounded per process. On PostgreSQL they come from psycopg 3's connection pool
(Django's ``OPTIONS["pool"]``): a request (or a long-poll read, or a Celery task) takes one
from the pool and gives it back when it ends, so a process never holds more than
``DB_POOL_MAX_SIZE`` connections however many threads it runs. This matters under ASGI, where
every synchronous request runs in a thread of its own: persistent connections
(``CONN_MAX_AGE > 0``) would leave one idle connection behind per thread. Without the pool
(``DB_POOL=false``) connections are closed at the end of each request unless
``DJANGO_CONN_MAX_AGE`` says otherwise, which is only safe under WSGI.

Behind PgBouncer in transaction mode (``DATABASE_POOLER=pgbouncer``) a server connection belongs
to a process for one transaction only, so nothing may outlive a transaction on it: server-side
cursors are turned off (``QuerySet.iterator()`` then fetches in chunks on the client) and so are
psycopg's server-side prepared statements, which a process connected straight to PostgreSQL
uses for any statement it ran ``DB_PREPARE_THRESHOLD`` times on a connection (Debian's
PgBouncer, 1.18, cannot track them). ``config.prepared`` compiles queries on the client only,
so it is unaffected. The process's own pool still applies: it now holds cheap connections to
PgBouncer.

A request that a database outage interrupts (connection refused, the server closing the
connection, too many clients, no pooled connection free within ``DB_POOL_TIMEOUT``) is
answered 503 ``service_unavailable`` with ``Retry-After`` (``config.exceptions``); the broken
connection is dropped and the next request connects again, so the service recovers by itself.
"""

from __future__ import annotations

import logging
import select
import threading
import time
import weakref
from typing import Any

from django.core import checks

logger = logging.getLogger("config.database")

POSTGRESQL = "django.db.backends.postgresql"
# Django's PostgreSQL backend with psycopg's compiled timestamp loader and a cheaper check of
# pooled connections (config.postgresql): every PostgreSQL entry uses it.
PROJECT_POSTGRESQL = "config.postgresql"
SQLITE = "django.db.backends.sqlite3"
# DATABASE_POOLER: what stands between the processes and PostgreSQL.
POOLERS = ("", "pgbouncer")


class PoolerError(ValueError):
    """DATABASE_POOLER names no pooler this module knows."""


def pooler_name(env: Any) -> str:
    """DATABASE_POOLER, checked: "" (the processes connect to PostgreSQL) or "pgbouncer"."""
    name = str(env("DATABASE_POOLER", default="")).strip().lower()
    if name in ("none", "off"):
        name = ""
    if name not in POOLERS:
        raise PoolerError(f"DATABASE_POOLER={name!r}: expected one of 'pgbouncer' or ''.")
    return name


def database_settings(env: Any, default_url: str, *, pool: bool, url_var: str = "DATABASE_URL",
                      alias: str = "default") -> dict[str, Any]:
    """An entry of DATABASES (``alias``), from ``url_var`` (DATABASE_URL) and the DB_* and
    DATABASE_POOLER variables; the pool only on PostgreSQL and only when ``pool`` is true."""
    config: dict[str, Any] = env.db(url_var, default=default_url)
    config["ATOMIC_REQUESTS"] = False
    options = config.setdefault("OPTIONS", {})
    if config["ENGINE"] == SQLITE:
        # SQLite serialises writers; wait for the lock instead of failing at once.
        options["timeout"] = 20
        config["CONN_MAX_AGE"] = 0
        # Take the write lock when a transaction begins, so row-locking services serialise.
        options["transaction_mode"] = "IMMEDIATE"
        return config
    if config["ENGINE"] == POSTGRESQL:
        config["ENGINE"] = PROJECT_POSTGRESQL
        # A connection attempt to an unreachable server gives up after this many seconds.
        options.setdefault("connect_timeout", env.int("DB_CONNECT_TIMEOUT", default=5))
        # Parameters travel apart from the SQL (the extended protocol): psycopg's client-side
        # binding quoted each value into the SQL text in Python, a quarter of a move's CPU.
        options.setdefault("server_side_binding", env.bool("DB_SERVER_SIDE_BINDING",
                                                           default=True))
        # A statement run this many times on a connection is prepared there (named, parsed
        # and planned once): the match lock's query took PostgreSQL longer to parse and plan
        # than to run. Behind a pooler in transaction mode statements stay unnamed.
        options.setdefault("prepare_threshold", prepare_threshold(env))
        if pooler_name(env) == "pgbouncer":
            transaction_pooling(config)
    if config["ENGINE"] == PROJECT_POSTGRESQL and pool:
        # Pooled connections go back to the pool when a request ends (the pool requires
        # CONN_MAX_AGE = 0), and the pool checks one before handing it out, so a connection
        # the server closed (a restart) is replaced instead of failing a request. The check
        # is ours (``pooled_connection_check``, run by the ``config.postgresql`` backend):
        # Django's (CONN_HEALTH_CHECKS) would cost a round trip to the server per request.
        config["CONN_MAX_AGE"] = 0
        config["CONN_HEALTH_CHECKS"] = False
        options["pool"] = {
            "min_size": env.int("DB_POOL_MIN_SIZE", default=2),
            "max_size": env.int("DB_POOL_MAX_SIZE", default=10),
            # Seconds a request waits for a free connection before it is answered 503.
            "timeout": env.float("DB_POOL_TIMEOUT", default=10.0),
            # After an outage, a pool slot gives up reconnecting (with growing delays) after
            # this long and is opened again on demand, so recovery never waits long.
            "reconnect_timeout": env.float("DB_POOL_RECONNECT_TIMEOUT", default=5.0),
            # Idle connections above min_size are closed after this many seconds.
            "max_idle": env.float("DB_POOL_MAX_IDLE", default=60.0),
            "name": alias,
        }
    else:
        config["CONN_MAX_AGE"] = env.int("DJANGO_CONN_MAX_AGE", default=0)
        config["CONN_HEALTH_CHECKS"] = True
    return config


def prepare_threshold(env: Any) -> int | None:
    """DB_PREPARE_THRESHOLD: after how many runs on a connection psycopg prepares a statement
    on the server (5 unless told; 0 prepares at once; "none" or "off": never)."""
    value = str(env("DB_PREPARE_THRESHOLD", default="5")).strip().lower()
    if value in ("", "none", "off"):
        return None
    if not value.isdigit():
        raise ValueError(f"DB_PREPARE_THRESHOLD={value!r}: expected 0 or more, or 'none'.")
    return int(value)


def transaction_pooling(config: dict[str, Any]) -> None:
    """What a PostgreSQL entry of DATABASES needs behind a pooler in transaction mode: no
    server-side cursors and no server-side prepared statements, both of which live on a server
    connection past the transaction that made them."""
    config["DISABLE_SERVER_SIDE_CURSORS"] = True
    config.setdefault("OPTIONS", {})["prepare_threshold"] = None


def databases(env: Any, default_url: str, *, pool: bool) -> dict[str, Any]:
    """DATABASES: the primary (``default``, DATABASE_URL) and, when DATABASE_REPLICA_URL is
    set, a streaming replica (``replica``, config.replica) with the same pool and pooler
    settings; in the test suite the replica alias reads the test database (Django's MIRROR)
    unless a test starts a real replica."""
    entries = {"default": database_settings(env, default_url, pool=pool)}
    if env("DATABASE_REPLICA_URL", default=""):
        replica = database_settings(env, default_url, pool=pool, url_var="DATABASE_REPLICA_URL",
                                    alias="replica")
        # A replica that does not answer is given up on quickly: reads fall back to the primary.
        replica.setdefault("OPTIONS", {})["connect_timeout"] = env.int(
            "DB_REPLICA_CONNECT_TIMEOUT", default=1)
        replica["TEST"] = {"MIRROR": "default"}
        entries["replica"] = replica
    return entries


# A pooled connection idle for longer than this is checked with a round trip to the server.
POOL_CHECK_IDLE_SECONDS = 30.0
_last_checkout: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()


def pooled_connection_check(conn: Any) -> None:
    """The check of a pooled connection about to be used: raises when it is broken.

    A round trip (an empty query) only when there is reason to doubt the connection: it was
    idle for more than ``POOL_CHECK_IDLE_SECONDS``, or something arrived on its socket while it
    sat in the pool (a server that shuts down or ends the session says so, or closes the
    socket: either makes the socket readable, and an idle connection expects nothing). A
    connection in use a moment ago and with nothing to read costs one ``select`` instead."""
    from psycopg import pq

    now = time.monotonic()
    last = _last_checkout.get(conn)
    _last_checkout[conn] = now
    pgconn = conn.pgconn
    if (last is not None and now - last < POOL_CHECK_IDLE_SECONDS
            and pgconn.status == pq.ConnStatus.OK
            and pgconn.transaction_status == pq.TransactionStatus.IDLE
            and not _readable(pgconn.socket)):
        return
    conn.execute("")  # the connection is in autocommit mode while it waits in the pool


def _readable(fd: int) -> bool:
    """Whether something waits to be read on ``fd``, without waiting (poll, not select: a
    server with thousands of sockets has descriptors above select's limit)."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(0))


def pool_options(alias: str = "default") -> dict[str, Any] | None:
    """The pool options of a database alias, or None when it has no pool."""
    from django.conf import settings

    pool = settings.DATABASES[alias].get("OPTIONS", {}).get("pool")
    return pool if isinstance(pool, dict) else ({} if pool else None)


@checks.register("database")
def check_pool_fits_long_poll(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """The long-poll reads' threads each keep a pooled connection between reads: the pool must
    leave room for ordinary requests."""
    from django.conf import settings

    pool = pool_options()
    threads = getattr(settings, "LONG_POLL_DB_THREADS", 0)
    if pool is None or pool.get("max_size") is None:
        return []
    if pool["max_size"] <= threads:
        return [checks.Warning(
            f"DB_POOL_MAX_SIZE ({pool['max_size']}) is not larger than LONG_POLL_DB_THREADS "
            f"({threads}): long-poll reads can take every pooled connection and leave ordinary "
            "requests waiting for one.", id="config.W001")]
    return []


class OutageLog:
    """Logs a database outage once, not once per failing request: the first error after
    ``quiet_seconds`` without one is logged with its traceback; the errors that follow it
    within the same outage are only counted, and the count is logged with the next report."""

    def __init__(self, quiet_seconds: float = 30.0) -> None:
        self.quiet_seconds = quiet_seconds
        self._lock = threading.Lock()
        self._last_error: float | None = None
        self._unlogged = 0

    def record(self, exc: BaseException) -> bool:
        """Note an error; whether it was logged."""
        now = time.monotonic()
        with self._lock:
            new_outage = self._last_error is None or now - self._last_error > self.quiet_seconds
            self._last_error = now
            if not new_outage:
                self._unlogged += 1
                return False
            unlogged, self._unlogged = self._unlogged, 0
        logger.error("The database is unavailable; answering 503 until it is back "
                     "(%d more failed requests in the previous outage): %s", unlogged,
                     str(exc).strip() or type(exc).__name__, exc_info=exc)
        return True


outage_log = OutageLog()
