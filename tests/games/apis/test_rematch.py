"""After a match: the rating change in the match detail, and a rematch (same players and
options, seats swapped), made once however often it is asked for."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import Match
from games.services import match_rate
from tests.factories import BotFactory
from tests.games.matchplay import assert_error, match_url, start_nibble_match

pytestmark = pytest.mark.django_db


def finish(match) -> None:
    match.play_one()
    response = match.a.post(match_url(match.id, "resign"))
    assert response.status_code == 200 and response.json()["status"] == "finished"


def test_the_detail_shows_each_seats_rating_change_once_rated(nibble):
    finish(nibble)
    first = nibble.a.get(match_url(nibble.id))
    assert first.json()["rating_changes"] == []
    assert match_rate(match_id=nibble.id)
    again = nibble.a.get(match_url(nibble.id), headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 200  # rated since: a new ETag
    changes = again.json()["rating_changes"]
    assert [(c["seat"], c["username"]) for c in changes] == [(0, "alice"), (1, "bob")]
    for change in changes:
        assert change["change"] == change["rating_after"] - change["rating_before"]
    assert changes[0]["change"] < 0 < changes[1]["change"]  # alice resigned
    assert APIClient().get(match_url(nibble.id)).json()["rating_changes"] == changes


def test_an_unrated_match_has_no_rating_change(client_for, alice, bob):
    match = start_nibble_match(client_for(alice), client_for(bob), rated=False)
    finish(match)
    match_rate(match_id=match.id)
    assert match.detail()["rating_changes"] == []


def test_a_rematch_swaps_the_seats_and_keeps_the_options(client_for, alice, bob):
    match = start_nibble_match(client_for(alice), client_for(bob),
                               config={"early_finish": True},
                               time_control={"days_per_turn": 2})
    finish(match)
    response = match.a.post(match_url(match.id, "rematch"))
    assert response.status_code == 201, response.json()
    rematch = response.json()
    assert rematch["status"] == "open" and rematch["rematch_of"] == match.id
    assert [(s["player"]["username"], s["joined"]) for s in rematch["seats"]] == [
        ("bob", False), ("alice", True)]
    assert rematch["your_seat"] == 1 and rematch["config"] == {"first_seat": 0,
                                                               "early_finish": True}
    assert rematch["rated"] is True and rematch["turn_seconds"] == 2 * 86400
    assert match.detail()["rematch"] == rematch["id"]
    # Asked again, by either player: the same match; bob's ask accepts his invitation.
    again = match.a.post(match_url(match.id, "rematch"))
    assert again.status_code == 200 and again.json()["id"] == rematch["id"]
    accepted = match.b.post(match_url(match.id, "rematch"))
    assert accepted.status_code == 200 and accepted.json()["id"] == rematch["id"]
    assert accepted.json()["status"] == "active" and accepted.json()["your_seat"] == 0
    assert match.b.post(match_url(match.id, "rematch")).json()["status"] == "active"
    assert Match.objects.filter(rematch_of_id=match.id).count() == 1
    invited = match.b.get("/api/me/events?after=0").json()["events"]
    assert [e["match"] for e in invited if e["type"] == "invited"] == [rematch["id"]]


def test_a_rematch_against_a_bot_starts_at_once(client_for, alice):
    BotFactory(bot_game="nibble", bot_level=2)
    client = client_for(alice)
    created = client.post("/api/matches", {"game": "nibble", "config": {"first_seat": 0},
                                           "seats": [{"kind": "me"},
                                                     {"kind": "bot", "level": 2}]},
                          format="json").json()
    client.post(match_url(created["id"], "resign"))
    rematch = client.post(match_url(created["id"], "rematch")).json()
    assert rematch["status"] == "active"
    assert [s["player"]["username"] for s in rematch["seats"]] == ["nibble-bot-2", "alice"]


def test_a_rematch_is_refused_where_it_cannot_be(nibble, client_for, carol):
    assert_error(nibble.a.post(match_url(nibble.id, "rematch")), 409, "rematch_not_available",
                 match_status="active")
    finish(nibble)
    assert_error(client_for(carol).post(match_url(nibble.id, "rematch")), 403,
                 "permission_denied")
    assert_error(nibble.a.post(match_url("00000000-0000-0000-0000-000000000000", "rematch")),
                 404, "not_found")
    assert_error(nibble.a.post("/api/matches/not-a-uuid/rematch"), 404, "not_found")
    assert not Match.objects.filter(rematch_of_id=nibble.id).exists()


def test_an_aborted_match_has_no_rematch(client_for, alice):
    client = client_for(alice)
    created = client.post("/api/matches", {"game": "nibble"}, format="json").json()
    client.post(match_url(created["id"], "abort"))
    assert_error(client.post(match_url(created["id"], "rematch")), 409, "rematch_not_available")
