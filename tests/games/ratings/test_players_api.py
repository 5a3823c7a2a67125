"""Players over HTTP: the caller and player profiles, with their ratings per game."""

from __future__ import annotations

import pytest
from django.urls import get_resolver
from drf_spectacular.generators import SchemaGenerator

from games.catalog import engines
from games.kit.registry import register, unregister
from games.models import Rating
from tests.factories import BotFactory
from tests.fourth_game.nim import SPEC as NIM
from tests.games.matchplay import assert_error

pytestmark = pytest.mark.django_db


# --------------------------------------------------------------------------- me and players


def test_me_describes_the_caller(client_for, alice):
    Rating.objects.create(user=alice, game="nibble", mu=27.0, sigma=5.0, display=1620,
                          games_played=12)
    response = client_for(alice).get("/api/me")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"username", "is_bot", "bot_game", "bot_level", "date_joined",
                         "on_vacation", "ratings", "is_guest", "language"}
    assert body["username"] == "alice"
    assert body["is_guest"] is False and body["language"] is None
    assert body["is_bot"] is False and body["bot_game"] is None and body["bot_level"] is None
    assert body["ratings"] == [{"game": "nibble", "rating": 1620, "mu": 27.0, "sigma": 5.0,
                                "games_played": 12, "provisional": False}]


@pytest.mark.parametrize("authorization, code", [
    (None, "not_authenticated"),
    ("Token 0123456789abcdef0123456789abcdef01234567", "authentication_failed"),
    ("Token", "authentication_failed"),
    ("Token a b", "authentication_failed"),
])
def test_me_needs_valid_credentials(api_client, authorization, code):
    if authorization:
        api_client.credentials(HTTP_AUTHORIZATION=authorization)
    assert_error(api_client.get("/api/me"), 401, code)


def test_player_profile(client_for, alice, bob):
    response = client_for(alice).get("/api/players/bob")
    assert response.status_code == 200
    body = response.json()
    assert body["username"] == "bob" and body["ratings"] == []


def test_player_profile_of_a_bot(client_for, alice):
    BotFactory(bot_game="nibble", bot_level=2)
    body = client_for(alice).get("/api/players/nibble-bot-2").json()
    assert body["is_bot"] is True and body["bot_game"] == "nibble" and body["bot_level"] == 2


@pytest.mark.parametrize("username", ["nobody", "gone", "%00", "a%00b", "x" * 300])
def test_unknown_player_is_not_found(client_for, alice, make_user, username):
    make_user(username="gone", is_active=False)
    response = client_for(alice).get(f"/api/players/{username}")
    assert_error(response, 404, "not_found")


# --------------------------------------------------------------------------- games registered later


@pytest.fixture
def nim():
    """A game registered after the server has loaded every view module."""
    get_resolver().url_patterns  # noqa: B018  (imports every view module)
    spec = register(NIM)
    yield spec
    unregister(spec.slug)


def _game_enums(schema) -> dict[str, list[str]]:
    return {path: next(p["schema"]["enum"] for p in operation["get"]["parameters"]
                       if p["name"] == "game")
            for path, operation in schema["paths"].items() if "{game}" in path}


def test_a_game_registered_later_has_a_leaderboard_and_a_history(nim, client_for, alice):
    client = client_for(alice)
    response = client.get("/api/leaderboards/nim")
    assert response.status_code == 200 and response.json()["results"] == []
    response = client.get("/api/players/alice/ratings/nim/history")
    assert response.status_code == 200 and response.json()["results"] == []


def test_the_schema_lists_the_games_registered_when_it_is_built(nim):
    enums = _game_enums(SchemaGenerator().get_schema(request=None, public=True))
    assert set(enums) == {"/api/leaderboards/{game}",
                          "/api/players/{username}/ratings/{game}/history"}
    assert all(enum == sorted(engines()) and "nim" in enum for enum in enums.values())
    unregister("nim")
    enums = _game_enums(SchemaGenerator().get_schema(request=None, public=True))
    assert all("nim" not in enum for enum in enums.values())
