"""Matches over HTTP: create, list, detail (with ETag), join and visibility."""

from __future__ import annotations

import uuid

import pytest

from games.models import Match, Seat
from tests.factories import BotFactory
from tests.games.helpers import create_match
from tests.games.matchplay import assert_error, match_url, start_nibble_match

pytestmark = pytest.mark.django_db

SUMMARY_KEYS = {"id", "game", "status", "players", "rated", "version", "time_control",
                "turn_seconds", "deadline", "created_at", "updated_at", "started_at",
                "finished_at", "seats", "to_act", "your_seat", "is_your_turn",
                "invitation_pending", "outcome", "private", "unrated_reason"}
DETAIL_KEYS = SUMMARY_KEYS | {"config", "view", "legal_moves", "seed", "clocks",
                              "rating_changes", "rematch", "rematch_of", "plans"}
SEAT_KEYS = {"index", "player", "on_vacation", "joined", "to_act", "forfeited", "rank", "score"}


# --------------------------------------------------------------------------- create


def test_create_opens_a_match_with_the_creator_in_seat_zero(client_for, alice):
    response = client_for(alice).post("/api/matches", {"game": "nibble"}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert set(body) == DETAIL_KEYS
    assert body["game"] == "nibble" and body["status"] == "open" and body["players"] == 2
    assert body["rated"] is True and body["version"] == 0
    assert body["your_seat"] == 0 and body["is_your_turn"] is False and body["to_act"] == []
    assert body["view"] is None and body["legal_moves"] is None and body["seed"] is None
    assert body["turn_seconds"] is None and body["deadline"] is None
    assert body["time_control"] is None and body["clocks"] is None
    assert body["unrated_reason"] is None
    assert body["config"] == {} and body["started_at"] is None and body["outcome"] is None
    assert [set(seat) for seat in body["seats"]] == [SEAT_KEYS, SEAT_KEYS]
    assert body["seats"][0]["player"] == {"username": "alice", "is_bot": False}
    assert body["seats"][0]["joined"] is True
    assert body["seats"][1]["player"] is None and body["seats"][1]["joined"] is False
    match = Match.objects.get(id=body["id"])
    assert match.created_by == alice and match.state is None


def test_create_with_an_invitation_and_a_clock(client_for, alice, bob):
    body = create_match(client_for(alice), seats=[{"kind": "me"},
                                                  {"kind": "user", "username": "bob"}],
                        rated=False, time_control={"hours_per_turn": 6},
                        config={"first_seat": 1, "early_finish": True})
    assert body["status"] == "open" and body["rated"] is False
    assert body["turn_seconds"] == 6 * 3600
    assert body["config"] == {"first_seat": 1, "early_finish": True}
    assert body["seats"][1] == {"index": 1, "player": {"username": "bob", "is_bot": False},
                                "on_vacation": False, "joined": False, "to_act": False,
                                "forfeited": False, "rank": None, "score": None}


def test_create_with_days_per_turn(client_for, alice):
    body = create_match(client_for(alice), time_control={"days_per_turn": 3})
    assert body["turn_seconds"] == 3 * 86400


def test_create_against_a_bot_starts_at_once(client_for, alice):
    BotFactory(bot_game="nibble", bot_level=1)
    body = create_match(client_for(alice), seats=[{"kind": "me"}, {"kind": "bot", "level": 1}],
                        config={"first_seat": 0})
    assert body["status"] == "active" and body["version"] == 0
    assert body["seats"][1]["player"] == {"username": "nibble-bot-1", "is_bot": True}
    assert body["to_act"] == [0] and body["is_your_turn"] is True
    assert body["legal_moves"]["takeable"]


def test_create_refuses_an_unknown_game(client_for, alice):
    response = client_for(alice).post("/api/matches", {"game": "chess"}, format="json")
    body = assert_error(response, 400, "validation_error")
    assert "game" in body["extra"]["fields"]
    assert not Match.objects.exists()


@pytest.mark.parametrize("config, option", [
    ({"color_order": [0, 1, 2]}, "color_order"),
    ({"color_order": [0, 1, 2, 3, 4, 5, 6, 7, 7]}, "color_order"),
    ({"color_order": "rainbow"}, "color_order"),
    ({"first_seat": 2}, "first_seat"),
    ({"first_seat": "0"}, "first_seat"),
    ({"early_finish": "yes"}, "early_finish"),
    ({"speed": "fast"}, "speed"),
])
def test_create_refuses_options_the_engine_rejects(client_for, alice, config, option):
    response = client_for(alice).post("/api/matches", {"game": "nibble", "config": config},
                                      format="json")
    assert_error(response, 400, "invalid_config", option=option)
    assert not Match.objects.exists()


@pytest.mark.parametrize("body", [
    {"players": 3},
    {"players": 1},
    {"players": 3, "seats": [{"kind": "me"}, {"kind": "open"}]},
    {"seats": [{"kind": "open"}, {"kind": "open"}]},
    {"seats": [{"kind": "me"}, {"kind": "me"}]},
    {"seats": [{"kind": "me"}, {"kind": "user", "username": "nobody"}]},
    {"seats": [{"kind": "me"}, {"kind": "user", "username": "alice"}]},
    {"seats": [{"kind": "me"}, {"kind": "bot", "level": 3}]},
    {"seats": [{"kind": "me"}, {"kind": "user", "username": "nibble-bot-1"}]},
])
def test_create_refuses_bad_seats(client_for, alice, body):
    BotFactory(bot_game="nibble", bot_level=1)
    response = client_for(alice).post("/api/matches", {"game": "nibble", **body},
                                      format="json")
    assert_error(response, 400, "invalid_seats")
    assert not Match.objects.exists()


@pytest.mark.parametrize("body, field", [
    ({"seats": []}, "seats"),
    ({"seats": [{"kind": "me"}] * 5}, "seats"),
    ({"seats": [{"kind": "robot"}, {"kind": "me"}]}, "seats"),
    ({"seats": [{"kind": "me"}, {"kind": "user"}]}, "seats"),
    ({"seats": [{"kind": "me"}, {"kind": "bot"}]}, "seats"),
    ({"seats": [{"kind": "me"}, {"kind": "bot", "level": 9}]}, "seats"),
    ({"seats": [{"kind": "me"}, {"kind": "open", "colour": "red"}]}, "seats"),
    ({"seats": "me"}, "seats"),
    ({"players": 0}, "players"),
    ({"players": "two"}, "players"),
    ({"config": [1, 2]}, "config"),
    ({"rated": "maybe"}, "rated"),
    ({"time_control": {}}, "time_control"),
    ({"time_control": {"days_per_turn": 4}}, "time_control"),
    ({"time_control": {"hours_per_turn": 0}}, "time_control"),
    ({"time_control": {"hours_per_turn": 73}}, "time_control"),
    ({"time_control": {"days_per_turn": 1, "hours_per_turn": 2}}, "time_control"),
    ({"time_control": {"minutes_per_turn": 5}}, "time_control"),
    ({"time_control": "fast"}, "time_control"),
    ({"private": "yes"}, "private"),
    ({"hidden": True}, "hidden"),
])
def test_create_validates_the_request(client_for, alice, body, field):
    response = client_for(alice).post("/api/matches", {"game": "nibble", **body},
                                      format="json")
    errors = assert_error(response, 400, "validation_error")["extra"]["fields"]
    assert field in errors, errors
    assert not Match.objects.exists()


def test_create_with_a_null_time_control_is_casual(client_for, alice):
    body = create_match(client_for(alice), time_control=None)
    assert body["turn_seconds"] is None


# --------------------------------------------------------------------------- join


def test_join_takes_the_open_seat_and_starts_the_match(client_for, alice, bob):
    created = create_match(client_for(alice), config={"first_seat": 1})
    response = client_for(bob).post(match_url(created["id"], "join"))
    assert response.status_code == 200, response.json()
    body = response.json()
    assert set(body) == DETAIL_KEYS
    assert body["status"] == "active" and body["started_at"] is not None
    assert body["your_seat"] == 1 and body["to_act"] == [1] and body["is_your_turn"] is True
    assert body["view"]["you"] == 1 and body["legal_moves"]["takeable"]
    assert [s["player"]["username"] for s in body["seats"]] == ["alice", "bob"]
    assert all(s["joined"] for s in body["seats"])


def test_join_refuses_a_second_seat(client_for, alice, bob):
    created = create_match(client_for(alice))
    assert_error(client_for(alice).post(match_url(created["id"], "join")), 409,
                 "already_seated")


def test_join_accepts_an_invitation(client_for, alice, bob, carol):
    created = create_match(client_for(alice), seats=[{"kind": "me"},
                                                     {"kind": "user", "username": "bob"}])
    # Carol may not take a seat reserved for bob; the match is not even visible to her.
    assert_error(client_for(carol).post(match_url(created["id"], "join")), 404, "not_found")
    assert_error(client_for(carol).get(match_url(created["id"])), 404, "not_found")
    # Bob sees his invitation and accepts it by joining.
    invited = client_for(bob).get(match_url(created["id"])).json()
    assert invited["your_seat"] == 1 and invited["seats"][1]["joined"] is False
    response = client_for(bob).post(match_url(created["id"], "join"))
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "active"
    assert Seat.objects.get(match_id=created["id"], index=1).user == bob
    assert_error(client_for(bob).post(match_url(created["id"], "join")), 409, "match_full")


def test_join_a_match_that_is_over_is_refused(client_for, alice, bob, carol):
    created = create_match(client_for(alice))
    client_for(alice).post(match_url(created["id"], "abort"))
    assert_error(client_for(carol).post(match_url(created["id"], "join")), 409, "match_full")


def test_join_an_active_match_of_others_is_not_found(nibble, client_for, carol):
    assert_error(client_for(carol).post(match_url(nibble.id, "join")), 404, "not_found")


def test_three_seat_match_starts_when_the_last_seat_fills(client_for, alice, bob, carol, dave):
    created = create_match(client_for(alice), game="nimble", players=3)
    assert created["status"] == "open" and len(created["seats"]) == 3
    first = client_for(bob).post(match_url(created["id"], "join")).json()
    assert first["status"] == "open" and first["your_seat"] == 1
    second = client_for(carol).post(match_url(created["id"], "join")).json()
    assert second["status"] == "active" and second["your_seat"] == 2
    assert_error(client_for(dave).post(match_url(created["id"], "join")), 404, "not_found")


# --------------------------------------------------------------------------- detail


def test_detail_shows_the_callers_view_and_only_the_actor_gets_legal_moves(nibble):
    mine = nibble.detail(nibble.a)
    assert set(mine) == DETAIL_KEYS
    assert mine["status"] == "active" and mine["version"] == 0
    assert mine["to_act"] == [0] and mine["your_seat"] == 0 and mine["is_your_turn"] is True
    assert mine["view"]["you"] == 0 and mine["view"]["to_move"] == [0]
    assert "legal_moves" not in mine["view"]
    takeable = mine["legal_moves"]["takeable"]
    assert takeable and all(len(cell) == 2 for cells in takeable.values() for cell in cells)
    assert mine["seats"][0]["to_act"] is True and mine["seats"][1]["to_act"] is False

    theirs = nibble.detail(nibble.b)
    assert theirs["your_seat"] == 1 and theirs["is_your_turn"] is False
    assert theirs["view"]["you"] == 1 and theirs["legal_moves"] is None
    assert theirs["view"]["board"] == mine["view"]["board"]
    assert mine["seed"] is None and theirs["seed"] is None


def test_detail_etag_answers_not_modified_until_the_match_changes(nibble):
    first = nibble.a.get(match_url(nibble.id))
    etag = first["ETag"]
    assert etag and etag.startswith('"') and etag.endswith('"')
    same = nibble.a.get(match_url(nibble.id), headers={"If-None-Match": etag})
    assert same.status_code == 304 and same.content == b""
    assert same["ETag"] == etag
    other = nibble.a.get(match_url(nibble.id), headers={"If-None-Match": '"0-1"'})
    assert other.status_code == 200
    nibble.play_one()
    changed = nibble.a.get(match_url(nibble.id), headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed["ETag"] != etag and changed.json()["version"] == 1


def test_open_match_is_visible_to_anyone_who_could_join(client_for, alice, carol):
    created = create_match(client_for(alice))
    body = client_for(carol).get(match_url(created["id"])).json()
    assert body["your_seat"] is None and body["is_your_turn"] is False and body["view"] is None


def test_an_active_match_of_others_is_not_found(nibble, client_for, carol):
    hidden = assert_error(client_for(carol).get(match_url(nibble.id)), 404, "not_found")
    missing = assert_error(client_for(carol).get(match_url(str(uuid.uuid4()))), 404,
                           "not_found")
    assert hidden == missing  # hidden and missing look alike
    for suffix in ("moves", "join", "resign", "abort"):
        method = client_for(carol).get if suffix == "moves" else client_for(carol).post
        assert_error(method(match_url(nibble.id, suffix)), 404, "not_found")
    assert_error(client_for(carol).post(match_url(nibble.id, "moves"),
                                        {"move": {"take": [[0, 0]]}}, format="json"),
                 404, "not_found")
    assert_error(client_for(carol).post(match_url(nibble.id, "moves/preview"),
                                        {"move": {"take": [[0, 0]]}}, format="json"),
                 404, "not_found")


def test_a_finished_match_is_public_and_reveals_its_seed(nibble, client_for, carol):
    nibble.b.post(match_url(nibble.id, "resign"))
    body = client_for(carol).get(match_url(nibble.id)).json()
    assert body["status"] == "finished" and body["your_seat"] is None
    assert body["seed"] == Match.objects.get(id=nibble.id).seed
    assert body["legal_moves"] is None


@pytest.mark.parametrize("path", [
    "/api/matches/not-a-uuid",
    "/api/matches/12345",
    "/api/matches/00000000-0000-0000-0000-00000000000g/join",
    "/api/matches/%00",
    "/api/matches/../games",
    "/api/nothing-here",
    "/api/matches/",
    "/api/",
    "/api/me/inbox/extra",
])
def test_unknown_urls_answer_the_json_envelope(client_for, alice, path):
    response = client_for(alice).get(path)
    if response.status_code == 200:  # "/api/matches/../games" may be normalised by a client
        return
    assert_error(response, 404, "not_found")


def test_unknown_urls_answer_json_to_anonymous_callers_and_any_method(api_client):
    for method in ("get", "post", "put", "delete", "patch"):
        assert_error(getattr(api_client, method)("/api/no/such/thing"), 404, "not_found")


def test_wrong_method_is_a_coded_405(client_for, alice):
    response = client_for(alice).delete("/api/matches")
    assert_error(response, 405, "method_not_allowed")
    assert "GET" in response["Allow"] and "POST" in response["Allow"]


# --------------------------------------------------------------------------- list


def _ids(response) -> list[str]:
    assert response.status_code == 200, response.json()
    body = response.json()
    assert set(body) == {"next", "previous", "results"}
    for item in body["results"]:
        assert set(item) == SUMMARY_KEYS
    return [item["id"] for item in body["results"]]


@pytest.fixture
def listed(client_for, alice, bob, carol):
    """Matches of several kinds, newest first:

    - ``mine_open``: alice's open match (no one joined);
    - ``carol_open``: carol's open match alice could join;
    - ``active_my_turn``: alice vs bob, alice to move;
    - ``active_their_turn``: alice vs bob, bob to move;
    - ``finished``: alice vs bob, bob resigned;
    - ``others``: bob vs carol, active (private to them);
    - ``others_done``: bob vs carol, aborted (public).
    """
    a, b, c = client_for(alice), client_for(bob), client_for(carol)
    ids = {}
    ids["others_done"] = create_match(b)["id"]
    b.post(match_url(ids["others_done"], "abort"))
    ids["others"] = start_nibble_match(b, c).id
    ids["finished"] = start_nibble_match(a, b).id
    b.post(match_url(ids["finished"], "resign"))
    ids["active_their_turn"] = start_nibble_match(b, a).id
    ids["active_my_turn"] = start_nibble_match(a, b).id
    ids["carol_open"] = create_match(c)["id"]
    ids["mine_open"] = create_match(a, game="nimble")["id"]
    return ids


def test_list_defaults_to_my_matches_newest_first(client_for, alice, listed):
    ids = _ids(client_for(alice).get("/api/matches"))
    assert ids == [listed[k] for k in ("mine_open", "active_my_turn", "active_their_turn",
                                       "finished")]


def test_list_scope_open_shows_joinable_matches_of_others(client_for, alice, listed):
    assert _ids(client_for(alice).get("/api/matches?scope=open")) == [listed["carol_open"]]


def test_list_scope_all_shows_everything_visible(client_for, alice, listed):
    ids = _ids(client_for(alice).get("/api/matches?scope=all"))
    assert ids == [listed[k] for k in ("mine_open", "carol_open", "active_my_turn",
                                       "active_their_turn", "finished", "others_done")]
    assert listed["others"] not in ids


@pytest.mark.parametrize("query, expected", [
    ("status=active", ["active_my_turn", "active_their_turn"]),
    ("status=finished", ["finished"]),
    ("status=open", ["mine_open"]),
    ("game=nimble", ["mine_open"]),
    ("game=nibble&status=open", []),
    ("my_turn=true", ["active_my_turn"]),
    ("my_turn=false", ["mine_open", "active_my_turn", "active_their_turn", "finished"]),
    ("scope=all&status=aborted", ["others_done"]),
    ("scope=all&game=nibble&status=finished", ["finished"]),
])
def test_list_filters(client_for, alice, listed, query, expected):
    assert _ids(client_for(alice).get(f"/api/matches?{query}")) == [listed[k] for k in expected]


def test_list_summaries_say_whose_turn_it_is(client_for, alice, listed):
    results = client_for(alice).get("/api/matches?status=active").json()["results"]
    by_id = {item["id"]: item for item in results}
    assert by_id[listed["active_my_turn"]]["is_your_turn"] is True
    assert by_id[listed["active_my_turn"]]["your_seat"] == 0
    assert by_id[listed["active_their_turn"]]["is_your_turn"] is False
    assert by_id[listed["active_their_turn"]]["your_seat"] == 1
    for item in results:
        assert "view" not in item and "seed" not in item and "state" not in item


def test_list_cursor_pagination_walks_every_match_once(client_for, alice):
    client = client_for(alice)
    created = [create_match(client)["id"] for _ in range(7)]
    seen: list[str] = []
    url = "/api/matches?limit=3"
    pages = 0
    while url:
        response = client.get(url)
        seen += _ids(response)
        url = response.json()["next"]
        pages += 1
    assert pages == 3
    assert seen == list(reversed(created))
    back = client.get("/api/matches?limit=3").json()
    second = client.get(back["next"]).json()
    assert [m["id"] for m in client.get(second["previous"]).json()["results"]] == seen[:3]


@pytest.mark.parametrize("query, field", [
    ("scope=everyone", "scope"),
    ("status=paused", "status"),
    ("game=chess", "game"),
    ("my_turn=perhaps", "my_turn"),
    ("limit=0", "limit"),
    ("limit=101", "limit"),
    ("limit=ten", "limit"),
    ("colour=red", "colour"),
])
def test_list_validates_its_filters(client_for, alice, query, field):
    response = client_for(alice).get(f"/api/matches?{query}")
    errors = assert_error(response, 400, "validation_error")["extra"]["fields"]
    assert field in errors


@pytest.mark.parametrize("cursor", ["garbage", "cD0x", "%00", "cD1hYmM%3D"])
def test_list_refuses_a_bad_cursor_with_a_coded_error(client_for, alice, cursor):
    create_match(client_for(alice))
    response = client_for(alice).get(f"/api/matches?cursor={cursor}")
    assert response.status_code in (400, 404), response.content
    assert_error(response, response.status_code,
                 "not_found" if response.status_code == 404 else "validation_error")
