"""Nimble through the API: a race hammered by concurrent seats on PostgreSQL, and a whole
turn-mode match."""

from __future__ import annotations

import random
import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games.catalog import get_engine
from games.models import Match, Move
from games.nimble.engine import card_face
from tests.factories import UserFactory, token_for

ENGINE = get_engine("nimble")


def _client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    return client


def _start(users, config) -> str:
    clients = [_client(user) for user in users]
    seats = [{"kind": "me"}] + [{"kind": "user", "username": u.username} for u in users[1:]]
    response = clients[0].post("/api/matches", {"game": "nimble", "config": config,
                                                "seats": seats}, format="json")
    assert response.status_code == 201, response.json()
    match_id = response.json()["id"]
    for client in clients[1:]:
        assert client.post(f"/api/matches/{match_id}/join").status_code == 200
    return match_id


def _replay(match: Match):
    state = ENGINE.initial_state(num_players=match.num_players, config=match.config,
                                 seed=match.seed)
    for move in match.moves.order_by("seq"):
        assert move.kind == Move.Kind.MOVE
        state = ENGINE.apply(state, move.seat, ENGINE.parse_move(move.payload)).state
    return state


def _assert_stacks_legal(state) -> None:
    for stack in state.stacks:
        faces = [card_face(card) for card in stack]
        for below, above in zip(faces, faces[1:], strict=False):
            assert above["frame"] == below["circle"]


@pytest.mark.needs_postgresql("real row-lock concurrency needs PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_three_seat_race_hammering_one_stack_keeps_every_accepted_action():
    users = [UserFactory() for _ in range(3)]
    match_id = _start(users, {"mode": "race"})
    barrier = threading.Barrier(3)
    accepted: list[int] = []
    refused: list[tuple[int, str]] = []
    lock = threading.Lock()

    def hammer(seat: int) -> None:
        client = _client(users[seat])
        rng = random.Random(seat)
        barrier.wait()
        try:
            for _ in range(60):
                detail = client.get(f"/api/matches/{match_id}").json()
                if detail["status"] != "active":
                    return
                legal = detail["legal_moves"] or []
                places = [m for m in legal if m["action"] == "place"]
                # Everyone aims at the lowest stack they can, so placements collide.
                move = min(places, key=lambda m: m["stack"]) if places else rng.choice(
                    [m for m in legal if m["action"] != "place"] or legal)
                response = client.post(f"/api/matches/{match_id}/moves", {"move": move},
                                       format="json")
                with lock:
                    if response.status_code == 201:
                        accepted.append(response.json()["seq"])
                    else:
                        body = response.json()
                        assert response.status_code in (409, 422), body
                        assert set(body) == {"code", "message", "extra"}
                        refused.append((response.status_code, body["code"]))
        finally:
            connection.close()

    threads = [threading.Thread(target=hammer, args=(seat,)) for seat in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    match = Match.objects.get(id=match_id)
    seqs = list(match.moves.order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, match.version + 1)), "sequence numbers are gap-free"
    assert sorted(accepted) == seqs, "every accepted action is in the log, nothing else is"
    state = _replay(match)
    assert ENGINE.dump(state) == match.state, "the snapshot equals a replay of the log"
    _assert_stacks_legal(state)
    assert len(accepted) > 50


@pytest.mark.django_db
def test_a_turn_mode_match_is_played_to_the_end():
    users = [UserFactory() for _ in range(2)]
    clients = [_client(user) for user in users]
    match_id = _start(users, {"mode": "turns"})
    for _ in range(3000):
        detail = clients[0].get(f"/api/matches/{match_id}").json()
        if detail["status"] != "active":
            break
        seat = detail["to_act"][0]
        mine = clients[seat].get(f"/api/matches/{match_id}").json()
        legal = mine["legal_moves"]
        by_action = {m["action"]: m for m in legal}
        move = next((m for m in legal if m["action"] == "place"), None) or by_action.get(
            "flip") or by_action.get("recycle") or by_action["end_turn"]
        response = clients[seat].post(f"/api/matches/{match_id}/moves",
                                      {"move": move, "expected_version": mine["version"]},
                                      format="json")
        assert response.status_code == 201, response.json()
    final = clients[1].get(f"/api/matches/{match_id}").json()
    assert final["status"] == "finished"
    assert final["outcome"]["reason"] in {"finished", "deadlock", "stalemate"}
    assert "revealed" in final["view"]
    match = Match.objects.get(id=match_id)
    assert ENGINE.dump(_replay(match)) == match.state
