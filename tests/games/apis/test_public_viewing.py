"""Viewing without signing in: finished matches, players, leaderboards and the games are
public; running matches are their seats'; a private match (or any match of a player who keeps
their matches private) is seen by its seats alone."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import Match
from tests.games.matchplay import assert_error, match_url

pytestmark = pytest.mark.django_db


def finish(nibble) -> None:
    nibble.play_one()
    response = nibble.a.post(match_url(nibble.id, "resign"))
    assert response.status_code == 200 and response.json()["status"] == "finished"


def test_a_visitor_sees_a_finished_match_as_a_spectator_does(nibble, client_for, carol):
    finish(nibble)
    visitor = APIClient()
    spectator = client_for(carol)
    for path in ("", "moves", "board.svg", "board.svg?seq=0"):
        seen = visitor.get(match_url(nibble.id, path))
        assert seen.status_code == 200, (path, seen.content[:200])
        assert seen.content == spectator.get(match_url(nibble.id, path)).content, path
    body = visitor.get(match_url(nibble.id)).json()
    assert body["your_seat"] is None and body["seed"] and body["legal_moves"] is None


def test_a_running_match_is_hidden_from_visitors(nibble):
    visitor = APIClient()
    for path in ("", "moves", "board.svg"):
        assert_error(visitor.get(match_url(nibble.id, path)), 404, "not_found")


def test_players_leaderboards_and_games_are_public(nibble, alice):
    finish(nibble)
    visitor = APIClient()
    assert visitor.get("/api/games").status_code == 200
    assert visitor.get("/api/bots").status_code == 200
    assert visitor.get("/api/players/alice").json()["username"] == "alice"
    assert visitor.get("/api/players/alice/ratings/nibble/history").status_code == 200
    assert visitor.get("/api/leaderboards/nibble").status_code == 200
    assert_error(visitor.get("/api/players/nobody"), 404, "not_found")


def test_a_visitor_changes_nothing(nibble):
    visitor = APIClient()
    before = Match.objects.get(id=nibble.id).version
    for path, body in (("/api/matches", {"game": "nibble"}),
                       (match_url(nibble.id, "moves"), {"move": {"take": [[0, 0]]}}),
                       (match_url(nibble.id, "join"), None),
                       (match_url(nibble.id, "rematch"), None),
                       ("/api/auth/guest/convert", {"username": "x-y-z", "password": "p"})):
        assert_error(visitor.post(path, body, format="json"), 401, "not_authenticated")
    for path in ("/api/matches", "/api/me", "/api/me/inbox", "/api/me/settings"):
        assert_error(visitor.get(path), 401, "not_authenticated")
    assert Match.objects.get(id=nibble.id).version == before


def test_a_private_match_is_seen_by_its_seats_alone(client_for, alice, bob, carol):
    from tests.games.matchplay import NibbleMatch

    a, b = client_for(alice), client_for(bob)
    created = a.post("/api/matches", {"game": "nibble", "private": True,
                                      "config": {"first_seat": 0},
                                      "seats": [{"kind": "me"},
                                                {"kind": "user", "username": "bob"}]},
                     format="json").json()
    # A private match is not open to strangers: only the invited player can join it.
    assert_error(client_for(carol).post(match_url(created["id"], "join")), 404, "not_found")
    assert b.post(match_url(created["id"], "join")).status_code == 200
    match = NibbleMatch(id=created["id"], a=a, b=b)
    assert match.detail()["private"] is True
    finish(match)
    assert match.detail(match.b)["status"] == "finished"
    for outsider in (APIClient(), client_for(carol)):
        for path in ("", "moves", "board.svg"):
            assert_error(outsider.get(match_url(match.id, path)), 404, "not_found")
    listed = client_for(carol).get("/api/matches?scope=all").json()["results"]
    assert match.id not in [m["id"] for m in listed]


def test_a_player_makes_their_matches_private(nibble, client_for, carol):
    finish(nibble)
    bob = nibble.b
    mine = bob.get("/api/me/settings").json()
    assert (mine["matches_private"], mine["is_guest"]) == (False, False)
    response = bob.patch("/api/me/settings", {"matches_private": True}, format="json")
    assert response.status_code == 200 and response.json()["matches_private"] is True
    # Past matches included, for everyone but the seats.
    assert_error(APIClient().get(match_url(nibble.id)), 404, "not_found")
    assert_error(client_for(carol).get(match_url(nibble.id)), 404, "not_found")
    listed = client_for(carol).get("/api/matches?scope=all").json()["results"]
    assert nibble.id not in [m["id"] for m in listed]
    assert nibble.detail(nibble.a)["private"] is True
    # New matches of the player are private from the start; the open-match list skips them.
    created = bob.post("/api/matches", {"game": "nibble"}, format="json").json()
    assert created["private"] is True
    opened = client_for(carol).get("/api/matches?scope=open").json()["results"]
    assert created["id"] not in [m["id"] for m in opened]
    bob.patch("/api/me/settings", {"matches_private": False}, format="json")
    assert APIClient().get(match_url(nibble.id)).status_code == 200


def test_settings_refuse_bad_input(client_for, alice):
    client = client_for(alice)
    for body in ({"matches_private": "yes"}, {"matches_private": 1}, {"other": True}):
        assert_error(client.patch("/api/me/settings", body, format="json"), 400,
                     "validation_error")
    assert client.get("/api/me/settings").json()["matches_private"] is False
