"""Django's PostgreSQL backend, checking pooled connections without a round trip each time.

With ``CONN_HEALTH_CHECKS`` Django has psycopg's pool test every connection it hands out with
an empty query: one more round trip to the server on every request. This backend (chosen by
``config.database`` when the pool is on) runs ``config.database.pooled_connection_check``
instead, which asks the server only when a connection has been idle for a while or something
arrived on its socket while it sat in the pool. A connection that fails the check is closed and
given back, so the pool replaces it, and the next one is tried.
"""

from __future__ import annotations

from typing import Any

import psycopg
from django.db.backends.postgresql import base

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
