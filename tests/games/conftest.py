"""Fixtures for the match server tests: players, their clients, and matches in a known state."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tests.games.matchplay import NibbleMatch, start_nibble_match


@pytest.fixture(autouse=True)
def _fresh_throttle_budgets():
    """Throttle counters live in the (process-wide) cache; every test starts with full budgets."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def carol(make_user):
    return make_user(username="carol")


@pytest.fixture
def dave(make_user):
    return make_user(username="dave")


@pytest.fixture
def nibble(client_for, alice, bob) -> NibbleMatch:
    """An active Nibble match: alice holds seat 0 and moves first, bob holds seat 1."""
    return start_nibble_match(client_for(alice), client_for(bob))
