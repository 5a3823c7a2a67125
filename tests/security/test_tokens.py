"""Named API tokens: several per person, listed, revoked one by one or all at once, expiring;
revoked and expired tokens get 401 at once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.authentication import CachedTokenAuthentication
from accounts.models import ApiToken
from tests.games.matchplay import assert_error

pytestmark = pytest.mark.django_db

TOKEN = "/api/auth/token"
TOKENS = "/api/auth/tokens"
RIGHT = "correct-horse-battery"


@pytest.fixture(autouse=True)
def _empty_memory():
    CachedTokenAuthentication.forget()
    yield
    CachedTokenAuthentication.forget()


def obtain(username: str = "ada", **body) -> str:
    response = APIClient().post(TOKEN, {"username": username, "password": RIGHT, **body},
                                format="json")
    assert response.status_code == 200, response.json()
    return response.json()["token"]


def with_token(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@pytest.fixture
def ada(make_user):
    return make_user(username="ada")


def test_each_device_gets_its_own_named_token(ada):
    phone = obtain(name="phone")
    laptop = obtain(name="laptop")
    listed = with_token(phone).get(TOKENS)
    assert listed.status_code == 200
    rows = listed.json()
    assert [row["name"] for row in rows] == ["laptop", "phone"]
    assert [row["current"] for row in rows] == [False, True]
    assert {row["prefix"] for row in rows} == {phone[:8], laptop[:8]}
    assert set(rows[0]) == {"id", "name", "prefix", "created", "expires", "current"}
    # Only digests are stored.
    stored = list(ApiToken.objects.values_list("digest", flat=True))
    assert phone not in stored and laptop not in stored


def test_revoking_one_token_leaves_the_others(ada):
    phone, laptop = obtain(name="phone"), obtain(name="laptop")
    client = with_token(phone)
    assert client.get("/api/me").status_code == 200
    laptop_id = next(row["id"] for row in client.get(TOKENS).json() if row["name"] == "laptop")
    assert with_token(laptop).get("/api/me").status_code == 200  # remembered by the process
    assert client.delete(f"{TOKENS}/{laptop_id}").status_code == 204
    assert_error(with_token(laptop).get("/api/me"), 401, "authentication_failed")
    assert client.get("/api/me").status_code == 200
    assert_error(client.delete(f"{TOKENS}/{laptop_id}"), 404, "not_found")


def test_revoking_the_current_token_signs_out_this_device_only(ada):
    phone, laptop = obtain(name="phone"), obtain(name="laptop")
    assert with_token(phone).delete(f"{TOKENS}/current").status_code == 204
    assert_error(with_token(phone).get("/api/me"), 401, "authentication_failed")
    assert with_token(laptop).get("/api/me").status_code == 200


def test_revoking_all_tokens(ada):
    keys = [obtain(name=str(n)) for n in range(3)]
    for key in keys:
        assert with_token(key).get("/api/me").status_code == 200
    assert with_token(keys[0]).delete(TOKEN).status_code == 204
    for key in keys:
        assert_error(with_token(key).get("/api/me"), 401, "authentication_failed")
    assert not ApiToken.objects.filter(user=ada).exists()


def test_nobody_can_see_or_revoke_anothers_tokens(ada, make_user):
    make_user(username="bea")
    ada_key, bea_key = obtain("ada"), obtain("bea")
    bea_id = ApiToken.objects.get(user__username="bea").pk
    assert [row["name"] for row in with_token(ada_key).get(TOKENS).json()] == [""]
    assert_error(with_token(ada_key).delete(f"{TOKENS}/{bea_id}"), 404, "not_found")
    assert with_token(bea_key).get("/api/me").status_code == 200


def test_an_expired_token_gets_401(ada, settings):
    key = obtain()
    assert with_token(key).get("/api/me").status_code == 200
    ApiToken.objects.update(expires=timezone.now() - timedelta(seconds=1))
    CachedTokenAuthentication.forget()
    response = with_token(key).get("/api/me")
    assert_error(response, 401, "authentication_failed")
    assert "expired" in response.json()["message"]


def test_a_remembered_token_is_forgotten_when_it_expires(ada, settings):
    settings.TOKEN_CACHE_SECONDS = 3600
    key = obtain()
    ApiToken.objects.update(expires=timezone.now() + timedelta(milliseconds=200))
    CachedTokenAuthentication.forget()
    assert with_token(key).get("/api/me").status_code == 200
    import time

    time.sleep(0.3)
    assert_error(with_token(key).get("/api/me"), 401, "authentication_failed")


def test_tokens_expire_after_the_configured_days(ada, settings):
    settings.API_TOKEN_TTL_DAYS = 30
    obtain(name="default")
    obtain(name="short", expires_in_days=2)
    obtain(name="capped", expires_in_days=400)
    now = timezone.now()
    days = {token.name: round((token.expires - now) / timedelta(days=1))
            for token in ApiToken.objects.all()}
    assert days == {"default": 30, "short": 2, "capped": 30}
    settings.API_TOKEN_TTL_DAYS = 0
    obtain(name="forever")
    obtain(name="asked", expires_in_days=7)
    assert ApiToken.objects.get(name="forever").expires is None
    assert round((ApiToken.objects.get(name="asked").expires - now) / timedelta(days=1)) == 7


def test_the_oldest_tokens_make_way_beyond_the_limit(ada, settings):
    settings.API_TOKENS_PER_USER = 3
    keys = [obtain(name=str(n)) for n in range(5)]
    assert sorted(ApiToken.objects.values_list("name", flat=True)) == ["2", "3", "4"]
    assert_error(with_token(keys[0]).get("/api/me"), 401, "authentication_failed")
    assert with_token(keys[4]).get("/api/me").status_code == 200


@pytest.mark.parametrize("body, field", [
    ({"name": "x" * 101}, "name"),
    ({"expires_in_days": 0}, "expires_in_days"),
    ({"expires_in_days": "soon"}, "expires_in_days"),
])
def test_token_options_are_validated(ada, body, field):
    response = APIClient().post(TOKEN, {"username": "ada", "password": RIGHT, **body},
                                format="json")
    assert field in assert_error(response, 400, "validation_error")["extra"]["fields"]


def test_the_token_list_needs_credentials():
    assert_error(APIClient().get(TOKENS), 401, "not_authenticated")
    assert_error(APIClient().delete(f"{TOKENS}/1"), 401, "not_authenticated")
