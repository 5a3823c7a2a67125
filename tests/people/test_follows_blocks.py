"""Follows and friends, blocks, and who may invite whom: the lists, the invitation setting on
invitations and rematch offers, and blocks on invitations and open seats."""

from __future__ import annotations

import pytest

from accounts.blocks import pairs_to_avoid
from tests.games.helpers import create_match
from tests.games.matchplay import assert_error, match_url, start_nibble_match

pytestmark = pytest.mark.django_db


def _names(response) -> list[tuple[str, bool]]:
    assert response.status_code == 200, response.json()
    return [(p["username"], p["friend"]) for p in response.json()["people"]]


def test_follow_one_way_and_friends_both_ways(client_for, alice, bob, carol):
    a, b = client_for(alice), client_for(bob)
    assert a.put("/api/me/following/bob").status_code == 204
    assert a.put("/api/me/following/BOB").status_code == 204  # again: nothing changes
    assert a.put("/api/me/following/carol").status_code == 204
    assert _names(a.get("/api/me/following")) == [("bob", False), ("carol", False)]
    assert _names(b.get("/api/me/followers")) == [("alice", False)]
    assert _names(a.get("/api/me/friends")) == []
    assert b.put("/api/me/following/alice").status_code == 204
    assert _names(a.get("/api/me/friends")) == [("bob", True)]
    assert _names(b.get("/api/me/friends")) == [("alice", True)]
    assert _names(a.get("/api/me/following")) == [("bob", True), ("carol", False)]
    assert a.delete("/api/me/following/bob").status_code == 204
    assert _names(b.get("/api/me/friends")) == []


def test_following_refusals(client_for, alice, make_user):
    a = client_for(alice)
    assert_error(a.put("/api/me/following/alice"), 400, "cannot_follow_self")
    assert_error(a.put("/api/me/following/nobody"), 404, "not_found")
    make_user(username="gone", is_active=False)
    assert_error(a.put("/api/me/following/gone"), 404, "not_found")
    assert_error(a.put("/api/me/blocks/alice", {}, format="json"), 400, "cannot_block_self")


def test_blocks_list_switches_and_unblock(client_for, alice, bob):
    a = client_for(alice)
    made = a.put("/api/me/blocks/bob", {"chat": False}, format="json")
    assert made.status_code == 200
    assert (made.json()["games"], made.json()["chat"]) == (True, False)
    listed = a.get("/api/me/blocks").json()["blocks"]
    assert [(b["username"], b["games"], b["chat"]) for b in listed] == [("bob", True, False)]
    a.put("/api/me/blocks/bob", {"games": False, "chat": True}, format="json")
    assert a.get("/api/me/blocks").json()["blocks"][0]["games"] is False
    assert_error(a.put("/api/me/blocks/bob", {"games": "maybe"}, format="json"), 400,
                 "validation_error")
    assert a.delete("/api/me/blocks/bob").status_code == 204
    assert a.get("/api/me/blocks").json()["blocks"] == []


def _invite(client, username: str):
    return client.post("/api/matches", {"game": "nibble", "seats": [
        {"kind": "me"}, {"kind": "user", "username": username}]}, format="json")


@pytest.mark.parametrize(("setting", "friends", "allowed"), [
    ("everyone", False, True), ("friends", False, False), ("friends", True, True),
    ("nobody", False, False), ("nobody", True, False)])
def test_the_invitation_setting(client_for, alice, bob, setting, friends, allowed):
    a, b = client_for(alice), client_for(bob)
    assert b.patch("/api/me/settings", {"invitations": setting},
                   format="json").json()["invitations"] == setting
    if friends:
        a.put("/api/me/following/bob")
        b.put("/api/me/following/alice")
    response = _invite(a, "bob")
    if allowed:
        assert response.status_code == 201
    else:
        body = assert_error(response, 403, "not_accepting_invitations", seat=1)
        assert body["message"] == "This player is not accepting invitations."


def test_a_block_refuses_invitations_exactly_as_the_setting_does(client_for, alice, bob,
                                                                  carol):
    a, b, c = client_for(alice), client_for(bob), client_for(carol)
    c.patch("/api/me/settings", {"invitations": "nobody"}, format="json")
    by_setting = _invite(a, "carol")
    b.put("/api/me/blocks/alice", {"chat": False}, format="json")
    by_block = _invite(a, "bob")
    assert by_block.status_code == by_setting.status_code == 403
    assert by_block.json() == by_setting.json()
    # The blocker who invites the blocked player is told why.
    assert_error(_invite(b, "alice"), 409, "player_blocked", seat=1)
    # A chat-only block keeps invitations open.
    b.put("/api/me/blocks/alice", {"games": False, "chat": True}, format="json")
    assert _invite(a, "bob").status_code == 201


def _finished(a, b):
    match = start_nibble_match(a, b)
    match.play_one()
    assert match.a.post(match_url(match.id, "resign")).status_code == 200
    return match


def test_a_rematch_offer_is_an_invitation(client_for, alice, bob):
    a, b = client_for(alice), client_for(bob)
    match = _finished(a, b)
    b.patch("/api/me/settings", {"invitations": "nobody"}, format="json")
    assert_error(a.post(match_url(match.id, "rematch")), 403, "not_accepting_invitations")
    # Bob asking for it himself invites alice, who takes invitations.
    assert b.post(match_url(match.id, "rematch")).status_code == 201


def test_a_blocked_player_never_sits_down_in_an_open_seat(client_for, alice, bob, carol):
    a, b, c = client_for(alice), client_for(bob), client_for(carol)
    lobby = create_match(a, rated=False)
    a.put("/api/me/blocks/bob", {"chat": False}, format="json")
    before = c.post(match_url(create_match(a, rated=False)["id"], "join"))
    refused = b.post(match_url(lobby["id"], "join"))
    # The answer of a match whose seat someone took first: nothing about the block.
    assert_error(refused, 409, "match_full")
    assert before.status_code == 200
    # The blocker joining the blocked player's open match is told why.
    theirs = create_match(b, rated=False)
    assert_error(a.post(match_url(theirs["id"], "join")), 409, "player_blocked")
    assert c.post(match_url(lobby["id"], "join")).status_code == 200


def test_pairs_to_avoid(client_for, alice, bob, carol, dave):
    client_for(alice).put("/api/me/blocks/bob", {}, format="json")
    client_for(carol).put("/api/me/blocks/alice", {"games": False}, format="json")
    client_for(dave).put("/api/me/blocks/carol", {}, format="json")
    ids = [alice.pk, bob.pk, carol.pk]
    assert pairs_to_avoid(ids) == {frozenset((alice.pk, bob.pk))}
    assert pairs_to_avoid([*ids, dave.pk]) == {frozenset((alice.pk, bob.pk)),
                                               frozenset((carol.pk, dave.pk))}
