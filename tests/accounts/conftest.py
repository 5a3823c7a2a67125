"""Fixtures for the accounts tests."""

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _fresh_throttle_budgets():
    """Registration is throttled per caller; every test starts with full budgets."""
    cache.clear()
    yield
    cache.clear()
