"""Playing over HTTP: submit, preview, the move log, resign, abort, idempotency, the inbox."""

from __future__ import annotations

import pytest

from games.models import IdempotencyRecord, Match, Move
from tests.games.helpers import create_match, first_nibble_take
from tests.games.matchplay import assert_error, match_url, start_nibble_match, submit

pytestmark = pytest.mark.django_db


def _two_colours(legal_moves):
    """Two takeable discs of different colours."""
    takeable = legal_moves["takeable"]
    colours = sorted(takeable, key=int)
    return [takeable[colours[0]][0], takeable[colours[1]][0]]


def _covered_disc(view):
    """A disc with no exposed side at the start: the middle of the full board."""
    assert view["board"][4][4] is not None
    return [4, 4]


# --------------------------------------------------------------------------- submit


def test_submit_records_the_move_and_answers_the_new_match(nibble):
    mine = nibble.detail(nibble.a)
    move = first_nibble_take(mine["legal_moves"])
    response = submit(nibble.a, nibble.id, move, expected_version=0)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert set(body) == {"seq", "events", "match"}
    assert body["seq"] == 1
    (cell,) = move["take"]
    colour = mine["view"]["board"][cell[0]][cell[1]]
    assert body["events"] == [{"type": "discs_taken", "seat": 0, "color": colour,
                               "cells": [cell]}]
    after = body["match"]
    assert after["version"] == 1 and after["to_act"] == [1] and after["is_your_turn"] is False
    assert after["legal_moves"] is None
    assert after["view"]["board"][cell[0]][cell[1]] is None
    assert after["view"]["collections"][0][colour] == 1
    row = Move.objects.get(match_id=nibble.id)
    assert (row.seq, row.kind, row.seat, row.payload) == (1, "move", 0, move)
    match = Match.objects.get(id=nibble.id)
    assert match.version == 1 and match.actors == [1]
    assert nibble.detail(nibble.b)["is_your_turn"] is True


def test_submit_without_expected_version_plays_against_the_latest_state(nibble):
    mine = nibble.detail(nibble.a)
    response = submit(nibble.a, nibble.id, first_nibble_take(mine["legal_moves"]))
    assert response.status_code == 201, response.json()


def test_submit_out_of_turn_is_refused(nibble):
    take = first_nibble_take(nibble.detail(nibble.a)["legal_moves"])
    assert_error(submit(nibble.b, nibble.id, take, expected_version=0), 409, "not_your_turn")
    assert_error(submit(nibble.b, nibble.id, take), 409, "not_your_turn")
    assert not Move.objects.exists()


@pytest.mark.parametrize("expected_version", [1, 7, 10**30])
def test_submit_against_a_stale_version_is_refused(nibble, expected_version):
    take = first_nibble_take(nibble.detail(nibble.a)["legal_moves"])
    assert_error(submit(nibble.a, nibble.id, take, expected_version=expected_version), 409,
                 "stale_version", current_version=0)
    assert not Move.objects.exists()


def test_stale_version_names_the_current_version(nibble):
    nibble.play_one()
    nibble.play_one()
    take = first_nibble_take(nibble.detail(nibble.a)["legal_moves"])
    assert_error(submit(nibble.a, nibble.id, take, expected_version=0), 409, "stale_version",
                 current_version=2)


@pytest.mark.parametrize("make_take, rule", [
    (lambda view, legal: [[4, 4]], "nibble.not_exposed"),
    (lambda view, legal: [[9, 0]], "nibble.off_board"),
    (lambda view, legal: [[-1, 3]], "nibble.off_board"),
    (lambda view, legal: [], "nibble.empty_take"),
    (lambda view, legal: [[0, 0], [0, 0]], "nibble.duplicate_cell"),
    (lambda view, legal: _two_colours(legal), "nibble.mixed_colours"),
])
def test_submit_an_illegal_move_names_the_rule(nibble, make_take, rule):
    mine = nibble.detail(nibble.a)
    take = make_take(mine["view"], mine["legal_moves"])
    response = submit(nibble.a, nibble.id, {"take": take}, expected_version=0)
    body = assert_error(response, 422, "illegal_move", rule=rule)
    assert "cells" in body["extra"]
    assert not Move.objects.exists()
    assert Match.objects.get(id=nibble.id).version == 0


def test_taking_a_disc_that_is_gone_is_illegal(nibble):
    first = nibble.play_one()
    (cell,) = first["events"][0]["cells"]
    assert_error(submit(nibble.b, nibble.id, {"take": [cell]}, expected_version=1), 422,
                 "illegal_move", rule="nibble.no_disc")


@pytest.mark.parametrize("move", [
    {},
    {"take": "a1"},
    {"take": [[0]]},
    {"take": [[0, 0, 0]]},
    {"take": [["0", 0]]},
    {"take": [[0.5, 0]]},
    {"take": [[True, 0]]},
    {"take": [None]},
    {"take": {"0": 0}},
    {"take": [[0, 0]], "also": 1},
    {"give": [[0, 0]]},
    [[0, 0]],
    "take 0 0",
    42,
    True,
])
def test_submit_a_malformed_move(nibble, move):
    assert_error(submit(nibble.a, nibble.id, move, expected_version=0), 400, "malformed_move")
    assert not Move.objects.exists()


@pytest.mark.parametrize("body, field", [
    ({}, "move"),
    ({"move": None}, "move"),
    ({"move": {"take": [[0, 0]]}, "expected_version": -1}, "expected_version"),
    ({"move": {"take": [[0, 0]]}, "expected_version": "zero"}, "expected_version"),
    ({"move": {"take": [[0, 0]]}, "expected_version": 0.5}, "expected_version"),
    ({"move": {"take": [[0, 0]]}, "seat": 0}, "seat"),
])
def test_submit_validates_the_envelope(nibble, body, field):
    response = nibble.a.post(match_url(nibble.id, "moves"), body, format="json")
    errors = assert_error(response, 400, "validation_error")["extra"]["fields"]
    assert field in errors, errors


def test_submit_by_a_player_who_is_not_seated_is_forbidden(client_for, alice, carol):
    created = create_match(client_for(alice))
    assert_error(submit(client_for(carol), created["id"], {"take": [[0, 0]]}), 403,
                 "permission_denied")


def test_submit_by_an_invited_player_who_has_not_joined_is_forbidden(client_for, alice, bob):
    created = create_match(client_for(alice), seats=[{"kind": "me"},
                                                     {"kind": "user", "username": "bob"}])
    assert_error(submit(client_for(bob), created["id"], {"take": [[0, 0]]}), 403,
                 "permission_denied")


def test_submit_before_the_match_starts(client_for, alice):
    created = create_match(client_for(alice))
    assert_error(submit(client_for(alice), created["id"], {"take": [[0, 0]]}), 409,
                 "match_not_started")


def test_submit_after_the_end_is_game_over(nibble):
    nibble.b.post(match_url(nibble.id, "resign"))
    take = {"take": [[0, 0]]}
    assert_error(submit(nibble.a, nibble.id, take), 409, "game_over")
    assert_error(submit(nibble.a, nibble.id, take, expected_version=1), 409, "game_over")
    assert_error(submit(nibble.b, nibble.id, take), 409, "game_over")
    assert_error(nibble.a.post(match_url(nibble.id, "moves/preview"), {"move": take},
                               format="json"), 409, "game_over")


def test_a_match_played_to_the_end_refuses_further_moves(nibble):
    for _ in range(200):
        if nibble.detail()["status"] != "active":
            break
        nibble.play_one()
    final = nibble.detail()
    assert final["status"] == "finished" and final["to_act"] == []
    assert final["outcome"]["reason"] in ("nine_of_a_colour", "three_adjacent_sevens",
                                          "majority_of_majorities", "decided")
    for client in (nibble.a, nibble.b):
        assert_error(submit(client, nibble.id, {"take": [[0, 0]]}), 409, "game_over")
        assert_error(submit(client, nibble.id, {"take": "x"}), 409, "game_over")
    assert Move.objects.filter(match_id=nibble.id).count() == final["version"]


# --------------------------------------------------------------------------- preview


def test_preview_is_a_dry_run(nibble):
    before = nibble.a.get(match_url(nibble.id))
    mine = before.json()
    move = first_nibble_take(mine["legal_moves"])
    response = nibble.a.post(match_url(nibble.id, "moves/preview"),
                             {"move": move, "expected_version": 0}, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert set(body) == {"legal", "reveals_hidden", "events", "view"}
    assert body["legal"] is True and body["reveals_hidden"] is False
    assert body["events"][0]["type"] == "discs_taken"
    (cell,) = move["take"]
    assert body["view"]["board"][cell[0]][cell[1]] is None
    assert "legal_moves" not in body["view"] and "seed" not in body["view"]
    # Nothing changed: same version, no move, the same ETag.
    assert not Move.objects.exists()
    assert Match.objects.get(id=nibble.id).version == 0
    again = nibble.a.get(match_url(nibble.id), headers={"If-None-Match": before["ETag"]})
    assert again.status_code == 304


def test_preview_answers_the_error_the_move_would_get(nibble, client_for, carol):
    url = match_url(nibble.id, "moves/preview")
    assert_error(nibble.a.post(url, {"move": {"take": [[4, 4]]}}, format="json"), 422,
                 "illegal_move", rule="nibble.not_exposed")
    assert_error(nibble.a.post(url, {"move": {"take": 1}}, format="json"), 400,
                 "malformed_move")
    assert_error(nibble.b.post(url, {"move": {"take": [[0, 0]]}}, format="json"), 409,
                 "not_your_turn")
    assert_error(nibble.a.post(url, {"move": {"take": [[0, 0]]}, "expected_version": 3},
                               format="json"), 409, "stale_version", current_version=0)
    assert_error(nibble.a.post(url, {"mv": {}}, format="json"), 400, "validation_error")
    assert_error(client_for(carol).post(url, {"move": {"take": [[0, 0]]}}, format="json"),
                 404, "not_found")
    assert not Move.objects.exists()


# --------------------------------------------------------------------------- log


def test_move_log_pages_with_after(nibble):
    played = [nibble.play_one() for _ in range(3)]
    response = nibble.b.get(match_url(nibble.id, "moves"))
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"moves", "next_after", "version"}
    assert body["version"] == 3 and body["next_after"] == 3
    assert [m["seq"] for m in body["moves"]] == [1, 2, 3]
    first = body["moves"][0]
    assert set(first) == {"seq", "kind", "seat", "player", "payload", "events", "by_plan",
                          "created_at"}
    assert first["by_plan"] is False
    assert first["kind"] == "move" and first["seat"] == 0
    assert first["player"] == {"username": "alice", "is_bot": False}
    assert first["payload"] == {"take": played[0]["events"][0]["cells"]}
    assert first["events"] == played[0]["events"]

    later = nibble.a.get(match_url(nibble.id, "moves") + "?after=1").json()
    assert [m["seq"] for m in later["moves"]] == [2, 3] and later["next_after"] == 3
    one = nibble.a.get(match_url(nibble.id, "moves") + "?after=1&limit=1").json()
    assert [m["seq"] for m in one["moves"]] == [2] and one["next_after"] == 2
    none = nibble.a.get(match_url(nibble.id, "moves") + "?after=3").json()
    assert none == {"moves": [], "next_after": 3, "version": 3}
    far = nibble.a.get(match_url(nibble.id, "moves") + f"?after={10**12}")
    assert far.status_code == 200 and far.json()["moves"] == []


@pytest.mark.parametrize("query, field", [
    ("after=-1", "after"),
    ("after=one", "after"),
    ("limit=0", "limit"),
    ("limit=501", "limit"),
    ("before=3", "before"),
])
def test_move_log_validates_its_query(nibble, query, field):
    response = nibble.a.get(match_url(nibble.id, "moves") + f"?{query}")
    assert field in assert_error(response, 400, "validation_error")["extra"]["fields"]


# --------------------------------------------------------------------------- resign and abort


def test_resign_in_a_two_player_match_lets_the_other_win(nibble):
    response = nibble.b.post(match_url(nibble.id, "resign"))
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["status"] == "finished" and body["finished_at"] is not None
    assert body["to_act"] == [] and body["legal_moves"] is None
    assert body["outcome"]["winners"] == [0] and body["outcome"]["reason"] == "forfeit"
    assert [(s["rank"], s["forfeited"]) for s in body["seats"]] == [(1, False), (2, True)]
    assert body["version"] == 1
    log = nibble.a.get(match_url(nibble.id, "moves")).json()["moves"]
    assert [(m["kind"], m["seat"], m["payload"]) for m in log] == [
        ("forfeit", 1, {"reason": "resigned"})]
    assert_error(nibble.b.post(match_url(nibble.id, "resign")), 409, "game_over")
    assert_error(nibble.a.post(match_url(nibble.id, "resign")), 409, "game_over")


def test_resign_by_the_player_to_move(nibble):
    nibble.play_one()
    body = nibble.a.post(match_url(nibble.id, "resign")).json()
    assert body["outcome"]["winners"] == [1]
    assert [s["rank"] for s in body["seats"]] == [2, 1]


def test_resign_before_the_start_or_without_a_seat(client_for, alice, carol):
    created = create_match(client_for(alice))
    assert_error(client_for(alice).post(match_url(created["id"], "resign")), 409,
                 "match_not_started")
    assert_error(client_for(carol).post(match_url(created["id"], "resign")), 403,
                 "permission_denied")


def test_abort_before_any_move(nibble):
    response = nibble.b.post(match_url(nibble.id, "abort"))
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["status"] == "aborted" and body["to_act"] == []
    assert body["outcome"] == {"reason": "aborted"}
    assert all(s["rank"] is None for s in body["seats"])
    assert_error(nibble.a.post(match_url(nibble.id, "abort")), 409, "game_over")
    assert_error(submit(nibble.a, nibble.id, {"take": [[0, 0]]}), 409, "game_over")


def test_abort_an_open_match(client_for, alice, carol):
    created = create_match(client_for(alice))
    assert_error(client_for(carol).post(match_url(created["id"], "abort")), 403,
                 "permission_denied")
    body = client_for(alice).post(match_url(created["id"], "abort")).json()
    assert body["status"] == "aborted"


def test_abort_is_refused_once_someone_has_moved(nibble):
    nibble.play_one()
    for client in (nibble.a, nibble.b):
        assert_error(client.post(match_url(nibble.id, "abort")), 409, "abort_not_allowed")
    assert Match.objects.get(id=nibble.id).status == "active"


# --------------------------------------------------------------------------- idempotency


def test_the_same_idempotency_key_twice_records_one_move(nibble):
    mine = nibble.detail(nibble.a)
    move = first_nibble_take(mine["legal_moves"])
    first = submit(nibble.a, nibble.id, move, 0, **{"Idempotency-Key": "move-1"})
    assert first.status_code == 201, first.json()
    second = submit(nibble.a, nibble.id, move, 0, **{"Idempotency-Key": "move-1"})
    assert second.status_code == 201, second.json()
    assert second.json() == first.json()
    assert second.content == first.content  # the very same bytes
    assert Move.objects.filter(match_id=nibble.id).count() == 1
    assert Match.objects.get(id=nibble.id).version == 1
    # The replay holds even after the match has moved on.
    nibble.play_one()
    third = submit(nibble.a, nibble.id, move, 0, **{"Idempotency-Key": "move-1"})
    assert third.status_code == 201 and third.content == first.content
    assert Move.objects.filter(match_id=nibble.id).count() == 2


def test_an_idempotency_key_reused_for_another_request_is_refused(nibble, client_for, alice,
                                                                   carol):
    legal = nibble.detail(nibble.a)["legal_moves"]
    move = first_nibble_take(legal)
    key = {"Idempotency-Key": "k"}
    assert submit(nibble.a, nibble.id, move, 0, **key).status_code == 201
    other = {"take": [_two_colours(legal)[1]]}
    assert_error(submit(nibble.a, nibble.id, other, 0, **key), 409, "idempotency_key_reused")
    assert_error(submit(nibble.a, nibble.id, move, None, **key), 409, "idempotency_key_reused")
    # The same key on another of alice's matches is a different request too.
    second = start_nibble_match(client_for(alice), client_for(carol))
    take = first_nibble_take(second.detail()["legal_moves"])
    assert_error(submit(second.a, second.id, take, 0, **key), 409, "idempotency_key_reused")
    assert Move.objects.filter(match_id=second.id).count() == 0
    assert IdempotencyRecord.objects.count() == 1


def test_idempotency_keys_belong_to_their_user(nibble):
    nibble.play_one()  # alice moved; now bob may use the same key for his own move
    assert submit(nibble.a, nibble.id, {"take": [[4, 4]]}, **{"Idempotency-Key": "x"}
                  ).status_code == 409  # not her turn: nothing is recorded for alice
    take = first_nibble_take(nibble.detail(nibble.b)["legal_moves"])
    response = submit(nibble.b, nibble.id, take, 1, **{"Idempotency-Key": "x"})
    assert response.status_code == 201, response.json()


def test_a_failed_request_does_not_burn_its_idempotency_key(nibble):
    key = {"Idempotency-Key": "retry-me"}
    assert_error(submit(nibble.a, nibble.id, {"take": [[4, 4]]}, 0, **key), 422,
                 "illegal_move")
    assert not IdempotencyRecord.objects.exists()


@pytest.mark.parametrize("key", ["", "k" * 256])
def test_idempotency_key_length_is_checked(nibble, key):
    take = first_nibble_take(nibble.detail(nibble.a)["legal_moves"])
    response = submit(nibble.a, nibble.id, take, 0, **{"Idempotency-Key": key})
    assert "Idempotency-Key" in assert_error(response, 400, "validation_error")["extra"][
        "fields"]
    assert not Move.objects.exists()


def test_idempotency_key_with_control_characters_is_refused(nibble):
    take = first_nibble_take(nibble.detail(nibble.a)["legal_moves"])
    response = submit(nibble.a, nibble.id, take, 0, **{"Idempotency-Key": "a\x00b"})
    assert_error(response, 400, "validation_error")
    assert not Move.objects.exists()


# --------------------------------------------------------------------------- inbox


def test_inbox_puts_my_turn_first_then_the_nearest_deadline(client_for, alice, bob, carol):
    a, b = client_for(alice), client_for(bob)
    no_clock_mine = start_nibble_match(a, b).id
    soon_theirs = start_nibble_match(b, a, time_control={"hours_per_turn": 1}).id
    late_mine = start_nibble_match(a, b, time_control={"hours_per_turn": 5}).id
    soon_mine = start_nibble_match(a, b, time_control={"hours_per_turn": 2}).id
    waiting = create_match(a)["id"]
    over = start_nibble_match(a, client_for(carol))
    over.b.post(match_url(over.id, "resign"))
    start_nibble_match(b, client_for(carol))  # not alice's

    response = a.get("/api/me/inbox")
    assert response.status_code == 200
    inbox = response.json()
    assert [m["id"] for m in inbox] == [soon_mine, late_mine, no_clock_mine, soon_theirs,
                                        waiting]
    assert [m["is_your_turn"] for m in inbox] == [True, True, True, False, False]
    assert inbox[0]["deadline"] < inbox[1]["deadline"]
    assert all("view" not in m for m in inbox)


def test_inbox_needs_credentials(api_client):
    assert_error(api_client.get("/api/me/inbox"), 401, "not_authenticated")
