"""``GET /api/matches/{id}/board.svg`` over HTTP: the caller's view as a picture, past positions
once a match is over, hidden information kept hidden, and the usual errors and caching."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from games.catalog import games, get_engine
from games.models import Match
from games.movelog import state_at
from games.services import match_system_step_run
from games.services.vacations import vacation_end, vacation_start
from tests.factories import BotFactory
from tests.games.helpers import create_match
from tests.games.matchplay import assert_error, match_url, submit

pytestmark = pytest.mark.django_db

NS = "{http://www.w3.org/2000/svg}"


def board_url(match_id: str, seq: Any = None) -> str:
    url = match_url(str(match_id), "board.svg")
    return url if seq is None else f"{url}?seq={seq}"


def picture(client, match_id: str, seq: Any = None, **headers) -> tuple[str, ET.Element]:
    """The picture's text and parsed root; checks the response around it."""
    response = client.get(board_url(match_id, seq), headers=headers)
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "image/svg+xml; charset=utf-8"
    assert response["Cache-Control"].startswith("private")
    assert re.fullmatch(r'"\d+-\d+-svg\d+(-seq\d+)?"', response["ETag"])
    text = response.content.decode("utf-8")
    root = ET.fromstring(response.content)
    assert root.tag == f"{NS}svg"
    assert root.find(f"{NS}title").text and root.find(f"{NS}desc").text
    return text, root


def detail(client, match_id: str) -> dict[str, Any]:
    response = client.get(match_url(match_id))
    assert response.status_code == 200
    return response.json()


def start(a, b, game: str, **body) -> str:
    match_id = create_match(a, game=game, players=2, **body)["id"]
    assert b.post(match_url(match_id, "join")).status_code == 200
    return match_id


def act(clients: dict[int, Any], match_id: str, game: str) -> int:
    """One move by a seat that must act (in a game this does not know, its level-1 bot's choice
    from the seat's view); returns the new version."""
    state = detail(clients[0], match_id)
    seat = state["to_act"][0]
    mine = detail(clients[seat], match_id)
    legal = mine["legal_moves"]
    if game == "nibble":
        colour = sorted(legal["takeable"], key=int)[0]
        move = {"take": [legal["takeable"][colour][0]]}
    elif game == "nimble":
        move = legal[0]
    elif game == "nimalia":
        row, col = legal["anchors"][0]
        move = {"card": legal["cards"][0], "row": row, "col": col, "rotation": 0}
    else:
        view = {**mine["view"], "legal_moves": legal}
        move = games()[game].choose_move(1, view, seat, random.Random(mine["version"]))
    response = submit(clients[seat], match_id, move, mine["version"])
    assert response.status_code == 201, response.json()
    return response.json()["seq"]


def snapshot(match_id: str) -> tuple[int, dict[str, Any]]:
    match = Match.objects.get(id=match_id)
    return match.version, match.state


# --------------------------------------------------------------------------- every game


# Every registered game, and Nim (registered for the test by its fixture).
@pytest.mark.parametrize("game", sorted({*games(), "nim"}))
def test_running_and_finished_matches_render_for_seats_and_others(game, nim, client_for, alice,
                                                                  bob, carol):
    a, b, c = client_for(alice), client_for(bob), client_for(carol)
    match_id = start(a, b, game)
    clients = {0: a, 1: b}
    for _ in range(3):
        act(clients, match_id, game)
    match = Match.objects.get(id=match_id)
    for client, seat in ((a, 0), (b, 1)):
        text, root = picture(client, match_id)
        assert f"Seen by {client.user.username} (seat {seat + 1})" in text
        assert match.seed not in text
    # A running match is private: others get the 404 the match detail gives them.
    assert_error(c.get(board_url(match_id)), 404, "not_found")
    assert b.post(match_url(match_id, "resign")).status_code == 200
    text, root = picture(c, match_id)  # over: anyone may look, as a spectator
    assert "Spectator view" in text
    assert root.find(f"{NS}title").text.endswith("Finished (forfeit): alice (seat 1) wins")
    text, _ = picture(a, match_id)
    assert "Seen by alice (seat 1)" in text


def test_the_current_picture_is_drawn_from_the_match_detail_view(client_for, alice, bob):
    a, b = client_for(alice), client_for(bob)
    match_id = start(a, b, "nibble", config={"first_seat": 0})
    act({0: a, 1: b}, match_id, "nibble")
    view = detail(a, match_id)["view"]
    _, root = picture(a, match_id)
    discs = root.findall(f".//{NS}g[@class='disc']")
    assert len(discs) == view["discs_left"] == 80
    taken = [(r, c) for r, row in enumerate(view["board"]) for c, v in enumerate(row)
             if v is None]
    assert all(f"[{r}, {c}]" not in ET.tostring(root, encoding="unicode") for r, c in taken)


# --------------------------------------------------------------------------- hidden information


def _plant_nimalia(match_id: str, original: dict[str, Any], variant: int) -> set[int]:
    """Seat 1 (bob) gets other hidden cards from the deck and a pending placement, starting
    from the ``original`` stored state; returns bob's hidden card ids."""
    data = dict(original)
    deck = list(data["deck"])
    hand, pending = deck[3 * variant:3 * variant + 2], deck[3 * variant + 2]
    data["deck"] = [card for card in deck if card not in (*hand, pending)] + data["hands"][1]
    data["hands"] = [data["hands"][0], hand]
    data["pending"] = [None, [pending, 0, 0, 90 * variant]]
    get_engine("nimalia").load(data)  # still a state the engine reads
    Match.objects.filter(id=match_id).update(state=data)
    return {*hand, pending}


def test_nimalia_another_seats_hand_and_pending_card_stay_hidden(client_for, alice, bob):
    a, b = client_for(alice), client_for(bob)
    match_id = start(a, b, "nimalia", config={"objectives": "first_game"})
    match = Match.objects.get(id=match_id)
    mine = set(match.state["hands"][0])
    pictures = []
    for variant in (1, 2):
        theirs = _plant_nimalia(match_id, match.state, variant)
        text, root = picture(a, match_id)
        named = {int(n) for n in re.findall(r"\bcard (\d+)\b", text)}
        named |= {int(g.get("data-card")) for g in root.iter(f"{NS}g") if g.get("data-card")}
        assert named == mine and not named & theirs
        assert match.seed not in text
        pictures.append(text)
        # Bob sees his own pending card in his reserve.
        own, _ = picture(b, match_id)
        pending = Match.objects.get(id=match_id).state["pending"][1][0]
        assert f"your pending card {pending}" in own
    # Whatever bob holds, alice's picture is the same, byte for byte.
    assert pictures[0] == pictures[1]


def test_nimble_a_card_buried_in_a_set_does_not_show(client_for, alice, bob):
    a, b = client_for(alice), client_for(bob)
    match_id = start(a, b, "nimble")
    clients = {0: a, 1: b}
    for _ in range(6):
        act(clients, match_id, "nimble")
    match = Match.objects.get(id=match_id)
    before = {seat: picture(client, match_id)[0] for seat, client in clients.items()}
    for text in before.values():
        assert match.seed not in text
    # Bury the other way round: reverse both Sets, shuffle the discards below their tops.
    data = dict(match.state)
    data["sets"] = [list(reversed(pile)) for pile in data["sets"]]
    data["discards"] = [list(reversed(pile[:-1])) + pile[-1:] for pile in data["discards"]]
    assert data != match.state
    Match.objects.filter(id=match_id).update(state=data)
    for seat, client in clients.items():
        assert picture(client, match_id)[0] == before[seat]


def test_nibble_seed_is_not_in_the_picture_while_running(client_for, alice, bob):
    a, b = client_for(alice), client_for(bob)
    match_id = start(a, b, "nibble")
    seed = Match.objects.get(id=match_id).seed
    for _ in range(4):
        for client in (a, b):
            assert seed not in picture(client, match_id)[0]
        act({0: a, 1: b}, match_id, "nibble")


def test_a_match_the_creator_only_watches_is_drawn_as_the_spectator_view(client_for, alice):
    BotFactory(bot_game="nimalia", bot_level=1)
    a = client_for(alice)
    match_id = create_match(a, game="nimalia", seats=[{"kind": "bot", "level": 1},
                                                      {"kind": "bot", "level": 1}])["id"]
    assert detail(a, match_id)["your_seat"] is None
    text, root = picture(a, match_id)
    assert "Spectator view" in text and "Hands are hidden" in text
    assert not [g for g in root.iter(f"{NS}g") if g.get("data-card")]
    assert "nimalia-bot-1 (seat 1)" in text and "nimalia-bot-1 (seat 2)" in text


# --------------------------------------------------------------------------- past positions


def test_past_positions_replay_the_log_once_the_match_is_over(client_for, alice, bob):
    a, b = client_for(alice), client_for(bob)
    match_id = start(a, b, "nimalia", config={"objectives": "first_game"})
    clients = {0: a, 1: b}
    snapshots = dict([snapshot(match_id)])
    for _ in range(6):  # the three draft turns of round 1 ...
        act(clients, match_id, "nimalia")
        snapshots.update([snapshot(match_id)])
    version = Match.objects.get(id=match_id).version
    assert match_system_step_run(match_id=match_id, expected_version=version)  # ... scored
    snapshots.update([snapshot(match_id)])
    act(clients, match_id, "nimalia")
    snapshots.update([snapshot(match_id)])
    # While the match runs there is no going back.
    assert_error(a.get(board_url(match_id, 1)), 409, "replay_not_available")
    assert b.post(match_url(match_id, "resign")).status_code == 200
    snapshots.update([snapshot(match_id)])
    match = Match.objects.get(id=match_id)
    assert sorted(snapshots) == list(range(match.version + 1))
    engine = get_engine("nimalia")
    for seq, stored in snapshots.items():
        assert engine.dump(state_at(match, engine, seq)) == stored, seq
    _, root = picture(a, match_id, 0)
    assert "round 1 of 5" in root.find(f"{NS}desc").text
    text, root = picture(a, match_id, 7)  # right after the scoring
    assert "round 2 of 5" in root.find(f"{NS}desc").text
    text, _ = picture(a, match_id, match.version)
    assert "Finished (forfeit)" in text


def test_past_nibble_positions_and_their_bounds(client_for, alice, bob, carol):
    a, b, c = client_for(alice), client_for(bob), client_for(carol)
    match_id = start(a, b, "nibble")
    for _ in range(3):
        act({0: a, 1: b}, match_id, "nibble")
    assert_error(a.get(board_url(match_id, 0)), 409, "replay_not_available")
    assert_error(c.get(board_url(match_id, 0)), 404, "not_found")  # hidden beats the rest
    assert a.post(match_url(match_id, "resign")).status_code == 200
    for seq, left in ((0, 81), (1, 80), (3, 78), (4, 78)):
        _, root = picture(c, match_id, seq)
        assert len(root.findall(f".//{NS}g[@class='disc']")) == left
    body = assert_error(a.get(board_url(match_id, 5)), 400, "validation_error")
    assert "seq" in body["extra"]["fields"]
    for bad in (-1, "x", "1.5", "", "99999999999999999999"):
        assert_error(a.get(board_url(match_id, bad)), 400, "validation_error")


# --------------------------------------------------------------------------- HTTP details


def test_etag_revalidation_and_headers(client_for, alice, bob):
    a, b = client_for(alice), client_for(bob)
    match_id = start(a, b, "nibble", config={"first_seat": 0})
    first = a.get(board_url(match_id))
    etag = first["ETag"]
    assert first["Cache-Control"] == "private, no-cache"
    assert "default-src 'none'" in first["Content-Security-Policy"]
    again = a.get(board_url(match_id), headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == etag
    act({0: a, 1: b}, match_id, "nibble")
    moved = a.get(board_url(match_id), headers={"If-None-Match": etag})
    assert moved.status_code == 200 and moved["ETag"] != etag
    assert a.post(match_url(match_id, "resign")).status_code == 200
    past = a.get(board_url(match_id, 0))
    assert past["ETag"].endswith('-seq0"') and past["ETag"] != a.get(board_url(match_id))["ETag"]
    assert past["Cache-Control"].startswith("private, max-age=")
    assert a.get(board_url(match_id, 0),
                 headers={"If-None-Match": f'W/{past["ETag"]}'}).status_code == 304


@pytest.mark.parametrize("game", sorted(games()))
def test_a_player_on_vacation_is_marked_and_the_etag_follows(client_for, alice, bob, game):
    a, b = client_for(alice), client_for(bob)
    match_id = start(a, b, game)
    before = a.get(board_url(match_id))
    assert b"(on vacation)" not in before.content
    vacation_start(user=bob)
    marked = a.get(board_url(match_id), headers={"If-None-Match": before["ETag"]})
    assert marked.status_code == 200 and marked["ETag"] != before["ETag"]
    # The picture's validator carries the same marks as the detail's.
    assert marked["ETag"] == f'{a.get(match_url(match_id))["ETag"][:-1]}-svg1"'
    text = marked.content.decode("utf-8")
    assert "bob (on vacation)" in text and "alice (on vacation)" not in text
    # The title and description say it too, for screen readers.
    root = ET.fromstring(marked.content)
    assert "bob (on vacation)" in root.find(f"{NS}title").text + root.find(f"{NS}desc").text
    again = a.get(board_url(match_id), headers={"If-None-Match": marked["ETag"]})
    assert again.status_code == 304
    vacation_end(user=bob)
    back = a.get(board_url(match_id), headers={"If-None-Match": marked["ETag"]})
    assert back.status_code == 200 and b"(on vacation)" not in back.content


def test_a_past_position_marks_nobody(client_for, alice, bob):
    a, b = client_for(alice), client_for(bob)
    match_id = start(a, b, "nibble", config={"first_seat": 0})
    act({0: a, 1: b}, match_id, "nibble")
    assert a.post(match_url(match_id, "resign")).status_code == 200
    past_before = a.get(board_url(match_id, 1))
    vacation_start(user=bob)
    past, past_text = a.get(board_url(match_id, 1)), picture(a, match_id, 1)[0]
    assert past["ETag"] == past_before["ETag"] and past.content == past_before.content
    assert "(on vacation)" not in past_text
    assert b"bob (on vacation)" in a.get(board_url(match_id)).content


def test_errors_are_the_json_envelope_whatever_the_client_accepts(client_for, alice, api_client):
    a = client_for(alice)
    open_match = create_match(a)["id"]
    assert_error(a.get(board_url(open_match)), 409, "match_not_started")
    missing = "00000000-0000-0000-0000-000000000000"
    assert_error(a.get(board_url(missing), headers={"Accept": "image/svg+xml"}), 404,
                 "not_found")
    # An open match is public: a visitor is told the same; a refused token is a 401.
    assert_error(api_client.get(board_url(open_match)), 409, "match_not_started")
    assert_error(api_client.get(board_url(open_match),
                                HTTP_AUTHORIZATION="Token bp_not-a-real-key"),
                 401, "authentication_failed")


def test_any_accept_header_gets_the_picture(client_for, alice, bob):
    a, b = client_for(alice), client_for(bob)
    match_id = start(a, b, "nimble")
    for accept in ("application/json", "image/avif,image/webp,*/*;q=0.8", "image/svg+xml"):
        picture(a, match_id, **{"Accept": accept})
    # Unknown parameters are refused, as everywhere in the API.
    body = assert_error(a.get(board_url(match_id) + "?format=json"), 400, "validation_error")
    assert body["extra"]["fields"] == {"format": ["Unknown field."]}


def test_the_endpoint_is_in_the_schema(api_client):
    response = api_client.get("/api/schema", headers={"Accept": "application/json"})
    assert response.status_code == 200
    text = response.content.decode()
    assert "/api/matches/{match_id}/board.svg" in text
    assert "matches_board_svg" in text and "image/svg+xml" in text
