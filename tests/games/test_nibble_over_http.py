"""Two people who have never met register, start a Nibble match and play it to the end."""

import pytest

from games.models import Match, Move
from tests.games.helpers import first_nibble_take

pytestmark = pytest.mark.django_db


def _register(api_client, username):
    response = api_client.post("/api/auth/register",
                               {"username": username, "password": "a-long-secret-42"},
                               format="json")
    assert response.status_code == 201, response.json()
    return response.json()["token"]


def test_two_strangers_play_a_whole_match(api_client):
    from rest_framework.test import APIClient

    clients = {}
    for name in ("ada", "grace"):
        token = _register(api_client, name)
        clients[name] = APIClient()
        clients[name].credentials(HTTP_AUTHORIZATION=f"Token {token}")

    created = clients["ada"].post("/api/matches", {"game": "nibble"}, format="json")
    assert created.status_code == 201, created.json()
    match_id = created.json()["id"]
    assert created.json()["status"] == "open"

    open_list = clients["grace"].get("/api/matches?scope=open").json()
    assert [m["id"] for m in open_list["results"]] == [match_id]
    joined = clients["grace"].post(f"/api/matches/{match_id}/join")
    assert joined.status_code == 200, joined.json()
    assert joined.json()["status"] == "active"

    seat_of = {"ada": 0, "grace": 1}
    for _ in range(200):
        detail = clients["ada"].get(f"/api/matches/{match_id}").json()
        if detail["status"] != "active":
            break
        mover = next(name for name, seat in seat_of.items() if seat in detail["to_act"])
        mine = clients[mover].get(f"/api/matches/{match_id}").json()
        assert mine["is_your_turn"]
        move = first_nibble_take(mine["legal_moves"])
        response = clients[mover].post(f"/api/matches/{match_id}/moves",
                                       {"move": move, "expected_version": mine["version"]},
                                       format="json")
        assert response.status_code == 201, response.json()
    final = clients["grace"].get(f"/api/matches/{match_id}").json()
    assert final["status"] == "finished"
    match = Match.objects.get(id=match_id)
    winners = final["outcome"]["winners"]
    assert len(winners) == 1
    assert [s["rank"] for s in final["seats"]] == [1 if s["index"] in winners else 2
                                                    for s in final["seats"]]
    assert final["seed"] == match.seed
    assert Move.objects.filter(match=match).count() == match.version
    assert list(Move.objects.filter(match=match).values_list("seq", flat=True)) == list(
        range(1, match.version + 1))
