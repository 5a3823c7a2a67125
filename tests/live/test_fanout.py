"""The shared work of a wake-up (games.live.fanout): one read of a match and its moves for every
waiter, whatever its seat, and answers redacted per seat exactly as the synchronous endpoints
redact them."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import orjson
import pytest

from games import selectors
from games.exceptions import MatchNotFound
from games.live import fanout
from games.models import Match
from tests.games.helpers import create_match
from tests.games.matchplay import match_url, submit

pytestmark = pytest.mark.django_db


def _nimalia(client_for, alice, bob) -> tuple[str, Any, Any]:
    a, b = client_for(alice), client_for(bob)
    match_id = create_match(a, game="nimalia", config={"objectives": "first_game"}, rated=False,
                            seats=[{"kind": "me"}, {"kind": "user", "username": "bob"}])["id"]
    assert b.post(match_url(match_id, "join")).status_code == 200
    return match_id, a, b


def _place(client, match_id: str) -> None:
    mine = client.get(match_url(match_id)).json()
    legal = mine["legal_moves"]
    row, col = legal["anchors"][0]
    placement = {"card": legal["cards"][0], "row": row, "col": col, "rotation": 0}
    response = submit(client, match_id, placement, mine["version"])
    assert response.status_code == 201, response.json()


def _same_as_the_selectors(match_id: str, users: list[Any]) -> int:
    """For every ``after`` and every user, the answer built from one read equals
    ``selectors.match_events``; returns how many were compared."""
    compared = 0
    match = selectors.match_loaded(match_id)
    assert match is not None
    for after in range(match.version + 1):
        loaded, moves = fanout._match_and_moves(match.id, after, 100)
        assert loaded is not None
        for user in users:
            try:
                viewer = fanout.viewer_of(loaded, user)
            except MatchNotFound:
                continue
            expected = selectors.match_events(match=match, user=user, after=after, limit=100)
            assert fanout.events_answer(loaded, moves, viewer, after) == expected, (after, user)
            compared += 1
    return compared


def test_a_seats_answer_is_what_the_selectors_answer_that_seat(client_for, alice, bob, carol):
    match_id, a, b = _nimalia(client_for, alice, bob)
    _place(a, match_id)  # a placement pending: hidden from bob
    assert _same_as_the_selectors(match_id, [alice, bob, carol]) > 0
    _place(b, match_id)  # both placed: revealed by the engine's events
    _place(a, match_id)
    match = Match.objects.get(id=match_id)
    assert match.version >= 3
    loaded, moves = fanout._match_and_moves(match.id, 0, 100)
    hidden = fanout.events_answer(loaded, moves, 1, 0)["moves"][-1]
    assert hidden["seat"] == 0 and hidden["payload"] is None
    assert fanout.events_answer(loaded, moves, 0, 0)["moves"][-1]["payload"] is not None
    assert _same_as_the_selectors(match_id, [alice, bob, carol]) >= 2 * (match.version + 1)


def test_a_finished_match_is_revealed_to_everyone_as_the_selectors_reveal_it(
        client_for, alice, bob, carol):
    match_id, a, b = _nimalia(client_for, alice, bob)
    _place(a, match_id)
    assert a.post(match_url(match_id, "resign")).status_code == 200
    compared = _same_as_the_selectors(match_id, [alice, bob, carol])
    match = Match.objects.get(id=match_id)
    assert match.status != Match.Status.ACTIVE
    assert compared == 3 * (match.version + 1)  # the spectator too, now


@pytest.mark.django_db(transaction=True)
def test_one_read_per_wake_up_for_every_seat(client_for, alice, bob, monkeypatch):
    # The reads run on the event loop here (a server runs them in its database threads).
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    match_id, a, b = _nimalia(client_for, alice, bob)
    _place(a, match_id)
    match = Match.objects.get(id=match_id)
    version = match.version
    reads: list[Any] = []

    async def read(fn: Any, *args: Any) -> Any:
        reads.append(fn)
        await asyncio.sleep(0)  # others join the read while it runs
        return fn(*args)

    async def wake(generation: object) -> list[tuple[Match, fanout.Shared]]:
        return await asyncio.gather(*[
            fanout.match_read(read, match.id, user,
                              generation=generation, after=version - 1, limit=100,
                              render=orjson.dumps)
            for user in (alice, bob, alice, bob)])

    answers = asyncio.run(wake(object()))
    assert len(reads) == 1
    bodies = [orjson.loads(answer.body) for _, answer in answers]
    assert bodies[0] == bodies[2] and bodies[1] == bodies[3]
    assert answers[0][1] is answers[2][1]  # built once per kind of viewer
    assert bodies[0]["moves"][0]["payload"] is not None
    assert bodies[1]["moves"][0]["payload"] is None
    # Another wake-up reads again.
    asyncio.run(wake(object()))
    assert len(reads) == 2


def test_a_move_committed_between_the_two_reads_waits_for_its_own_wake_up(
        client_for, alice, bob, monkeypatch):
    """The match row is read, then its moves: a move committed in between must not show in an
    answer whose version does not count it (the client would take the match as read and never
    read it again: the wake-up that move sends finds nothing new after it)."""
    match_id, a, b = _nimalia(client_for, alice, bob)
    _place(a, match_id)
    before = Match.objects.get(id=match_id).version
    load = selectors.matches_loaded

    def loaded_then_moved(match_ids: Any) -> dict[Any, Match]:
        matches = load(match_ids)
        _place(b, match_id)  # commits while the first read is in hand
        return matches

    monkeypatch.setattr(selectors, "matches_loaded", loaded_then_moved)
    match, moves = fanout._match_and_moves(Match.objects.get(id=match_id).id, before - 1, 100)
    monkeypatch.setattr(selectors, "matches_loaded", load)
    assert match is not None and match.version == before
    assert [move.seq for move in moves] == [before]
    assert Match.objects.get(id=match_id).version > before
    # The next read has it, with a version that counts it.
    match, moves = fanout._match_and_moves(match.id, before, 100)
    assert match is not None and [move.seq for move in moves] == list(
        range(before + 1, match.version + 1))


def test_matches_read_together_are_read_as_each_alone_in_two_queries(
        client_for, alice, bob, carol, django_assert_num_queries):
    first, a, b = _nimalia(client_for, alice, bob)
    second, _, _ = _nimalia(client_for, alice, bob)
    for _ in range(3):
        _place(a, first)
        _place(b, first)
    _place(a, second)
    missing = uuid.uuid4()
    asked = [(uuid.UUID(first), 0, 2), (uuid.UUID(first), 3, 100), (uuid.UUID(second), 0, 100),
             (uuid.UUID(second), 5, 100), (missing, 0, 100), (uuid.UUID(first), 1, 1)]
    alone = [fanout._match_and_moves(*ask) for ask in asked]
    with django_assert_num_queries(2):
        together = fanout._matches_and_moves(asked)
    assert together[4] == (None, []) and alone[4] == (None, [])
    for (match, moves), (match_alone, moves_alone), (_, after, limit) in zip(
            together, alone, asked, strict=True):
        if match_alone is None:
            continue
        assert match is not None and match.version == match_alone.version
        assert [m.seq for m in moves] == [m.seq for m in moves_alone]
        assert [m.seq for m in moves] == list(range(after + 1, min(match.version, after + limit)
                                                    + 1))
        for user in (alice, bob, carol):
            try:
                viewer = fanout.viewer_of(match, user)
            except MatchNotFound:
                continue
            assert fanout.events_answer(match, moves, viewer, after) == selectors.match_events(
                match=match_alone, user=user, after=after, limit=limit)


@pytest.mark.django_db(transaction=True)
def test_matches_woken_together_are_read_in_one_trip(client_for, alice, bob, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    first, a, b = _nimalia(client_for, alice, bob)
    second, _, _ = _nimalia(client_for, alice, bob)
    _place(a, first)
    _place(a, second)
    trips: list[Any] = []

    async def read(fn: Any, *args: Any) -> Any:
        trips.append(args)
        await asyncio.sleep(0)
        return fn(*args)

    async def wake() -> list[tuple[Match, fanout.Shared]]:
        generation = object()
        return await asyncio.gather(*[
            fanout.match_read(read, uuid.UUID(match_id), user, generation=generation, after=0,
                              limit=100, render=orjson.dumps)
            for match_id in (first, second) for user in (alice, bob)])

    answers = asyncio.run(wake())
    assert len(trips) == 1 and len(trips[0][0]) == 2  # one trip, each match asked once
    for (match, answer), (match_id, user) in zip(
            answers, [(m, u) for m in (first, second) for u in (alice, bob)], strict=True):
        assert str(match.id) == match_id
        expected = selectors.match_events(match=match, user=user, after=0, limit=100)
        assert orjson.loads(answer.body) == orjson.loads(orjson.dumps(expected))


def test_a_failed_trip_is_raised_to_every_match_it_read(alice):
    class Broken(Exception):
        pass

    async def read(fn: Any, *args: Any) -> Any:
        raise Broken

    async def wake() -> list[Any]:
        generation = object()
        return await asyncio.gather(*[
            fanout.match_read(read, uuid.uuid4(), alice, generation=generation, after=0,
                              limit=100, render=orjson.dumps)
            for _ in range(3)], return_exceptions=True)

    assert [type(result) for result in asyncio.run(wake())] == [Broken] * 3
