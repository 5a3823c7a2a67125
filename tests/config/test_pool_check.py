"""The check of pooled connections (``config.database.pooled_connection_check``): no round trip
for a connection in use a moment ago, a round trip for one idle a while, and a connection the
server ended is found broken before a request uses it."""

from __future__ import annotations

import time

import psycopg
import pytest
from django.db import connection

from config import database

pytestmark = pytest.mark.needs_postgresql("a PostgreSQL connection's socket is checked")


@pytest.fixture
def raw_connection(db):
    params = connection.get_connection_params()
    params.pop("pool", None)
    with psycopg.connect(**params, autocommit=True) as conn:
        yield conn


def counted(conn: psycopg.Connection) -> list[str]:
    """The queries the check sends on ``conn``."""
    sent: list[str] = []
    execute = conn.execute

    def spy(query, *args, **kwargs):
        sent.append(query)
        return execute(query, *args, **kwargs)

    conn.execute = spy  # type: ignore[method-assign]
    return sent


def test_a_connection_used_a_moment_ago_is_not_asked(raw_connection):
    sent = counted(raw_connection)
    database.pooled_connection_check(raw_connection)  # first sight: asked
    database.pooled_connection_check(raw_connection)
    database.pooled_connection_check(raw_connection)
    assert sent == [""]


def test_a_connection_idle_for_a_while_is_asked(raw_connection, monkeypatch):
    sent = counted(raw_connection)
    database.pooled_connection_check(raw_connection)
    monkeypatch.setattr(database, "POOL_CHECK_IDLE_SECONDS", 0.0)
    database.pooled_connection_check(raw_connection)
    assert sent == ["", ""]


def test_a_connection_the_server_ended_is_found_broken(raw_connection, django_db_blocker):
    database.pooled_connection_check(raw_connection)
    pid = raw_connection.info.backend_pid
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    deadline = time.monotonic() + 5
    while not database._readable(raw_connection.pgconn.socket) and time.monotonic() < deadline:
        time.sleep(0.01)
    with pytest.raises(psycopg.OperationalError):
        database.pooled_connection_check(raw_connection)


def test_the_projects_backend_checks_pooled_connections_itself():
    import environ

    env = environ.Env()
    url = "postgres://postgres@127.0.0.1:5432/any"
    with_pool = database.database_settings(env, url, pool=True)
    without = database.database_settings(env, url, pool=False)
    assert with_pool["ENGINE"] == "config.postgresql"
    assert with_pool["CONN_HEALTH_CHECKS"] is False
    # Without a pool, the same backend (for its timestamp loader); Django checks connections.
    assert without["ENGINE"] == "config.postgresql"
    assert without["CONN_HEALTH_CHECKS"] is True
