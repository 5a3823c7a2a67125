"""The client address: one setting (TRUSTED_PROXY_COUNT, DRF's NUM_PROXIES) decides it, for the
throttles and the sign-in lockouts alike; a forged X-Forwarded-For changes nothing."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from accounts.clientip import client_ip
from tests.games.matchplay import assert_error

pytestmark = pytest.mark.django_db

REGISTER = "/api/auth/register"
PASSWORD = "a-long-secret-42"


@pytest.fixture
def proxies(settings):
    """``proxies(n)``: run the test as if n trusted proxies sat in front."""

    def set_count(count: int) -> None:
        settings.TRUSTED_PROXY_COUNT = count
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": count}

    return set_count


@pytest.fixture
def register_budget(monkeypatch):
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "register", "3/hour")


def meta(remote: str, forwarded: str | None = None) -> dict[str, str]:
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return extra


@pytest.mark.parametrize("count, remote, forwarded, expected", [
    (0, "203.0.113.7", None, "203.0.113.7"),
    (0, "203.0.113.7", "198.51.100.1", "203.0.113.7"),  # no proxy: the header is ignored
    (1, "10.0.0.2", "198.51.100.1", "198.51.100.1"),
    (1, "10.0.0.2", "6.6.6.6, 198.51.100.1", "198.51.100.1"),  # forged entries on the left
    (2, "10.0.0.3", "6.6.6.6, 198.51.100.1, 10.0.0.2", "198.51.100.1"),
    (1, "10.0.0.2", None, "10.0.0.2"),
])
def test_client_ip_follows_the_trusted_proxy_count(proxies, count, remote, forwarded, expected):
    proxies(count)
    request = RequestFactory().get("/", **meta(remote, forwarded))
    assert client_ip(request) == expected


def test_a_forged_forwarded_for_does_not_reset_the_budget_without_proxies(
        register_budget, proxies):
    proxies(0)
    for n in range(3):
        client = APIClient(**meta("203.0.113.7", f"198.51.100.{n}"))
        response = client.post(REGISTER, {"username": f"ada{n}", "password": PASSWORD},
                               format="json")
        assert response.status_code == 201, response.json()
    client = APIClient(**meta("203.0.113.7", "198.51.100.99"))
    response = client.post(REGISTER, {"username": "ada9", "password": PASSWORD}, format="json")
    body = assert_error(response, 429, "throttled")
    assert int(response["Retry-After"]) > 0 and body["extra"]["retry_after"] > 0


def test_a_forged_forwarded_for_does_not_reset_the_budget_behind_a_proxy(
        register_budget, proxies):
    proxies(1)
    # The proxy (10.0.0.2) appends the address it saw; the client adds whatever it likes.
    for n in range(3):
        client = APIClient(**meta("10.0.0.2", f"6.6.6.{n}, 198.51.100.1"))
        response = client.post(REGISTER, {"username": f"ada{n}", "password": PASSWORD},
                               format="json")
        assert response.status_code == 201, response.json()
    client = APIClient(**meta("10.0.0.2", "7.7.7.7, 198.51.100.1"))
    response = client.post(REGISTER, {"username": "ada9", "password": PASSWORD}, format="json")
    assert_error(response, 429, "throttled")
    # Another client behind the same proxy has its own budget.
    client = APIClient(**meta("10.0.0.2", "198.51.100.2"))
    response = client.post(REGISTER, {"username": "bea", "password": PASSWORD}, format="json")
    assert response.status_code == 201, response.json()
