"""GET /api/games: the catalogue of games and their options."""

import pytest

from games.catalog import engines
from tests.factories import BotFactory
from tests.games.matchplay import assert_error

pytestmark = pytest.mark.django_db


def test_games_lists_every_engine_with_its_options(client_for, alice):
    response = client_for(alice).get("/api/games")
    assert response.status_code == 200
    games = response.json()
    assert [g["slug"] for g in games] == sorted(engines())
    for game in games:
        engine = engines()[game["slug"]]
        assert set(game) == {"slug", "name", "min_players", "max_players", "options"}
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


def test_games_need_credentials(api_client):
    assert_error(api_client.get("/api/games"), 401, "not_authenticated")


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
