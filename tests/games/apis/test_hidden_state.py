"""The seed and the raw server state never leave the server while a match runs."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.catalog import get_engine
from games.models import Match
from tests.games.helpers import create_match, first_nibble_take
from tests.games.matchplay import match_url, submit

pytestmark = pytest.mark.django_db


class Recorder:
    """Wraps API clients and keeps every response body they receive."""

    def __init__(self) -> None:
        self.bodies: list[tuple[str, str, bytes]] = []

    def wrap(self, client):
        recorder = self
        for method in ("get", "post"):
            original = getattr(client, method)

            def call(path, *args, _original=original, _method=method, **kwargs):
                response = _original(path, *args, **kwargs)
                recorder.bodies.append((_method, path, response.content))
                return response

            setattr(client, method, call)
        return client


def _keys(data: Any) -> set[str]:
    found: set[str] = set()
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            found.update(value)
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return found


def _assert_no_secrets(bodies, match: Match, forbidden_keys: set[str]) -> None:
    dump = match.state
    secrets = {match.seed}
    for key in forbidden_keys & set(dump):
        secrets.add(json.dumps(dump[key], separators=(",", ":")))
    assert bodies
    for method, path, content in bodies:
        text = content.decode()
        for secret in secrets:
            assert secret not in text.replace(" ", ""), (method, path, secret[:40])
        data = json.loads(text) if text else None
        keys = _keys(data)
        assert "state" not in keys, (method, path)
        assert not keys & forbidden_keys, (method, path, keys & forbidden_keys)
        if isinstance(data, dict) and "seed" in data:
            assert data["seed"] is None, (method, path)


def _poll_everything(client, match_id: str) -> None:
    client.get(match_url(match_id))
    client.get(match_url(match_id, "moves"))
    client.get("/api/matches")
    client.get("/api/matches?scope=all")
    client.get("/api/me/inbox")


def test_nibble_seed_never_leaves_the_server_while_the_match_runs(client_for, alice, bob):
    recorder = Recorder()
    a, b = recorder.wrap(client_for(alice)), recorder.wrap(client_for(bob))
    match_id = create_match(a)["id"]
    b.post(match_url(match_id, "join"))
    clients = {0: a, 1: b}
    previewed_end = False
    for _ in range(200):
        detail = a.get(match_url(match_id)).json()
        if detail["status"] != "active":
            break
        mover = clients[detail["to_act"][0]]
        mine = mover.get(match_url(match_id)).json()
        move = first_nibble_take(mine["legal_moves"])
        preview = mover.post(match_url(match_id, "moves/preview"), {"move": move},
                             format="json").json()
        if any(event["type"] == "match_ended" for event in preview["events"]):
            previewed_end = True
            assert preview["view"] is None  # a final view would reveal the seed
        submit(mover, match_id, {"take": []})  # an illegal move's error, too
        response = submit(mover, match_id, move, mine["version"],
                          **{"Idempotency-Key": f"m{mine['version']}"})
        submit(mover, match_id, move, mine["version"],
               **{"Idempotency-Key": f"m{mine['version']}"})  # a replay
        assert response.status_code == 201, response.json()
        if mine["version"] % 4 == 0:  # every endpoint, every few turns (each costs queries)
            for client in (a, b):
                _poll_everything(client, match_id)
    match = Match.objects.get(id=match_id)
    assert match.status == "finished" and previewed_end
    # The last answer (the winning move) ends the match and may reveal the seed; every
    # response before it must not.
    final = [i for i, (_, _, content) in enumerate(recorder.bodies)
             if match.seed in content.decode()]
    first_reveal = final[0]
    assert json.loads(recorder.bodies[first_reveal][2])["match"]["status"] == "finished"
    _assert_no_secrets(recorder.bodies[:first_reveal], match, set())
    # Once over, the seed is public.
    assert a.get(match_url(match_id)).json()["seed"] == match.seed


def test_nimble_hidden_piles_and_seed_stay_on_the_server(client_for, alice, bob):
    recorder = Recorder()
    a, b = recorder.wrap(client_for(alice)), recorder.wrap(client_for(bob))
    match_id = create_match(a, game="nimble")["id"]
    b.post(match_url(match_id, "join"))
    clients = {0: a, 1: b}
    for _ in range(12):
        detail = a.get(match_url(match_id)).json()
        if detail["status"] != "active" or not detail["to_act"]:
            break
        mover = clients[detail["to_act"][0]]
        mine = mover.get(match_url(match_id)).json()
        assert mine["legal_moves"], mine
        response = submit(mover, match_id, mine["legal_moves"][0], mine["version"])
        assert response.status_code == 201, response.json()
        for client in (a, b):
            _poll_everything(client, match_id)
    match = Match.objects.get(id=match_id)
    assert match.version > 0
    assert "sets" in match.state  # the hidden piles the views must not show
    _assert_no_secrets(recorder.bodies, match, {"sets", "revealed"})
    # Resigning ends the match; then everything may be revealed.
    a.post(match_url(match_id, "resign"))
    revealed = b.get(match_url(match_id)).json()
    assert revealed["seed"] == match.seed


def test_the_engine_dump_differs_from_every_view(client_for, alice, bob):
    """Guard for the scan above: the dumped state has keys no view has."""
    match_id = create_match(client_for(alice))["id"]
    client_for(bob).post(match_url(match_id, "join"))
    match = Match.objects.get(id=match_id)
    engine = get_engine("nibble")
    state = engine.load(match.state)
    for seat in (None, 0, 1):
        assert "seed" not in _keys(engine.view(state, seat))
