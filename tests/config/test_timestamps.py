"""config.postgresql reads ``timestamp with time zone`` through psycopg's compiled loader
(``UtcTimestamptzLoader``): the same aware datetimes in UTC that Django's own loader gives, on
a session in UTC and on one that is not, for plain and for server-side (named) cursors."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection, transaction
from django.db.backends.postgresql.psycopg_any import BaseTzLoader
from psycopg import DataError
from psycopg.pq import Format

from config.postgresql.base import UtcTimestamptzLoader
from games.models import Match
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.needs_postgresql]

VALUES = ["2026-12-07 18:30:01.123456+00", "1999-12-31 23:59:59+00", "2026-03-29 01:30:00+02",
          "0001-01-01 00:00:00+00", "2100-06-30 12:00:00.000001-11:30"]


class DjangoUtc(BaseTzLoader):
    timezone = datetime.UTC


def _loaded(loader_class, value):
    """The value as the loader reads the server's text of it, or the error it raises (a date
    before year 1 in the session's time zone: both refuse it)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::timestamptz::text", [value])
        (text,) = cursor.fetchone()
        loader = loader_class(connection.connection.adapters.types["timestamptz"].oid,
                              cursor.cursor)
        try:
            return loader.load(text.encode())
        except DataError as error:
            return type(error)


def test_the_connection_reads_timestamps_with_the_compiled_loader():
    connection.ensure_connection()
    oid = connection.connection.adapters.types["timestamptz"].oid
    assert connection.connection.adapters.get_loader(oid, Format.TEXT) is UtcTimestamptzLoader


@pytest.mark.parametrize("zone", ["UTC", "Asia/Kolkata", "America/St_Johns"])
def test_values_are_read_as_djangos_loader_reads_them(zone):
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SELECT set_config('TimeZone', %s, true)", [zone])
        for value in VALUES:
            ours, djangos = _loaded(UtcTimestamptzLoader, value), _loaded(DjangoUtc, value)
            assert ours == djangos, (zone, value)
            assert ours is DataError or ours.tzinfo is datetime.UTC


def test_model_fields_and_server_side_cursors_read_utc_datetimes():
    match = Match.objects.create(game="nibble", num_players=2, created_by=UserFactory(),
                                 seed="s")
    stored = Match.objects.get(pk=match.pk)
    assert stored.created_at == match.created_at and stored.created_at.tzinfo is datetime.UTC
    with transaction.atomic():  # a named cursor lives in a transaction
        (streamed,) = [row for row in Match.objects.filter(pk=match.pk).iterator(chunk_size=1)]
    assert streamed.created_at == match.created_at and streamed.created_at.tzinfo is datetime.UTC
