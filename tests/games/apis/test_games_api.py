"""GET /api/games: the catalogue of games and their options; games registered at run time."""

import pytest
from django.urls import get_resolver
from drf_spectacular.generators import SchemaGenerator

from games.catalog import engines
from games.kit.registry import register, unregister
from tests.factories import BotFactory
from tests.games.helpers import create_match
from tests.games.matchplay import assert_error

pytestmark = pytest.mark.django_db


def test_games_lists_every_engine_with_its_options(client_for, alice):
    response = client_for(alice).get("/api/games")
    assert response.status_code == 200
    games = response.json()
    assert [g["slug"] for g in games] == sorted(engines())
    for game in games:
        engine = engines()[game["slug"]]
        assert set(game) == {"slug", "name", "min_players", "max_players", "options", "presets"}
        assert game["name"] == engine.name
        assert (game["min_players"], game["max_players"]) == (engine.min_players,
                                                             engine.max_players)
        assert [o["name"] for o in game["options"]] == [o.name for o in engine.options]
        for option in game["options"]:
            assert {"name", "type", "default", "description"} <= set(option)
    nibble = next(g for g in games if g["slug"] == "nibble")
    assert (nibble["min_players"], nibble["max_players"]) == (2, 2)
    first_seat = next(o for o in nibble["options"] if o["name"] == "first_seat")
    assert first_seat["type"] == "int" and first_seat["minimum"] == 0


def test_games_are_public(api_client):
    """Anyone may read what is played here, signed in or not (a visitor's first page)."""
    response = api_client.get("/api/games")
    assert response.status_code == 200
    assert {game["slug"] for game in response.json()} == set(engines())


def test_bots_lists_the_bot_accounts_with_a_policy(client_for, alice):
    BotFactory(bot_game="nibble", bot_level=1, bot_description="Random.")
    BotFactory(bot_game="nimble", bot_level=2)
    client = client_for(alice)
    response = client.get("/api/bots")
    assert response.status_code == 200
    bots = response.json()
    assert [(b["username"], b["game"], b["level"]) for b in bots] == [
        ("nibble-bot-1", "nibble", 1), ("nimble-bot-2", "nimble", 2)]
    assert bots[0]["rating"] is None and bots[0]["provisional"] is True
    only = client.get("/api/bots?game=nimble").json()
    assert [b["username"] for b in only] == ["nimble-bot-2"]


def test_bots_refuses_an_unknown_game(client_for, alice):
    assert_error(client_for(alice).get("/api/bots?game=chess"), 400, "unknown_game")


@pytest.fixture
def late_game():
    """Nim registered once the server is loaded (every view module imported), as a game added
    to a running server; unregistered afterwards."""
    from tests.fourth_game.nim import SPEC

    get_resolver().url_patterns  # noqa: B018  (imports every view module)
    spec = register(SPEC)
    yield spec
    unregister(spec.slug)


def test_a_game_registered_at_run_time_is_a_choice_of_every_game_field(client_for, alice,
                                                                       late_game):
    client = client_for(alice)
    assert [g["slug"] for g in client.get("/api/games").json()] == sorted(engines())
    assert "nim" in engines()
    created = create_match(client, game="nim")
    assert created["game"] == "nim" and created["status"] == "open"
    listed = client.get("/api/matches?game=nim")
    assert listed.status_code == 200
    assert [m["id"] for m in listed.json()["results"]] == [created["id"]]
    assert client.get("/api/bots?game=nim").status_code == 200
    assert client.get("/api/leaderboards/nim").status_code == 200


def test_an_unknown_game_is_still_refused_with_a_game_registered_at_run_time(client_for, alice,
                                                                             late_game):
    client = client_for(alice)
    body = assert_error(client.post("/api/matches", {"game": "chess"}, format="json"), 400,
                        "validation_error")
    assert body["extra"]["fields"] == {"game": ['"chess" is not a valid choice.']}
    body = assert_error(client.get("/api/matches?game=chess"), 400, "validation_error")
    assert body["extra"]["fields"] == {"game": ['"chess" is not a valid choice.']}


def test_the_schema_lists_a_game_registered_at_run_time(late_game):
    schema = SchemaGenerator().get_schema(request=None, public=True)
    games = sorted(engines())
    assert "nim" in games
    assert schema["components"]["schemas"]["GameEnum"]["enum"] == games
    for path, operation in (("/api/matches", "get"), ("/api/bots", "get"),
                            ("/api/leaderboards/{game}", "get")):
        (game,) = [p for p in schema["paths"][path][operation]["parameters"]
                   if p["name"] == "game"]
        assert game["schema"]["enum"] == games, path
