"""Sign-in limits (django-axes): per account whatever the address, per address whatever the
account, for the API and the admin alike, answered 429 ``too_many_attempts`` + Retry-After."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.games.matchplay import assert_error

pytestmark = pytest.mark.django_db

TOKEN = "/api/auth/token"
RIGHT = "correct-horse-battery"


def sign_in(address: str, username: str, password: str, **extra):
    client = APIClient(REMOTE_ADDR=address, **extra)
    return client.post(TOKEN, {"username": username, "password": password}, format="json")


def assert_locked(response) -> None:
    body = assert_error(response, 429, "too_many_attempts")
    wait = int(response["Retry-After"])
    assert wait > 0 and body["extra"]["retry_after"] == wait


def test_the_eleventh_wrong_password_for_an_account_is_refused_from_any_address(make_user):
    make_user(username="ada")
    for n in range(9):
        response = sign_in(f"198.51.100.{n}", "ada", f"guess-{n}")
        assert_error(response, 401, "authentication_failed")
    # The tenth failure locks the account: it is answered so at once.
    assert_locked(sign_in("198.51.100.9", "ada", "guess-9"))
    # Locked: whatever the password, from a new address (and with a forged header).
    assert_locked(sign_in("203.0.113.50", "ada", "guess-10"))
    assert_locked(sign_in("203.0.113.51", "ada", RIGHT, HTTP_X_FORWARDED_FOR="192.0.2.1"))
    # Other accounts are not affected.
    make_user(username="bea")
    assert sign_in("203.0.113.52", "bea", RIGHT).status_code == 200


def test_one_address_guessing_many_accounts_is_refused(make_user):
    make_user(username="ada")
    for n in range(9):
        response = sign_in("203.0.113.9", f"someone{n}", "guess",
                           HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")
        assert_error(response, 401, "authentication_failed")
    assert_locked(sign_in("203.0.113.9", "someone9", "guess"))
    assert_locked(sign_in("203.0.113.9", "ada", RIGHT))
    assert sign_in("203.0.113.10", "ada", RIGHT).status_code == 200


def test_a_successful_sign_in_resets_the_count(make_user):
    make_user(username="ada")
    for _round in range(2):
        for n in range(9):
            assert sign_in("198.51.100.1", "ada", f"guess-{n}").status_code == 401
        assert sign_in("198.51.100.1", "ada", RIGHT).status_code == 200


def test_the_lockout_ends_after_the_cool_off(make_user, settings):
    from datetime import timedelta

    from axes.models import AccessAttempt

    make_user(username="ada")
    for n in range(10):
        sign_in(f"198.51.100.{n}", "ada", "guess")
    assert_locked(sign_in("198.51.100.77", "ada", RIGHT))
    AccessAttempt.objects.update(attempt_time=AccessAttempt.objects.first().attempt_time
                                 - timedelta(hours=1))
    assert sign_in("198.51.100.78", "ada", RIGHT).status_code == 200


def test_the_admin_login_goes_through_the_same_limits(make_user):
    make_user(username="root", is_staff=True, is_superuser=True)
    for n in range(9):
        client = Client(REMOTE_ADDR=f"198.51.100.{n}")
        response = client.post("/admin/login/", {"username": "root", "password": f"guess-{n}"})
        assert response.status_code == 200  # the form again, with an error
    client.post("/admin/login/", {"username": "root", "password": "guess-9"})
    client = Client(REMOTE_ADDR="203.0.113.1")
    response = client.post("/admin/login/", {"username": "root", "password": RIGHT})
    assert response.status_code == 429
    assert response.json()["code"] == "too_many_attempts"
    assert int(response["Retry-After"]) > 0


def test_the_admin_can_be_switched_off(settings):
    from importlib import reload

    from django.urls import clear_url_caches

    import config.urls

    settings.ADMIN_ENABLED = False
    try:
        reload(config.urls)
        clear_url_caches()
        response = Client().get("/admin/login/")
        assert response.status_code == 404 and response.json()["code"] == "not_found"
    finally:
        settings.ADMIN_ENABLED = True
        reload(config.urls)
        clear_url_caches()
