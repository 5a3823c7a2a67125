"""Nim over HTTP, exactly as a built-in game is played: a rated match against the level-1 bot
and a rated match between two people, each played to the end through the API, drawn as a
picture, and rated."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

from accounts.models import User
from games.models import Match, Move
from games.services.bots import bot_account_ensure, bot_accounts_ensure, bot_levels
from tests.games.helpers import create_match
from tests.games.matchplay import assert_error, match_url, submit

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("nim")]

NS = "{http://www.w3.org/2000/svg}"


def detail(client, match_id: str) -> dict[str, Any]:
    response = client.get(match_url(match_id))
    assert response.status_code == 200, response.json()
    return response.json()


def a_take(legal_moves: dict[str, Any]) -> dict[str, int]:
    """Everything a turn may take from the first heap that holds anything."""
    heap, most = next((i, n) for i, n in enumerate(legal_moves["most"]) if n)
    return {"heap": heap, "count": most}


def board(client, match_id: str) -> ET.Element:
    response = client.get(match_url(match_id, "board.svg"))
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "image/svg+xml; charset=utf-8"
    root = ET.fromstring(response.content)
    assert root.tag == f"{NS}svg"
    assert root.find(f"{NS}title").text.startswith("Nim")
    return root


def rating(client, username: str, game: str = "nim") -> dict[str, Any]:
    response = client.get(f"/api/players/{username}")
    assert response.status_code == 200, response.json()
    (found,) = [r for r in response.json()["ratings"] if r["game"] == game]
    return found


def history(client, username: str, game: str = "nim") -> list[dict[str, Any]]:
    response = client.get(f"/api/players/{username}/ratings/{game}/history")
    assert response.status_code == 200, response.json()
    return response.json()["results"]


def test_the_games_list_offers_nim(client_for, alice):
    body = client_for(alice).get("/api/games").json()
    (nim,) = [g for g in body if g["slug"] == "nim"]
    assert (nim["name"], nim["min_players"], nim["max_players"]) == ("Nim", 2, 3)
    assert [option["name"] for option in nim["options"]] == ["heaps", "max_take", "first_seat"]


def test_a_rated_match_against_the_level1_bot_is_played_drawn_and_rated(
        client_for, alice, django_capture_on_commit_callbacks):
    bot = bot_account_ensure("nim", 1)
    assert bot.username == "nim-bot-1" and bot.is_bot
    client = client_for(alice)
    with django_capture_on_commit_callbacks(execute=True):
        created = create_match(client, game="nim", rated=True, config={"first_seat": 0},
                               seats=[{"kind": "me"}, {"kind": "bot", "level": 1}])
    match_id = created["id"]
    assert created["status"] == "active" and created["rated"] is True
    assert created["seats"][1]["player"] == {"username": "nim-bot-1", "is_bot": True}
    assert created["is_your_turn"] and created["legal_moves"] == {"most": [3, 4, 5]}
    board(client, match_id)

    # A move the rules refuse comes back as the coded error, naming the rule.
    assert_error(submit(client, match_id, {"heap": 0, "count": 4}, created["version"]), 422,
                 "illegal_move", rule="nim.not_enough")

    for _ in range(20):
        mine = detail(client, match_id)
        if mine["status"] != "active":
            break
        assert mine["is_your_turn"], "the bot answers within the request that gave it the turn"
        with django_capture_on_commit_callbacks(execute=True):
            response = submit(client, match_id, a_take(mine["legal_moves"]), mine["version"])
        assert response.status_code == 201, response.json()
    final = detail(client, match_id)
    assert final["status"] == "finished", final
    assert final["view"]["objects_left"] == 0
    match = Match.objects.get(id=match_id)
    assert Move.objects.filter(match=match, user=bot).exists()
    assert Move.objects.filter(match=match).count() == match.version

    root = board(client, match_id)
    assert root.find(f"{NS}title").text.startswith("Nim: Finished (last object)")

    mine = rating(client, "alice")
    assert mine["games_played"] == 1 and mine["provisional"] is True
    assert rating(client, "nim-bot-1")["games_played"] == 1
    (entry,) = history(client, "alice")
    assert entry["match"] == match_id and entry["rating_before"] == 1500
    won = final["outcome"]["winners"] == [0]
    assert entry["rank"] == (1 if won else 2)
    assert (entry["rating_after"] > 1500) is won
    assert len(history(client, "nim-bot-1")) == 1


def test_a_rated_match_between_two_people_moves_both_ratings(
        client_for, alice, bob, django_capture_on_commit_callbacks):
    clients = {0: client_for(alice), 1: client_for(bob)}
    created = create_match(clients[0], game="nim", rated=True,
                           config={"heaps": [4, 6], "max_take": 3, "first_seat": 0})
    match_id = created["id"]
    assert created["status"] == "open"
    joined = clients[1].post(match_url(match_id, "join"))
    assert joined.status_code == 200 and joined.json()["status"] == "active"

    for _ in range(20):
        state = detail(clients[0], match_id)
        if state["status"] != "active":
            break
        (seat,) = state["to_act"]
        mine = detail(clients[seat], match_id)
        assert mine["is_your_turn"] and mine["legal_moves"]["most"] == [
            min(n, 3) for n in mine["view"]["heaps"]]
        with django_capture_on_commit_callbacks(execute=True):
            response = submit(clients[seat], match_id, a_take(mine["legal_moves"]),
                              mine["version"])
        assert response.status_code == 201, response.json()
    final = detail(clients[1], match_id)
    assert final["status"] == "finished", final
    (winner,) = final["outcome"]["winners"]
    assert [s["rank"] for s in final["seats"]] == [1 if s == winner else 2 for s in (0, 1)]
    board(clients[1], match_id)

    names = {0: "alice", 1: "bob"}
    for seat, name in names.items():
        theirs = rating(clients[0], name)
        assert theirs["games_played"] == 1
        (entry,) = history(clients[0], name)
        assert entry["match"] == match_id and entry["rating_before"] == 1500
        if seat == winner:
            assert entry["rank"] == 1 and entry["rating_after"] > 1500
        else:
            assert entry["rank"] == 2 and entry["rating_after"] < 1500
        assert theirs["rating"] == entry["rating_after"]


def test_bot_accounts_exist_only_for_the_levels_a_game_has(client_for, alice):
    assert [level for game, level in bot_levels() if game == "nim"] == [1]
    bot_accounts_ensure()
    # Even an account left over for a level the game has no policy for is never seated.
    User.objects.create(username="nim-bot-2", is_bot=True, bot_game="nim", bot_level=2)
    response = client_for(alice).post("/api/matches", {
        "game": "nim", "seats": [{"kind": "me"}, {"kind": "bot", "level": 2}]},
        content_type="application/json")
    assert_error(response, 400, "invalid_seats")
    assert not Match.objects.filter(game="nim").exists()
