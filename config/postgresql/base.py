"""Django's PostgreSQL backend, checking pooled connections without a round trip each time, and
reading timestamps with psycopg's compiled loader.

With ``CONN_HEALTH_CHECKS`` Django has psycopg's pool test every connection it hands out with
an empty query: one more round trip to the server on every request. This backend (chosen by
``config.database`` when the pool is on) runs ``config.database.pooled_connection_check``
instead, which asks the server only when a connection has been idle for a while or something
arrived on its socket while it sat in the pool. A connection that fails the check is closed and
given back, so the pool replaces it, and the next one is tried.

Django reads every ``timestamp with time zone`` through a loader of its own, a subclass of
psycopg's pure-Python one that sets the answer's time zone to the connection's (UTC): about
10 µs of CPU a value, and the match lock alone reads a dozen. psycopg's compiled loader cannot
be subclassed, so ``UtcTimestamptzLoader`` (used where Django's time zone is UTC) holds one and
answers with its ``load``: the same datetimes, in UTC, as Django's.
"""

from __future__ import annotations

import datetime
from typing import Any

import psycopg
from django.db.backends.postgresql import base
from psycopg.adapt import Loader
from psycopg.pq import Format

from config.database import pooled_connection_check


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        pool = self.pool
        if pool is None:
            return super().get_new_connection(conn_params)
        # A restart of the server breaks every pooled connection at once: try each in turn.
        for _ in range(pool.max_size):
            connection = super().get_new_connection(conn_params)
            try:
                pooled_connection_check(connection)
            except psycopg.Error:
                connection.close()
                pool.putconn(connection)  # closed: the pool drops it and opens a new one
                continue
            return connection
        return super().get_new_connection(conn_params)

    def get_connection_params(self) -> dict[str, Any]:
        params = super().get_connection_params()
        if self.timezone is datetime.UTC and "context" in params:
            params["context"].register_loader("timestamptz", UtcTimestamptzLoader)
        return params


# psycopg's own loader of timestamps with time zone: the compiled one where psycopg has its
# binary build, which answers in the session's time zone.
_NATIVE_TIMESTAMPTZ = psycopg.adapters.get_loader(psycopg.adapters.types["timestamptz"].oid,
                                                  Format.TEXT)


def _in_utc(load: Any) -> Any:
    def load_in_utc(data: Any) -> datetime.datetime:
        return load(data).replace(tzinfo=datetime.UTC)
    return load_in_utc


class UtcTimestamptzLoader(Loader):
    """A ``timestamp with time zone`` as an aware datetime in UTC, as Django's loader gives it
    (its ``timezone`` is what Django's ``create_cursor`` compares with the connection's), read
    by psycopg's compiled loader. On a session in UTC (Django sets it so) that loader's answer
    is already in UTC and is handed on as it is; on any other session its time zone is set to
    UTC afterwards, as Django's loader does."""

    timezone = datetime.UTC

    def __init__(self, oid: int, context: Any = None) -> None:
        super().__init__(oid, context)
        native = _NATIVE_TIMESTAMPTZ(oid, context)
        connection = getattr(context, "connection", None)
        zone = connection.info.parameter_status("TimeZone") if connection is not None else None
        # The instance's own ``load`` stands in front of the class's: psycopg calls it.
        self.load = native.load if zone == "UTC" else _in_utc(native.load)  # type: ignore[method-assign]

    def load(self, data: Any) -> datetime.datetime:
        raise NotImplementedError  # replaced in __init__
