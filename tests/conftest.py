"""Fixtures shared by the tests: users and their API clients, and Nim, a fourth game."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.urls import get_resolver
from rest_framework.test import APIClient

import games.catalog  # noqa: F401  (the built-in games are registered on import)
from games.kit.registry import GameSpec, register, unregister
from tests.factories import UserFactory, token_for
from tests.fourth_game.nim import SPEC as NIM


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
