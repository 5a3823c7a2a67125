"""Django's password validators, plus one refusing blank and whitespace-only passwords."""

from __future__ import annotations

import pytest

from accounts.models import User
from tests.games.matchplay import assert_error

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("password", [
    " " * 8,
    " " * 40,
    "\t \n \u00a0 \u2003   ",
    "a" + " " * 12,
    "ab  cd          ",
])
def test_blank_and_whitespace_passwords_are_refused(api_client, password):
    response = api_client.post("/api/auth/register", {"username": "ada", "password": password},
                               format="json")
    body = assert_error(response, 400, "invalid_password")
    assert any("whitespace" in reason for reason in body["extra"]["reasons"])
    assert not User.objects.filter(username="ada").exists()


def test_an_empty_password_is_refused(api_client):
    response = api_client.post("/api/auth/register", {"username": "ada", "password": ""},
                               format="json")
    assert "password" in assert_error(response, 400, "validation_error")["extra"]["fields"]


def test_a_passphrase_with_spaces_is_fine(api_client):
    response = api_client.post("/api/auth/register",
                               {"username": "ada", "password": " a long enough passphrase "},
                               format="json")
    assert response.status_code == 201, response.json()
