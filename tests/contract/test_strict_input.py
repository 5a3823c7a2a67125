"""Input is strict: a value of the wrong JSON type is a validation_error naming the field,
never converted (DRF alone takes "yes" for true and "2" for 2); query parameters, which are
text, must be written as the schema says; cursors and sequence numbers are checked."""

from __future__ import annotations

import base64

import pytest

from tests.games.helpers import create_match
from tests.games.matchplay import assert_error, match_url


def _fields(response) -> dict:
    return assert_error(response, 400, "validation_error")["extra"]["fields"]


@pytest.mark.parametrize("body, field", [
    ({"game": "nibble", "rated": "yes"}, "rated"),
    ({"game": "nibble", "rated": 1}, "rated"),
    ({"game": "nibble", "rated": "true"}, "rated"),
    ({"game": "nibble", "players": "2"}, "players"),
    ({"game": "nibble", "players": 2.0}, "players"),
    ({"game": "nibble", "players": True}, "players"),
    ({"game": 5}, "game"),
    ({"game": "nibble", "config": []}, "config"),
    ({"game": "nibble", "time_control": {"days_per_turn": "1"}}, "time_control"),
    ({"game": "nibble", "time_control": {"hours_per_turn": 2.0}}, "time_control"),
    ({"game": "nibble", "seats": [{"kind": "me"}, {"kind": "bot", "level": "1"}]}, "seats"),
    ({"game": "nibble", "seats": [{"kind": "me"}, {"kind": "user", "username": 7}]}, "seats"),
])
def test_match_create_refuses_wrong_types(client_for, alice, body, field):
    response = client_for(alice).post("/api/matches", body, format="json")
    assert field in _fields(response)


def test_match_create_still_takes_right_types(client_for, alice):
    match = create_match(client_for(alice), "nibble", players=2, rated=False,
                         time_control={"days_per_turn": 1})
    assert match["rated"] is False and match["players"] == 2


@pytest.mark.parametrize("expected_version", ["0", True, 0.0, 2**70])
def test_a_move_refuses_a_wrong_expected_version(client_for, alice, nibble, expected_version):
    response = client_for(alice).post(
        match_url(nibble.id, "moves"),
        {"move": {"take": [[0, 0]]}, "expected_version": expected_version}, format="json")
    if expected_version == 2**70:
        assert response.status_code in (400, 409), response.content
    else:
        assert "expected_version" in _fields(response)


@pytest.mark.parametrize("query, field", [
    ("my_turn=yes", "my_turn"),
    ("my_turn=1", "my_turn"),
    ("limit=1.0", "limit"),
    ("limit=+5", "limit"),
    ("cursor=garbage", "cursor"),
    ("cursor=" + base64.b64encode(b"o=5000").decode(), "cursor"),
    ("cursor=" + base64.b64encode(b"r=2").decode(), "cursor"),
    ("cursor=" + base64.b64encode(b"x=1").decode(), "cursor"),
    ("cursor=" + base64.b64encode(b"p=\x00").decode(), "cursor"),
])
def test_match_list_refuses_malformed_parameters(client_for, alice, query, field):
    create_match(client_for(alice))
    assert field in _fields(client_for(alice).get(f"/api/matches?{query}"))


def test_a_cursor_from_a_page_still_works(client_for, alice):
    client = client_for(alice)
    for _ in range(3):
        create_match(client)
    first = client.get("/api/matches?limit=2").json()
    assert first["next"]
    second = client.get(first["next"])
    assert second.status_code == 200 and len(second.json()["results"]) == 1


@pytest.mark.parametrize("path", [
    "/api/leaderboards/nibble?cursor=garbage",
    "/api/leaderboards/nibble?limit=ten",
    "/api/players/alice/ratings/nibble/history?cursor=garbage",
    "/api/players/alice/ratings/nibble/history?limit=2.5",
])
def test_player_lists_refuse_malformed_parameters(client_for, alice, path):
    assert _fields(client_for(alice).get(path))


@pytest.mark.parametrize("suffix, field", [
    ("moves?after=" + str(2**70), "after"),
    ("moves?after=1e3", "after"),
    ("moves?limit=true", "limit"),
    ("board.svg?seq=" + str(2**70), "seq"),
    ("events?after=" + str(2**70), "after"),
])
def test_sequence_numbers_are_checked(client_for, alice, nibble, suffix, field):
    assert field in _fields(client_for(alice).get(match_url(nibble.id, suffix)))


def test_a_body_not_sent_as_json_answers_415(client_for, alice):
    response = client_for(alice).post("/api/matches", "game=nibble",
                                      content_type="application/x-www-form-urlencoded")
    assert_error(response, 415, "unsupported_media_type")
