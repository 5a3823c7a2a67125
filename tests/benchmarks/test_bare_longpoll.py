"""The bare ASGI long-poll floor (games.benchmarks.bare.longpoll) wakes its waiters on a move,
over long-polls and streams, answers the project's shapes and refuses in the coded envelope;
the ratio helpers of the benchmarks. In process, no server, no benchmark."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from games.benchmarks.bare.longpoll import BareLongPoll
from games.benchmarks.longpoll_floor import Figures, comparison_lines, floor_seed
from games.benchmarks.ratios import Row, floor_work_problem, ratio_table

MATCH = "5b0c6c1e-0000-4000-8000-000000000001"
SEED = {"feed_after": 10, "matches": [{"id": MATCH, "version": 3, "tokens": ["mover", "other"]}]}


async def _call(app: BareLongPoll, method: str, path: str, token: str | None,
                body: dict | None = None) -> tuple[int, Any]:
    target, _, query = path.partition("?")
    headers = [(b"authorization", f"Token {token}".encode())] if token else []
    scope = {"type": "http", "method": method, "path": target,
             "query_string": query.encode(), "headers": headers}
    messages = [{"type": "http.request", "body": json.dumps(body).encode() if body else b"",
                 "more_body": False}]
    sent: list[dict] = []

    async def receive() -> dict:
        return messages.pop(0)

    async def send(message: dict) -> None:
        sent.append(message)

    await app(scope, receive, send)
    return sent[0]["status"], json.loads(sent[1]["body"])


async def _wake_up() -> tuple[Any, ...]:
    app = BareLongPoll(SEED)
    watcher = asyncio.create_task(_call(app, "GET", f"/api/matches/{MATCH}/events?after=3&wait=5",
                                        "other"))
    actor = asyncio.create_task(_call(app, "GET", "/api/me/events?after=10&wait=5", "other"))
    await asyncio.sleep(0.05)
    assert not watcher.done() and not actor.done()
    moved = await _call(app, "POST", f"/api/matches/{MATCH}/moves", "mover",
                        {"move": {"take": [[0, 0]]}, "expected_version": 3})
    return moved, await asyncio.wait_for(watcher, 2), await asyncio.wait_for(actor, 2)


def test_a_move_wakes_the_match_and_the_feed_of_the_seat_to_act():
    (status, moved), (watch_status, watched), (feed_status, feed) = asyncio.run(_wake_up())
    assert status == 201
    assert moved["seq"] == 4 and moved["match"]["version"] == 4
    assert moved["match"]["to_act"] == [1]
    assert watch_status == 200
    assert [move["seq"] for move in watched["moves"]] == [4]
    assert watched["moves"][0]["payload"] == {"take": [[0, 0]]}
    assert (watched["next_after"], watched["version"], watched["status"]) == (4, 4, "active")
    assert feed_status == 200
    assert [(event["id"], event["type"], event["match"]) for event in feed["events"]] == [
        (11, "your_turn", MATCH)]
    assert feed["next_after"] == 11


class Streamed:
    """A stream served by the floor: what it sent, and the client's going away."""

    def __init__(self, app: BareLongPoll, path: str, token: str) -> None:
        target, _, query = path.partition("?")
        self.sent: list[dict] = []
        self.gone = asyncio.Event()
        scope = {"type": "http", "method": "GET", "path": target, "query_string": query.encode(),
                 "headers": [(b"authorization", f"Token {token}".encode())]}
        self.task = asyncio.create_task(app(scope, self.receive, self.send))

    async def receive(self) -> dict:
        await self.gone.wait()
        return {"type": "http.disconnect"}

    async def send(self, message: dict) -> None:
        self.sent.append(message)

    def messages(self) -> list[tuple[str, dict]]:
        """Each server-sent event's name and data; comments and the retry field left out."""
        text = b"".join(message.get("body", b"") for message in self.sent[1:]).decode()
        found = []
        for block in text.split("\n\n"):
            fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
            if "event" in fields:
                found.append((fields["event"], json.loads(fields["data"])))
        return found


async def _streams() -> tuple[Streamed, Streamed, tuple[int, Any]]:
    app = BareLongPoll(SEED)
    match = Streamed(app, f"/api/matches/{MATCH}/stream?after=3", "other")
    feed = Streamed(app, "/api/me/stream?after=10", "other")
    await asyncio.sleep(0.05)
    assert len(match.messages()) == 1 and feed.messages() == []
    moved = await _call(app, "POST", f"/api/matches/{MATCH}/moves", "mover",
                        {"move": {"take": [[0, 0]]}, "expected_version": 3})
    await asyncio.sleep(0.05)
    for stream in (match, feed):
        stream.gone.set()
        await asyncio.wait_for(stream.task, 2)  # the stream ends when its client goes
    return match, feed, moved


def test_the_streams_send_the_match_at_once_and_each_change():
    match, feed, (status, _) = asyncio.run(_streams())
    assert status == 201
    for stream in (match, feed):
        start = stream.sent[0]
        assert (start["status"], dict(start["headers"])[b"content-type"]) == (
            200, b"text/event-stream")
        assert stream.sent[1]["body"].startswith(b"retry: 3000\n\n")
    (first_name, first), (name, moved) = match.messages()
    assert (first_name, first) == ("match", {"moves": [], "next_after": 3, "version": 3,
                                             "status": "active"})
    assert name == "match" and [move["seq"] for move in moved["moves"]] == [4]
    ((feed_name, entries),) = feed.messages()
    assert feed_name == "feed"
    assert [(event["id"], event["type"]) for event in entries["events"]] == [(11, "your_turn")]


async def _refusals() -> list[tuple[int, str]]:
    app = BareLongPoll(SEED)
    answers = [
        await _call(app, "POST", f"/api/matches/{MATCH}/moves", "mover", {"expected_version": 2}),
        await _call(app, "GET", f"/api/matches/{MATCH}/events?wait=0", "stranger"),
        await _call(app, "GET", "/api/me/events?wait=0", None),
        await _call(app, "GET", "/api/me/events?wait=x", "mover"),
        await _call(app, "GET", "/api/nowhere", "mover"),
        await _call(app, "GET", f"/api/matches/{MATCH}/stream", "stranger"),
        await _call(app, "GET", "/api/me/stream?after=x", "mover"),
    ]
    quiet = await _call(app, "GET", f"/api/matches/{MATCH}/events?after=3&wait=0", "mover")
    assert quiet == (200, {"moves": [], "next_after": 3, "version": 3, "status": "active"})
    return [(status, body["code"]) for status, body in answers]


def test_refusals_are_coded_and_change_nothing():
    assert asyncio.run(_refusals()) == [(409, "stale_version"), (404, "match_not_found"),
                                        (401, "not_authenticated"), (400, "invalid"),
                                        (404, "not_found"), (404, "match_not_found"),
                                        (400, "invalid")]


def test_the_floor_seed_has_two_distinct_seats_per_match():
    seed = floor_seed(3)
    assert len({entry["id"] for entry in seed["matches"]}) == 3
    assert all(len(set(entry["tokens"])) == 2 for entry in seed["matches"])


def test_ratios_are_to_the_first_row():
    table = ratio_table([Row("bare", 700.0, 0.020, 0.040, 0), Row("path", 210.0, 0.07, 0.112, 1)])
    assert table[1].split()[-2:] == ["1.00", "1.00"]
    assert table[2].split()[-2:] == ["0.30", "2.80"]
    floor = Figures("floor", 10, 10, [0.1, 0.2], [0.0, 0.01], [0.05], 0)
    mine = Figures("Boardpost", 10, 10, [1.0, 2.0], [0.05, 0.1], [0.5], 0)
    assert comparison_lines(floor, mine)[-1].endswith("wake from send 10.00, moves' own 10.00")


def test_a_floor_that_did_not_write_its_moves_is_caught():
    assert floor_work_problem("bare", 100, 120, 120) is None
    assert "no move" in floor_work_problem("bare", 0, 0, 0)
    assert "only 0 move rows" in floor_work_problem("bare", 50, 0, 0)
    assert "versions advanced by 10" in floor_work_problem("bare", 5, 20, 10)
