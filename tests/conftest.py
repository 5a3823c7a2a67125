"""Fixtures shared by the database-backed tests."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import UserFactory, token_for


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
