"""Chat and blocks are private where they must be: every answer a seat can get is byte for byte
the same whether or not spectators talked during the match; a shadow-banned player's lines
reach nobody but themselves; a blocked player's lines do not reach the blocker; and every
answer the blocked player can get is the same with the block as without it (the refusals the
rules require aside, which are those anyone could get: tests/people/test_follows_blocks.py).

Time stands still in each test, so answers that show clocks compare too."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
import time_machine

from games.people.models import Standing
from tests.games.helpers import create_match
from tests.games.matchplay import NibbleMatch, match_url

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def frozen() -> Iterator[None]:
    with time_machine.travel(datetime(2027, 3, 1, 12, tzinfo=UTC), tick=False):
        yield


def say(client, match_id: str, body: str) -> dict:
    response = client.post(match_url(match_id, "chat"), {"body": body}, format="json")
    assert response.status_code in (200, 201), response.json()
    return response.json()


def answers(client, match_id: str, *extra: str) -> list[tuple[str, int, bytes]]:
    """Everything the client can ask about the match, its chat, its feed and its people."""
    paths = [match_url(match_id), match_url(match_id, "chat"),
             match_url(match_id, "chat") + "?after=0&limit=1",
             match_url(match_id, "chat/events") + "?after=0&wait=0",
             match_url(match_id, "moves"), match_url(match_id, "events") + "?wait=0",
             "/api/me/events", "/api/me/inbox", "/api/matches?mine=true", "/api/matches",
             "/api/me/invitations", "/api/me/following", "/api/me/followers",
             "/api/me/friends", "/api/me/blocks", "/api/me/settings", *extra]
    got = []
    for path in paths:
        response = client.get(path)
        got.append((path, response.status_code, response.content))
    stream = client.get(match_url(match_id, "chat/stream"))
    got.append(("stream", stream.status_code,
                b"".join(stream) if stream.status_code == 200 else stream.content))
    return got


def assert_same(before, after) -> None:
    for one, two in zip(before, after, strict=True):
        assert one == two, one[0]


def test_seats_get_nothing_of_the_spectators_chat_while_the_match_runs(client_for, alice, bob,
                                                                       carol):
    a, b, c = (client_for(u) for u in (alice, bob, carol))
    match_id = create_match(a, config={"first_seat": 0})["id"]  # a seat open: in the lobby
    say(a, match_id, "anyone?")
    alice_before = answers(a, match_id)
    assert say(c, match_id, "carol watching")["room"] == "spectators"
    assert_same(alice_before, answers(a, match_id))
    assert b.post(match_url(match_id, "join")).status_code == 200
    match = NibbleMatch(id=match_id, a=a, b=b)
    match.play_one()
    say(b, match_id, "gl hf")
    for client in (a, b):
        for path, _, body in answers(client, match_id):
            assert b"carol" not in body, path
    match.play_one()
    assert match.a.post(match_url(match_id, "resign")).status_code == 200
    over = [line["body"] for line in a.get(match_url(match_id, "chat")).json()["lines"]]
    assert over == ["anyone?", "carol watching", "gl hf"]


@pytest.fixture
def lively(client_for, alice, bob, carol) -> NibbleMatch:
    """A running match of alice and bob with a line of each."""
    from tests.games.matchplay import start_nibble_match

    match = start_nibble_match(client_for(alice), client_for(bob))
    say(match.a, match.id, "hello")
    say(match.b, match.id, "hi")
    return match


def test_a_shadow_banned_players_lines_reach_themselves_alone(lively, bob, api_client):
    Standing.objects.create(user=bob, shadow_banned=True)
    alice_before = answers(lively.a, lively.id)
    line = say(lively.b, lively.id, "nasty words")
    assert line["body"] == "nasty words" and line["room"] == "players"
    assert [x["body"] for x in lively.b.get(match_url(lively.id, "chat")).json()["lines"]] == [
        "hello", "hi", "nasty words"]
    assert_same(alice_before, answers(lively.a, lively.id))
    lively.play_one()
    assert lively.a.post(match_url(lively.id, "resign")).status_code == 200
    for client in (lively.a, api_client):
        bodies = [x["body"] for x in client.get(match_url(lively.id, "chat")).json()["lines"]]
        assert bodies == ["hello", "hi"]


def test_a_blocked_player_gets_the_same_answers_and_the_blocker_not_their_lines(
        lively, alice, bob):
    bob_before = answers(lively.b, lively.id, "/api/players/alice")
    assert lively.a.put("/api/me/blocks/bob", {}, format="json").status_code == 200
    assert_same(bob_before, answers(lively.b, lively.id, "/api/players/alice"))
    alice_before = answers(lively.a, lively.id)
    said = say(lively.b, lively.id, "are you there?")
    assert said["room"] == "players"
    assert_same(alice_before, answers(lively.a, lively.id))
    # Alice's own lines still reach bob.
    say(lively.a, lively.id, "bye")
    assert [x["body"] for x in lively.b.get(match_url(lively.id, "chat")).json()["lines"]] == [
        "hello", "hi", "are you there?", "bye"]
