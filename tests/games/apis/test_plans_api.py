"""The plan endpoints (GET/PUT/DELETE /api/matches/{id}/plan), the plan on a move, the plans
option of a new match, and moves by plan in the log: coded errors, never a 500."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.catalog import get_engine
from games.kit.protocol import apply_checked
from tests.games.helpers import create_match
from tests.games.matchplay import assert_error, match_url, start_nibble_match, submit

pytestmark = pytest.mark.django_db

NIBBLE = get_engine("nibble")


def legal(state, seat) -> list[dict]:
    return [NIBBLE.dump_move(move) for move in NIBBLE.legal_moves(state, seat)]


def position(nibble):
    from games.models import Match

    return NIBBLE.load(Match.objects.get(id=nibble.id).state)


def after(state, seat, move):
    return apply_checked(NIBBLE, state, seat, NIBBLE.parse_move(move)).state


def put_plan(client, match_id, plan, version):
    return client.put(match_url(match_id, "plan"), {"plan": plan, "expected_version": version},
                      format="json")


def test_the_owner_saves_reads_and_deletes_a_plan(nibble):
    state = position(nibble)
    key = legal(state, 0)[0]
    reply = legal(after(state, 0, key), 1)[0]
    saved = put_plan(nibble.b, nibble.id, [{"on": key, "reply": [reply]}], 0)
    assert saved.status_code == 200, saved.json()
    expected = {"plan": [{"on": key, "reply": [reply], "then": []}], "plan_version": 0,
                "version": 0}
    assert saved.json() == expected
    assert nibble.b.get(match_url(nibble.id, "plan")).json() == expected
    assert nibble.a.get(match_url(nibble.id, "plan")).json() == {
        "plan": [], "plan_version": None, "version": 0}
    assert nibble.b.delete(match_url(nibble.id, "plan")).status_code == 204
    assert nibble.b.get(match_url(nibble.id, "plan")).json()["plan"] == []


def test_a_stranger_or_a_visitor_gets_a_404(nibble, client_for, carol, api_client):
    assert_error(client_for(carol).get(match_url(nibble.id, "plan")), 404, "not_found")
    assert_error(put_plan(client_for(carol), nibble.id, [], 0), 404, "not_found")
    assert api_client.get(match_url(nibble.id, "plan")).status_code in (401, 403)


@pytest.mark.parametrize("body, status, code", [
    ("stale", 409, "plan_stale"),
    ("own_turn", 409, "plan_not_waiting"),
    ("bad_key", 422, "plan_illegal_key"),
    ("bad_reply", 422, "plan_illegal_reply"),
    ("malformed", 400, "plan_malformed"),
    ("too_large", 400, "plan_too_large"),
    ("no_version", 400, "validation_error"),
])
def test_every_refusal_is_a_coded_error(nibble, body, status, code):
    state = position(nibble)
    key = legal(state, 0)[0]
    client, plan, version = nibble.b, [{"on": key}], 0
    if body == "stale":
        version = 3
    elif body == "own_turn":
        client = nibble.a
    elif body == "bad_key":
        plan = [{"on": {"take": [[99, 99]]}}]
    elif body == "bad_reply":
        plan = [{"on": key, "reply": [{"take": [[99, 99]]}]}]
    elif body == "malformed":
        plan = [{"on": key, "extra": 1}]
    elif body == "too_large":
        plan = [{"on": key, "reply": [{"pad": "x" * 2000}]}]
    if body == "no_version":
        response = client.put(match_url(nibble.id, "plan"), {"plan": plan}, format="json")
    else:
        response = put_plan(client, nibble.id, plan, version)
    answer = assert_error(response, status, code)
    if code.startswith("plan_"):
        assert "path" in answer["extra"]
    assert nibble.b.get(match_url(nibble.id, "plan")).json()["plan"] == []


def test_plan_errors_are_told_in_the_callers_language(nibble):
    key = legal(position(nibble), 0)[0]
    with translation.override("fr"):
        response = nibble.b.put(match_url(nibble.id, "plan"),
                                {"plan": [{"on": key}], "expected_version": 2}, format="json",
                                headers={"Accept-Language": "fr"})
    body = assert_error(response, 409, "plan_stale")
    assert body["message"] != "The match has moved on since this plan was made."


def test_a_match_created_without_plans_refuses_them(client_for, alice, bob):
    match = start_nibble_match(client_for(alice), client_for(bob), plans=False)
    assert match.detail()["plans"] is False
    key = legal(position(match), 0)[0]
    assert_error(put_plan(match.b, match.id, [{"on": key}], 0), 409, "plans_unavailable")


def test_a_new_match_allows_plans_by_default(client_for, alice):
    assert create_match(client_for(alice))["plans"] is True


def test_a_planned_reply_is_played_and_marked_in_the_log_for_every_seat(nibble):
    state = position(nibble)
    key = legal(state, 0)[0]
    reply = legal(after(state, 0, key), 1)[0]
    assert put_plan(nibble.b, nibble.id, [{"on": key, "reply": [reply]}], 0).status_code == 200
    answer = submit(nibble.a, nibble.id, key, 0)
    assert answer.status_code == 201
    assert answer.json()["seq"] == 1 and answer.json()["match"]["version"] == 2
    for client in (nibble.a, nibble.b):
        log = client.get(match_url(nibble.id, "moves")).json()["moves"]
        assert [(m["seat"], m["by_plan"]) for m in log] == [(0, False), (1, True)]
        assert log[1]["payload"] == reply


def test_a_move_carries_the_movers_plan_atomically(nibble):
    state = position(nibble)
    move = legal(state, 0)[0]
    key = legal(after(state, 0, move), 1)[0]
    refused = nibble.a.post(match_url(nibble.id, "moves"),
                            {"move": move, "plan": [{"on": {"take": [[99, 99]]}}]},
                            format="json")
    assert_error(refused, 422, "plan_illegal_key")
    assert nibble.detail()["version"] == 0
    done = nibble.a.post(match_url(nibble.id, "moves"),
                         {"move": move, "expected_version": 0, "plan": [{"on": key}]},
                         format="json")
    assert done.status_code == 201, done.json()
    assert nibble.a.get(match_url(nibble.id, "plan")).json() == {
        "plan": [{"on": key, "reply": [], "then": []}], "plan_version": 1, "version": 1}


def test_a_dry_run_takes_no_plan(nibble):
    move = legal(position(nibble), 0)[0]
    response = nibble.a.post(match_url(nibble.id, "moves/preview"),
                             {"move": move, "plan": []}, format="json")
    assert_error(response, 400, "validation_error")


def test_a_retried_move_with_a_plan_is_answered_once(nibble):
    state = position(nibble)
    move = legal(state, 0)[0]
    key = legal(after(state, 0, move), 1)[0]
    body = {"move": move, "expected_version": 0, "plan": [{"on": key}]}
    first = nibble.a.post(match_url(nibble.id, "moves"), body, format="json",
                          headers={"Idempotency-Key": "k1"})
    again = nibble.a.post(match_url(nibble.id, "moves"), body, format="json",
                          headers={"Idempotency-Key": "k1"})
    assert first.status_code == again.status_code == 201 and first.content == again.content
    other = nibble.a.post(match_url(nibble.id, "moves"), {**body, "plan": []}, format="json",
                          headers={"Idempotency-Key": "k1"})
    assert_error(other, 409, "idempotency_key_reused")


def test_an_opening_saved_during_ones_turn_is_pruned_by_the_move_made(nibble):
    state = position(nibble)
    mine = legal(state, 0)[0]
    key = legal(after(state, 0, mine), 1)[0]
    reply = legal(after(after(state, 0, mine), 1, key), 0)[0]
    opening = [{"mine": [mine], "then": [{"on": key, "reply": [reply]}]}]
    assert_error(put_plan(nibble.b, nibble.id, opening, 0), 409, "plan_not_your_turn")
    saved = put_plan(nibble.a, nibble.id, opening, 0)
    assert saved.status_code == 200, saved.json()
    assert saved.json()["plan"] == [{"mine": [mine], "then": [
        {"on": key, "reply": [reply], "then": []}]}]
    assert submit(nibble.a, nibble.id, mine, 0).status_code == 201
    assert nibble.a.get(match_url(nibble.id, "plan")).json() == {
        "plan": [{"on": key, "reply": [reply], "then": []}], "plan_version": 1, "version": 1}
    assert submit(nibble.b, nibble.id, key, 1).status_code == 201
    log = nibble.b.get(match_url(nibble.id, "moves")).json()["moves"]
    assert [(m["seat"], m["by_plan"]) for m in log] == [(0, False), (1, False), (0, True)]


def test_an_opening_takes_no_nimble_flip(client_for, alice, bob):
    created = create_match(client_for(alice), game="nimble")
    assert client_for(bob).post(match_url(created["id"], "join"), {},
                                format="json").status_code == 200
    detail = client_for(alice).get(match_url(created["id"])).json()
    mover = client_for((alice, bob)[detail["to_act"][0]])
    refused = put_plan(mover, created["id"], [{"mine": [{"action": "flip"}]}],
                       detail["version"])
    body = assert_error(refused, 422, "plan_unreachable")
    assert body["extra"] == {"path": [0, "mine", 0], "reason": "revealed"}


def test_a_real_time_match_never_takes_a_plan(client_for, alice, bob):
    created = create_match(client_for(alice), game="nimble", config={"mode": "race"})
    assert created["plans"] is True
    assert client_for(bob).post(match_url(created["id"], "join"), {},
                                format="json").status_code == 200
    version = client_for(alice).get(match_url(created["id"])).json()["version"]
    for client in (client_for(alice), client_for(bob)):
        for plan in ([{"on": {"action": "end_turn"}}], [{"mine": [{"action": "end_turn"}]}]):
            assert_error(put_plan(client, created["id"], plan, version), 409,
                         "plans_unavailable")
