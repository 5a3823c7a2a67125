"""A database that cannot be reached answers 503 service_unavailable with Retry-After, never a
500, for DRF views, the async long-poll views and errors outside any view; the broken
connection is dropped so the next request connects again; the outage is logged once."""

from __future__ import annotations

import json
import logging
import sys

import pytest
from asgiref.sync import async_to_sync
from django.db import InterfaceError, OperationalError, connection
from django.test import AsyncClient, override_settings
from psycopg_pool import PoolTimeout

from config import database
from config.api import json_server_error
from config.exceptions import api_exception_handler, is_database_unavailable
from games.api.players import MeApi
from games.live import longpoll
from tests.factories import UserFactory, token_for
from tests.games.matchplay import assert_error

OUTAGES = [
    OperationalError("connection failed: connection refused"),
    OperationalError("server closed the connection unexpectedly"),
    OperationalError("FATAL: sorry, too many clients already"),
    OperationalError("terminating connection due to administrator command"),
    InterfaceError("connection already closed"),
]


def assert_unavailable(response, seconds: int = 3) -> None:
    if not hasattr(response, "json"):  # a response made outside the test client
        response.json = lambda: json.loads(response.content)
    body = assert_error(response, 503, "service_unavailable", retry_after=seconds)
    assert response["Retry-After"] == str(seconds)
    assert str(seconds) in body["message"]


@pytest.fixture(autouse=True)
def fresh_outage_log(monkeypatch):
    monkeypatch.setattr(database, "outage_log", database.OutageLog())
    monkeypatch.setattr("config.exceptions.outage_log", database.outage_log)


@pytest.mark.parametrize("exc", OUTAGES, ids=lambda exc: str(exc)[:30])
def test_the_drf_handler_answers_503_with_retry_after(exc):
    response = api_exception_handler(exc, {})
    assert response is not None
    assert response.status_code == 503
    assert response["Retry-After"] == "3"
    assert response.data == {"code": "service_unavailable",
                             "message": "The service is temporarily unavailable. Retry in 3 "
                                        "seconds.",
                             "extra": {"retry_after": 3}}


def test_other_database_errors_are_not_outages():
    from django.db import IntegrityError, ProgrammingError
    assert not is_database_unavailable(IntegrityError("duplicate key"))
    assert not is_database_unavailable(ProgrammingError("syntax error"))
    assert api_exception_handler(ValueError("x"), {}) is None


def wrapped(cause: Exception) -> Exception:
    """``cause`` as Django's PostgreSQL backend raises it (``wrap_database_errors``)."""
    with pytest.raises(Exception) as raised, connection.wrap_database_errors:
        raise cause
    return raised.value


@pytest.mark.needs_postgresql
def test_a_stray_answer_left_by_pgbouncer_is_an_outage_and_a_servers_internal_error_is_not():
    import psycopg

    # What a client connection reads after PgBouncer passed on a restarted server's error.
    stray = wrapped(psycopg.InternalError("received 2 results from command 'BEGIN'"))
    assert type(stray).__name__ == "InternalError" and is_database_unavailable(stray)
    assert api_exception_handler(stray, {}).status_code == 503
    server = wrapped(psycopg.errors.InternalError_("could not read block 0"))
    assert not is_database_unavailable(server)


@pytest.mark.needs_postgresql
def test_no_free_pooled_connection_is_an_outage():
    # psycopg_pool's PoolTimeout (no connection free within DB_POOL_TIMEOUT) reaches the views
    # as Django's OperationalError, like every psycopg error (the PostgreSQL backend maps them).
    with pytest.raises(OperationalError) as raised, connection.wrap_database_errors:
        raise PoolTimeout("couldn't get a connection after 10.00 sec")
    assert is_database_unavailable(raised.value)


@pytest.mark.django_db
@override_settings(DB_RETRY_AFTER_SECONDS=5)
def test_a_drf_view_answers_503(client_for, monkeypatch):
    client = client_for(UserFactory())

    def fail(self, request):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(MeApi, "get", fail)
    assert_unavailable(client.get("/api/me"), seconds=5)


@pytest.mark.django_db
def test_a_long_poll_view_answers_503(client_for, monkeypatch):
    client = client_for(UserFactory())

    async def fail(request):
        raise OperationalError("connection failed: connection refused")

    monkeypatch.setattr(longpoll, "_authenticate", fail)
    assert_unavailable(client.get("/api/me/events"))


@pytest.mark.django_db
def test_a_long_poll_view_answers_503_under_asgi(monkeypatch):
    key = token_for(UserFactory())

    async def fail(request):
        raise OperationalError("FATAL: sorry, too many clients already")

    monkeypatch.setattr(longpoll, "_authenticate", fail)
    response = async_to_sync(AsyncClient().get)(
        "/api/me/events", headers={"Authorization": f"Token {key}"})
    assert_unavailable(response)


def test_the_500_handler_answers_503_for_an_outage_outside_any_view(rf):
    try:
        raise OperationalError("server closed the connection unexpectedly")
    except OperationalError:
        response = json_server_error(rf.get("/"))
    assert_unavailable(response)
    assert sys.exc_info()[1] is None
    assert json_server_error(rf.get("/")).status_code == 500


@pytest.mark.needs_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_connection_the_server_closed_fails_one_request_and_the_next_reconnects(client_for):
    from django.db import connections

    client = client_for(UserFactory())
    assert client.get("/api/me").status_code == 200
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    # Another connection ends this one's backend, as a server restart would.
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    finally:
        other.close()
    assert_unavailable(client.get("/api/me"))
    response = client.get("/api/me")
    assert response.status_code == 200, response.content
    assert connection.connection.info.backend_pid != pid


def test_an_outage_is_logged_once_not_per_request(caplog):
    log = database.OutageLog(quiet_seconds=30)
    with caplog.at_level(logging.ERROR, logger="config.database"):
        logged = [log.record(OperationalError("refused")) for _ in range(50)]
    assert logged == [True] + [False] * 49
    assert len(caplog.records) == 1
    assert "database is unavailable" in caplog.records[0].getMessage()


def test_a_new_outage_after_a_quiet_interval_is_logged_again(caplog):
    log = database.OutageLog(quiet_seconds=0)
    with caplog.at_level(logging.ERROR, logger="config.database"):
        assert log.record(OperationalError("refused"))
        assert log.record(OperationalError("refused"))
    assert len(caplog.records) == 2
