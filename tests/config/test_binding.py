"""PostgreSQL takes query parameters apart from the SQL (server-side binding), unless
DB_SERVER_SIDE_BINDING says otherwise; statements stay unnamed, as a pooler in transaction mode
needs."""

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


@pytest.mark.needs_postgresql("the connection's cursor class is PostgreSQL's")
@pytest.mark.django_db
def test_the_connection_binds_on_the_server_with_unnamed_statements():
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::int + %s", [1, 2])
        assert cursor.fetchone() == (3,)
        raw = cursor.cursor
    assert type(raw).__name__ in {"ServerBindingCursor", "Cursor"}
    assert connection.connection.prepare_threshold is None
