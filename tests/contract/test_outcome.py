"""A match's outcome carries every result field, the Nimalia solo title included: the match
list, the match detail, the final view and the match_ended event show the same one."""

from __future__ import annotations

import random

from games.catalog import game
from games.services.system import match_system_step_run
from tests.games.helpers import create_match
from tests.games.matchplay import match_url


def test_a_nimalia_solo_title_is_in_the_match_outcome(client_for, alice):
    client = client_for(alice)
    match = create_match(client, "nimalia", players=1)
    spec, rng = game("nimalia"), random.Random(7)
    ended = None
    for _ in range(200):
        detail = client.get(match_url(match["id"])).json()
        if detail["status"] != "active":
            break
        if not detail["is_your_turn"]:  # a round to score: the worker's task, run here
            match_system_step_run(match_id=match["id"], expected_version=detail["version"])
            continue
        view = {**detail["view"], "legal_moves": detail["legal_moves"]}
        move = spec.choose_move(1, view, 0, rng)
        answer = client.post(match_url(match["id"], "moves"),
                             {"move": move, "expected_version": detail["version"]},
                             format="json")
        assert answer.status_code == 201, answer.json()
        ended = next((event for event in answer.json()["events"]
                      if event["type"] == "match_ended"), ended)
    detail = client.get(match_url(match["id"])).json()
    assert detail["status"] == "finished"
    outcome = detail["outcome"]
    assert isinstance(outcome["title"], str) and outcome["title"]
    assert detail["view"]["outcome"] == outcome
    listed = client.get("/api/matches?status=finished").json()["results"]
    assert [m["outcome"] for m in listed if m["id"] == match["id"]] == [outcome]
    if ended is None:  # the last round is scored by a system step after the move
        log = client.get(match_url(match["id"], "moves") + "?limit=500").json()["moves"]
        ended = next(event for entry in log for event in entry["events"]
                     if event["type"] == "match_ended")
    assert {k: v for k, v in ended.items() if k != "type"} == outcome
