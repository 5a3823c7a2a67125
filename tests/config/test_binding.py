"""PostgreSQL takes query parameters apart from the SQL (server-side binding), unless
DB_SERVER_SIDE_BINDING says otherwise; a statement run DB_PREPARE_THRESHOLD times on a
connection is prepared there (behind a pooler in transaction mode none is:
tests/config/test_pooler_settings.py)."""

from __future__ import annotations

import environ
import pytest
from django.db import connection

from config import database

URL = "postgres://postgres@127.0.0.1:5432/any"


@pytest.fixture(autouse=True)
def no_database_url(monkeypatch):
    """The settings read DATABASE_URL first; these tests give the URL themselves."""
    monkeypatch.delenv("DATABASE_URL", raising=False)


@pytest.mark.parametrize("pool", [True, False])
def test_parameters_are_bound_by_the_server_by_default(pool, monkeypatch):
    monkeypatch.delenv("DB_SERVER_SIDE_BINDING", raising=False)
    settings = database.database_settings(environ.Env(), URL, pool=pool)
    assert settings["OPTIONS"]["server_side_binding"] is True


def test_client_side_binding_is_a_switch_away(monkeypatch):
    monkeypatch.setenv("DB_SERVER_SIDE_BINDING", "false")
    settings = database.database_settings(environ.Env(), URL, pool=True)
    assert settings["OPTIONS"]["server_side_binding"] is False


def test_sqlite_takes_no_binding_option():
    settings = database.database_settings(environ.Env(), "sqlite:///var/x.sqlite3", pool=True)
    assert "server_side_binding" not in settings["OPTIONS"]


@pytest.mark.parametrize(("value", "threshold"), [
    (None, 5), ("0", 0), ("12", 12), ("none", None), ("off", None), ("", None)])
def test_statements_are_prepared_after_a_threshold(value, threshold, monkeypatch):
    if value is None:
        monkeypatch.delenv("DB_PREPARE_THRESHOLD", raising=False)
    else:
        monkeypatch.setenv("DB_PREPARE_THRESHOLD", value)
    settings = database.database_settings(environ.Env(), URL, pool=True)
    assert settings["OPTIONS"]["prepare_threshold"] == threshold


@pytest.mark.parametrize("value", ["-1", "often"])
def test_a_threshold_that_is_no_count_is_refused(value, monkeypatch):
    monkeypatch.setenv("DB_PREPARE_THRESHOLD", value)
    with pytest.raises(ValueError, match="DB_PREPARE_THRESHOLD"):
        database.database_settings(environ.Env(), URL, pool=True)


def test_a_threshold_in_the_url_wins(monkeypatch):
    monkeypatch.setenv("DB_PREPARE_THRESHOLD", "5")
    settings = database.database_settings(environ.Env(), f"{URL}?prepare_threshold=1",
                                          pool=True)
    assert settings["OPTIONS"]["prepare_threshold"] == 1


@pytest.mark.needs_postgresql("the connection's cursor class is PostgreSQL's")
@pytest.mark.django_db
def test_the_connection_binds_on_the_server_and_prepares_what_it_runs_often():
    query = "SELECT %s::int + %s AS boardpost_binding_check"
    with connection.cursor() as cursor:
        for _ in range(connection.connection.prepare_threshold + 1):
            cursor.execute(query, [1, 2])
            assert cursor.fetchone() == (3,)
        raw = cursor.cursor
        cursor.execute("SELECT count(*) FROM pg_prepared_statements "
                       "WHERE statement LIKE %s", ["%boardpost_binding_check%"])
        (prepared,) = cursor.fetchone()
    assert type(raw).__name__ in {"ServerBindingCursor", "Cursor"}
    assert prepared == 1
