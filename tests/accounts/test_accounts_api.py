"""Accounts over HTTP: registration and tokens."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.models import ApiToken, User, token_digest
from tests.factories import BotFactory
from tests.games.matchplay import assert_error

pytestmark = pytest.mark.django_db

REGISTER = "/api/auth/register"
TOKEN = "/api/auth/token"
GOOD_PASSWORD = "a-long-secret-42"


def register(client, **body):
    return client.post(REGISTER, body, format="json")


# --------------------------------------------------------------------------- register


def test_register_answers_a_working_token(api_client):
    response = register(api_client, username="ada", password=GOOD_PASSWORD,
                        email="ada@example.org")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert set(body) == {"token", "username"}
    assert body["username"] == "ada"
    user = User.objects.get(username="ada")
    assert user.email == "ada@example.org" and not user.is_bot
    assert user.check_password(GOOD_PASSWORD)
    assert ApiToken.objects.get(user=user).digest == token_digest(body["token"])

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    me = client.get("/api/me")
    assert me.status_code == 200
    assert me.json()["username"] == "ada"


@pytest.mark.parametrize("password, why", [
    ("short1!", "too short"),
    ("password123", "too common"),
    ("4829301746583", "entirely numeric"),
    ("grace-hopper-x", "too similar to the username"),
])
def test_register_refuses_weak_passwords(api_client, password, why):
    response = register(api_client, username="grace-hopper", password=password)
    body = assert_error(response, 400, "invalid_password")
    assert isinstance(body["extra"]["reasons"], list) and body["extra"]["reasons"], why
    assert not User.objects.filter(username="grace-hopper").exists()


@pytest.mark.parametrize("taken", ["ada", "ADA", "Ada"])
def test_register_refuses_a_taken_username_whatever_its_case(api_client, make_user, taken):
    make_user(username="ada")
    response = register(api_client, username=taken, password=GOOD_PASSWORD)
    assert_error(response, 409, "username_taken")
    assert User.objects.filter(username__iexact="ada").count() == 1


def test_register_refuses_unknown_fields(api_client):
    response = register(api_client, username="ada", password=GOOD_PASSWORD, is_staff=True)
    body = assert_error(response, 400, "validation_error")
    assert body["extra"]["fields"] == {"is_staff": ["Unknown field."]}
    assert not User.objects.filter(username="ada").exists()


@pytest.mark.parametrize("body, field", [
    ({"password": GOOD_PASSWORD}, "username"),
    ({"username": "ada"}, "password"),
    ({"username": "a", "password": GOOD_PASSWORD}, "username"),
    ({"username": "no spaces", "password": GOOD_PASSWORD}, "username"),
    ({"username": "x" * 31, "password": GOOD_PASSWORD}, "username"),
    ({"username": "ada", "password": GOOD_PASSWORD, "email": "not-an-email"}, "email"),
    ({"username": "ada", "password": ["a", "list"]}, "password"),
    ({"username": "ada", "password": "nul\x00in-password-42"}, "password"),
])
def test_register_validates_each_field(api_client, body, field):
    response = api_client.post(REGISTER, body, format="json")
    errors = assert_error(response, 400, "validation_error")["extra"]["fields"]
    assert field in errors, errors


@pytest.mark.parametrize("raw", [b"[]", b'"ada"', b"null", b"42"])
def test_register_refuses_a_body_that_is_not_an_object(api_client, raw):
    response = api_client.post(REGISTER, raw, content_type="application/json")
    assert_error(response, 400, "validation_error")


def test_register_ignores_a_token_header(api_client, make_user):
    """Registration needs no credentials, so a stale token cannot make it fail."""
    api_client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = register(api_client, username="ada", password=GOOD_PASSWORD)
    assert response.status_code == 201, response.json()


# --------------------------------------------------------------------------- tokens


def test_token_obtain_answers_a_new_token_each_time(api_client, make_user):
    user = make_user(username="ada")
    response = api_client.post(TOKEN, {"username": "ada", "password": "correct-horse-battery"},
                               format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert set(body) == {"token", "username"} and body["username"] == "ada"
    again = api_client.post(TOKEN, {"username": "ada", "password": "correct-horse-battery"},
                            format="json")
    assert again.json()["token"] != body["token"]
    assert ApiToken.objects.filter(user=user).count() == 2
    for key in (body["token"], again.json()["token"]):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        assert client.get("/api/me").status_code == 200


@pytest.mark.parametrize("username, password", [
    ("ada", "wrong-password"),
    ("nobody", "correct-horse-battery"),
])
def test_token_obtain_refuses_wrong_credentials(api_client, make_user, username, password):
    make_user(username="ada")
    response = api_client.post(TOKEN, {"username": username, "password": password},
                               format="json")
    assert_error(response, 401, "authentication_failed")


def test_token_obtain_refuses_bots_and_inactive_users(api_client, make_user):
    BotFactory(bot_game="nibble", bot_level=1)
    make_user(username="gone", is_active=False)
    for username in ("nibble-bot-1", "gone"):
        response = api_client.post(TOKEN, {"username": username,
                                           "password": "correct-horse-battery"}, format="json")
        assert_error(response, 401, "authentication_failed")


def test_token_obtain_validates_its_body(api_client):
    response = api_client.post(TOKEN, {"username": "ada"}, format="json")
    body = assert_error(response, 400, "validation_error")
    assert set(body["extra"]["fields"]) == {"password"}
    response = api_client.post(TOKEN, {"username": "ada", "password": "x", "otp": 1},
                               format="json")
    assert assert_error(response, 400, "validation_error")["extra"]["fields"] == {
        "otp": ["Unknown field."]}


def test_token_revoke_ends_the_token(client_for, alice):
    client = client_for(alice)
    assert client.get("/api/me").status_code == 200
    response = client.delete(TOKEN)
    assert response.status_code == 204
    assert not ApiToken.objects.filter(user=alice).exists()
    assert_error(client.get("/api/me"), 401, "authentication_failed")


def test_token_revoke_needs_credentials(api_client):
    response = api_client.delete(TOKEN)
    assert_error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == "Token"
