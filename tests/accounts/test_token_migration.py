"""Tokens of the old one-per-user table (DRF's authtoken) move to the named-token table as
digests, and keep authenticating."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from rest_framework.test import APIClient

from accounts.models import ApiToken, User, token_digest

OLD_KEY = "0123456789abcdef0123456789abcdef01234567"


@pytest.mark.django_db(transaction=True)
def test_old_tokens_move_over_and_keep_working():
    user = User.objects.create_user(username="old-timer", password="x-long-enough-pass")
    executor = MigrationExecutor(connection)
    executor.migrate([("accounts", "0005_api_tokens")])
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, "
                       "created timestamp with time zone, user_id bigint)"
                       if connection.vendor == "postgresql" else
                       "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, "
                       "created datetime, user_id bigint)")
        cursor.execute("INSERT INTO authtoken_token VALUES (%s, CURRENT_TIMESTAMP, %s)",
                       [OLD_KEY, user.pk])
    try:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate([("accounts", "0006_tokens_from_authtoken")])
        token = ApiToken.objects.get(user=user)
        assert token.digest == token_digest(OLD_KEY) and token.prefix == OLD_KEY[:8]
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM authtoken_token")
            assert cursor.fetchone()[0] == 0  # no plain key left at rest
        # The API runs on the latest schema (later migrations add columns its models read).
        MigrationExecutor(connection).migrate(
            MigrationExecutor(connection).loader.graph.leaf_nodes())
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {OLD_KEY}")
        assert client.get("/api/me").json()["username"] == "old-timer"
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE IF EXISTS authtoken_token")
        MigrationExecutor(connection).migrate(
            MigrationExecutor(connection).loader.graph.leaf_nodes())
