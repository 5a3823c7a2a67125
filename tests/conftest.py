"""Fixtures shared by the database-backed tests."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.factories import UserFactory, token_for


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
