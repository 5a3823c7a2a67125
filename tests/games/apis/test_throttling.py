"""Throttling: budgets for anonymous callers and for each user, never for a move that is due."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.throttling import AnonRateThrottle

from config.throttling import LongPollRateThrottle, PlayerRateThrottle
from games.models import Match, Move
from games.nibble.engine import NIBBLE, takeable_discs
from tests.games.matchplay import assert_error, match_url, start_nibble_match, submit

pytestmark = pytest.mark.django_db

USER_BUDGET = 3
ANON_BUDGET = 2


@pytest.fixture(autouse=True)
def low_budgets(monkeypatch):
    monkeypatch.setattr(PlayerRateThrottle, "rate", f"{USER_BUDGET}/min", raising=False)
    monkeypatch.setattr(AnonRateThrottle, "rate", f"{ANON_BUDGET}/min", raising=False)
    cache.clear()


def assert_throttled(response):
    body = assert_error(response, 429, "throttled")
    retry_after = int(response["Retry-After"])
    assert 0 < retry_after <= 60
    assert body["extra"]["retry_after"] >= retry_after - 1
    return body


def _spend(client, url="/api/me", times=USER_BUDGET):
    for _ in range(times):
        assert client.get(url).status_code == 200


def test_anonymous_callers_share_a_budget(api_client, make_user):
    make_user(username="ada")
    wrong = {"username": "ada", "password": "wrong-password"}
    for _ in range(ANON_BUDGET):
        assert_error(api_client.post("/api/auth/token", wrong, format="json"), 401,
                     "authentication_failed")
    assert_throttled(api_client.post("/api/auth/token", wrong, format="json"))
    right = {"username": "ada", "password": "correct-horse-battery"}
    assert_throttled(api_client.post("/api/auth/token", right, format="json"))


def test_registration_is_throttled_for_anonymous_callers(api_client):
    for n in range(ANON_BUDGET):
        response = api_client.post("/api/auth/register",
                                   {"username": f"new{n}", "password": "a-long-secret-42"},
                                   format="json")
        assert response.status_code == 201, response.json()
    assert_throttled(api_client.post("/api/auth/register",
                                     {"username": "late", "password": "a-long-secret-42"},
                                     format="json"))


def test_each_user_has_a_budget_of_their_own(client_for, alice, bob):
    a = client_for(alice)
    _spend(a)
    assert_throttled(a.get("/api/me"))
    assert_throttled(a.get("/api/matches"))
    assert client_for(bob).get("/api/me").status_code == 200


def _first_take(match_id) -> dict:
    """The first takeable disc for whoever must act, read from the server state (the
    players' own budgets are spent, so the test cannot ask over HTTP)."""
    state = NIBBLE.load(Match.objects.get(id=match_id).state)
    takeable = takeable_discs(state)
    return {"take": [list(takeable[min(takeable)][0])]}


def test_the_move_of_the_player_who_must_act_is_never_refused(nibble):
    cache.clear()  # setting up the match spent some of the budgets
    _spend(nibble.a)
    _spend(nibble.b)
    assert_throttled(nibble.a.get(match_url(nibble.id)))
    assert_throttled(nibble.b.get(match_url(nibble.id)))
    # Alice must act: her moves go through although her budget is spent, as often as needed.
    assert_error(submit(nibble.a, nibble.id, {"take": [[4, 4]]}, 0), 422, "illegal_move")
    take = _first_take(nibble.id)
    moved = submit(nibble.a, nibble.id, take, 0)
    assert moved.status_code == 201, moved.json()
    # Now bob must act and alice must not: bob's move is let through, alice's is throttled.
    assert_throttled(submit(nibble.a, nibble.id, _first_take(nibble.id), 1))
    answered = submit(nibble.b, nibble.id, _first_take(nibble.id), 1)
    assert answered.status_code == 201, answered.json()
    assert Move.objects.filter(match_id=nibble.id).count() == 2


def test_an_actor_is_exempt_only_on_the_match_where_it_must_act(nibble, client_for, carol):
    other = start_nibble_match(client_for(carol), nibble.a)  # carol moves first there
    cache.clear()
    _spend(nibble.a)
    assert_throttled(submit(nibble.a, other.id, _first_take(other.id), 0))
    assert submit(nibble.a, nibble.id, _first_take(nibble.id), 0).status_code == 201


def test_long_poll_endpoints_have_a_budget_of_their_own(client_for, alice, bob, monkeypatch):
    monkeypatch.setattr(LongPollRateThrottle, "rate", f"{USER_BUDGET}/min", raising=False)
    nibble = start_nibble_match(client_for(alice), client_for(bob))
    client = client_for(alice)
    cache.clear()
    for _ in range(USER_BUDGET):
        assert client.get(f"/api/matches/{nibble.id}/events?wait=0").status_code == 200
    assert_throttled(client.get(f"/api/matches/{nibble.id}/events?wait=0"))
    assert_throttled(client.get("/api/me/events?wait=0"))
    # Waiting for news does not eat into the budget of the other endpoints.
    assert client.get("/api/me").status_code == 200
