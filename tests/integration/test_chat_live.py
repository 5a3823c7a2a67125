"""The match chat live under uvicorn: a line reaches the other seat's chat stream at once,
resumes from Last-Event-ID, never reaches a player who blocked its author, and ends a waiting
long-poll."""

from __future__ import annotations

import threading
import time

import pytest

from tests.integration.test_longpoll import _nibble_over_http, _players
from tests.integration.test_streams import Stream, server  # noqa: F401 - the fixture

integration = pytest.mark.integration


def _say(client, match_id: str, body: str) -> dict:
    status, line = client.post(f"/api/matches/{match_id}/chat", {"body": body})
    assert status == 201, line
    return line


@integration
def test_a_line_reaches_the_other_seat_at_once_and_never_a_blocker(
        server, transactional_db):  # noqa: F811
    alice, bob = _players(server, "alice", "bob")
    match_id = _nibble_over_http(alice, bob)
    stream = Stream(server, bob.token, f"/api/matches/{match_id}/chat/stream")
    try:
        assert stream.status == 200
        said_at = time.monotonic()
        hello = _say(alice, match_id, "hello")
        message = stream.next_message()
        assert time.monotonic() - said_at < 2.0
        assert message["event"] == "chat" and message["id"] == str(hello["id"])
        assert [line["body"] for line in message["data"]["lines"]] == ["hello"]
    finally:
        stream.close()
    assert alice.request("PUT", "/api/me/blocks/bob", {"games": False, "chat": True})[0] == 200
    resumed = Stream(server, alice.token, f"/api/matches/{match_id}/chat/stream",
                     last_event_id=str(hello["id"]))
    try:
        _say(bob, match_id, "you there?")
        mine = _say(alice, match_id, "still here")
        message = resumed.next_message()
        assert [line["body"] for line in message["data"]["lines"]] == ["still here"]
        assert message["id"] == str(mine["id"])
    finally:
        resumed.close()


@integration
def test_a_line_ends_a_waiting_long_poll(server, transactional_db):  # noqa: F811
    alice, bob = _players(server, "alice", "bob")
    match_id = _nibble_over_http(alice, bob)
    answers: list = []
    waiting = threading.Thread(target=lambda: answers.append(bob.get(
        f"/api/matches/{match_id}/chat/events?after=0&wait=20")))
    started = time.monotonic()
    waiting.start()
    time.sleep(0.5)
    _say(alice, match_id, "gl")
    waiting.join(timeout=15)
    status, body = answers[0]
    assert status == 200 and [line["body"] for line in body["lines"]] == ["gl"]
    assert time.monotonic() - started < 5
