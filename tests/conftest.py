"""Fixtures shared by the tests: users and their API clients, and Nim, a fourth game; and the
markers of the tests that need real services.

``@pytest.mark.needs_postgresql`` and ``@pytest.mark.needs_redis`` (on a test, or in a module's
``pytestmark``) skip the test when DATABASE_URL does not name PostgreSQL, or when
CELERY_BROKER_URL does not name Redis; a marker may carry a reason of its own, said instead of
the usual one: ``@pytest.mark.needs_postgresql("real row-lock concurrency needs PostgreSQL")``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.urls import get_resolver
from rest_framework.test import APIClient

import games.catalog  # noqa: F401  (the built-in games are registered on import)
from games.kit.registry import GameSpec, register, unregister
from tests import flush, template_db
from tests.factories import UserFactory, token_for
from tests.fourth_game.nim import SPEC as NIM
from tests.xdist_run import run_files_removed, run_id_chosen

POSTGRESQL_REASON = "needs PostgreSQL (set DATABASE_URL=postgres://...)"
REDIS_REASON = "needs Redis (set CELERY_BROKER_URL=redis://...)"


def has_postgresql() -> bool:
    """Whether the tests run on PostgreSQL (else on SQLite)."""
    return connection.vendor == "postgresql"


def has_redis() -> bool:
    """Whether Celery's broker, and so the live events and presence records, are in Redis."""
    return settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://"))


def skip_unless(*, postgresql: bool = False, redis: bool = False) -> None:
    """Skip the test (from a fixture or a helper) unless the services asked for are there, with
    the markers' reasons."""
    if postgresql and not has_postgresql():
        pytest.skip(POSTGRESQL_REASON)
    if redis and not has_redis():
        pytest.skip(REDIS_REASON)


def pytest_configure(config):
    run_id_chosen(config)
    flush.install()


def pytest_unconfigure(config):
    run_files_removed(config)


def pytest_collection_modifyitems(items):
    available = {"needs_postgresql": (has_postgresql(), POSTGRESQL_REASON),
                 "needs_redis": (has_redis(), REDIS_REASON)}
    for item in items:
        for name, (present, reason) in available.items():
            marker = item.get_closest_marker(name)
            if marker is not None and not present:
                item.add_marker(pytest.mark.skip(reason=marker.args[0] if marker.args
                                                  else reason))


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings, django_db_createdb,
                                 django_db_keepdb, django_db_use_migrations, django_db_blocker):
    """pytest-django's settings of the test databases (``test_<name>_gw<n>`` under xdist); in
    an xdist run on PostgreSQL that makes its databases afresh, each one a copy of the run's
    migrated template (tests/template_db.py)."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if (run and worker and has_postgresql() and django_db_use_migrations
            and (django_db_createdb or not django_db_keepdb)):
        with django_db_blocker.unblock():
            template_db.copies_from_template(run, worker)


@pytest.fixture(autouse=True)
def _fresh_throttle_budgets():
    """Throttle counters live in the (process-wide) cache; every test starts with full budgets."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def make_user(db):
    return UserFactory


@pytest.fixture
def api_client():
    """An unauthenticated client."""
    return APIClient()


@pytest.fixture
def client_for(db):
    """``client_for(user)``: an API client that sends the user's token."""

    def make(user):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
        client.user = user
        return client

    return make


@pytest.fixture
def alice(make_user):
    return make_user(username="alice")


@pytest.fixture
def bob(make_user):
    return make_user(username="bob")


@pytest.fixture
def carol(make_user):
    return make_user(username="carol")


@pytest.fixture
def dave(make_user):
    return make_user(username="dave")


@pytest.fixture
def nibble(client_for, alice, bob):
    """An active Nibble match: alice holds seat 0 and moves first, bob holds seat 1."""
    from tests.games.matchplay import start_nibble_match

    return start_nibble_match(client_for(alice), client_for(bob))


@pytest.fixture
def nim() -> Iterator[GameSpec]:
    """Nim (``tests/fourth_game``), registered through the same call that registers the
    built-in games, and gone again after the test: a test that covers every registered game
    takes it to check a fourth game too.

    The server is loaded first (every URL and so every view module), so Nim joins a running
    server: whatever the server knows of Nim it must learn from the registry when it needs it,
    and nothing loaded while Nim is registered can carry it into other tests."""
    get_resolver().url_patterns  # noqa: B018  (imports every view module)
    spec = register(NIM)
    yield spec
    unregister(spec.slug)
