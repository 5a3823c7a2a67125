"""The bare long-poll floor: the project's long-poll and move endpoints as a plain ASGI app,
with every match, feed and waiter in memory, for ``bench_longpoll --floor``.

The same URL paths and JSON shapes as the project:

    GET  /api/matches/{id}/events?after=<seq>&wait=<s>  {"moves", "next_after", "version",
                                                        "status"}
    GET  /api/me/events?after=<id>&wait=<s>             {"events", "next_after"}
    GET  /api/matches/{id}/stream?after=<seq>           server-sent events: the match's
                                                        answer at once, then one per change
    GET  /api/me/stream?after=<id>                      server-sent events: one per change
    POST /api/matches/{id}/moves                        201 {"seq", "events", "match"}

A request names its player by ``Authorization: Token <key>``; a move is accepted from a seat of
the match when its ``expected_version`` is the match's version (409 otherwise). It appends the
move to the match's log, a ``your_turn`` entry to the other seat's feed, and wakes everyone
waiting on either: that is the least a server can do to tell its waiters, with no framework,
database, hub or middleware in the way. Refusals answer the project's coded envelope.

The matches come from the JSON file named by BARE_LONGPOLL_SEED:
``{"matches": [{"id", "version", "tokens": [seat 0's key, seat 1's key]}], "feed_after": id}``.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qs

import orjson

MAX_WAIT = 60
HEARTBEAT_SECONDS = 15.0  # a stream's keep-alive comment in a silence, as the project's default
RETRY_MILLISECONDS = 3000
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class Refusal(Exception):
    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.body = {"code": code, "message": message, "extra": extra}


@dataclass
class Channel:
    """Who waits on one match or one feed: woken together by the next change."""

    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def wake(self) -> None:
        self.changed.set()
        self.changed = asyncio.Event()


@dataclass
class Match:
    id: str
    version: int
    tokens: list[str]
    moves: list[dict[str, Any]] = field(default_factory=list)
    channel: Channel = field(default_factory=Channel)


@dataclass
class Feed:
    events: list[dict[str, Any]] = field(default_factory=list)
    channel: Channel = field(default_factory=Channel)


class Registry:
    """Every match and player feed of the floor, and its event ids."""

    def __init__(self, seed: dict[str, Any]) -> None:
        self.matches = {entry["id"]: Match(entry["id"], entry["version"], list(entry["tokens"]))
                        for entry in seed["matches"]}
        self.feeds = {token: Feed() for match in self.matches.values() for token in match.tokens}
        self.last_event = int(seed.get("feed_after", 0))

    def match_for(self, match_id: str, token: str) -> Match:
        match = self.matches.get(match_id)
        if match is None or token not in match.tokens:
            raise Refusal(404, "match_not_found", "No such match.")
        return match

    def feed_for(self, token: str) -> Feed:
        feed = self.feeds.get(token)
        if feed is None:
            raise Refusal(401, "not_authenticated", "Invalid token.")
        return feed

    def move(self, match: Match, token: str, body: dict[str, Any]) -> dict[str, Any]:
        if body.get("expected_version", match.version) != match.version:
            raise Refusal(409, "stale_version", "Stale.", current_version=match.version)
        seat = match.tokens.index(token)
        now = datetime.now(UTC).isoformat()
        match.version += 1
        match.moves.append({"seq": match.version, "kind": "move", "seat": seat,
                            "player": {"username": f"seat-{seat}", "is_bot": False},
                            "payload": body.get("move"),
                            "events": [], "created_at": now})
        to_act = (seat + 1) % len(match.tokens)
        feed = self.feeds[match.tokens[to_act]]
        self.last_event += 1
        feed.events.append({"id": self.last_event, "type": "your_turn", "match": match.id,
                            "game": "nibble", "data": {"version": match.version},
                            "created_at": now})
        match.channel.wake()
        feed.channel.wake()
        return {"seq": match.version, "events": [],
                "match": {"id": match.id, "game": "nibble", "status": "active",
                          "version": match.version, "to_act": [to_act]}}


def _match_answer(match: Match, after: int) -> tuple[dict[str, Any], bool]:
    moves = [move for move in match.moves if move["seq"] > after]
    return ({"moves": moves, "next_after": moves[-1]["seq"] if moves else after,
             "version": match.version, "status": "active"}, bool(moves))


def _feed_answer(feed: Feed, after: int) -> tuple[dict[str, Any], bool]:
    events = [event for event in feed.events if event["id"] > after]
    return {"events": events, "next_after": events[-1]["id"] if events else after}, bool(events)


async def _wait(channel: Channel, read: Callable[[], tuple[dict[str, Any], bool]],
                wait: float) -> dict[str, Any]:
    """The answer once it has something new, or after ``wait`` seconds with nothing."""
    deadline = time.monotonic() + wait
    answer, ready = read()
    while not ready and (left := deadline - time.monotonic()) > 0:
        try:
            async with asyncio.timeout(left):
                await channel.changed.wait()
        except TimeoutError:
            break
        answer, ready = read()
    return answer


def _number(query: dict[str, list[str]], name: str, default: int, top: int) -> int:
    try:
        value = int(query.get(name, [str(default)])[0])
    except ValueError:
        raise Refusal(400, "invalid", f"{name} must be a whole number.") from None
    if not 0 <= value <= top:
        raise Refusal(400, "invalid", f"{name} must be 0 to {top}.")
    return value


class BareLongPoll:
    """The ASGI application: routes the three endpoints, refuses everything else."""

    def __init__(self, seed: dict[str, Any]) -> None:
        self.registry = Registry(seed)

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            while True:
                kind = (await receive())["type"]
                await send({"type": f"{kind}.complete"})
                if kind == "lifespan.shutdown":
                    return
        if scope["type"] != "http":
            return
        try:
            stream = self.stream_of(scope)
            if stream is not None:
                await _serve_stream(send, receive, *stream)
                return
            status, body = 200, await self.route(scope, receive)
            if scope["method"] == "POST":
                status = 201
        except Refusal as refusal:
            status, body = refusal.status, refusal.body
        payload = orjson.dumps(body)
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(payload)).encode())]})
        await send({"type": "http.response.body", "body": payload})

    async def route(self, scope: dict[str, Any], receive: Receive) -> dict[str, Any]:
        token, parts, query = _asked(scope)
        method = scope["method"]
        if parts == ["api", "me", "events"] and method == "GET":
            feed = self.registry.feed_for(token)
            after = _number(query, "after", 0, 2**63)
            return await _wait(feed.channel, lambda: _feed_answer(feed, after),
                               _number(query, "wait", 0, MAX_WAIT))
        if len(parts) == 4 and parts[:2] == ["api", "matches"]:
            match = self.registry.match_for(parts[2], token)
            if parts[3] == "events" and method == "GET":
                after = _number(query, "after", 0, 2**31)
                return await _wait(match.channel, lambda: _match_answer(match, after),
                                   _number(query, "wait", 0, MAX_WAIT))
            if parts[3] == "moves" and method == "POST":
                return self.registry.move(match, token, await _json_body(receive))
        raise Refusal(404, "not_found", "No such endpoint.")

    def stream_of(self, scope: dict[str, Any]) -> Stream | None:
        """A stream's channel, reader, event name and cursor when the request asks for one."""
        if scope["method"] != "GET" or not scope["path"].rstrip("/").endswith("/stream"):
            return None
        token, parts, query = _asked(scope)
        if parts == ["api", "me", "stream"]:
            feed = self.registry.feed_for(token)
            return (feed.channel, lambda after: _feed_answer(feed, after), "feed",
                    _number(query, "after", 0, 2**63), False)
        if len(parts) == 4 and parts[:2] == ["api", "matches"]:
            match = self.registry.match_for(parts[2], token)
            return (match.channel, lambda after: _match_answer(match, after), "match",
                    _number(query, "after", 0, 2**31), True)
        raise Refusal(404, "not_found", "No such endpoint.")


# A stream: its channel, how to read after a cursor, its event name, the cursor, and whether
# the first message goes at once.
Stream = tuple[Channel, Callable[[int], tuple[dict[str, Any], bool]], str, int, bool]


async def _serve_stream(send: Send, receive: Receive, channel: Channel,
                        read: Callable[[int], tuple[dict[str, Any], bool]], event: str,
                        after: int, first: bool) -> None:
    """Server-sent events until the client goes: a message each time ``read`` finds something
    new (and at once when ``first``), a keep-alive comment in a silence. The client's going
    away cancels the stream's own task, so a wait costs no task of its own."""
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"text/event-stream"),
                            (b"cache-control", b"no-store")]})
    opening = b"retry: %d\n\n" % RETRY_MILLISECONDS
    if first:
        answer, _ = read(after)
        after = answer["next_after"]
        opening += _message(event, after, answer)
    await send({"type": "http.response.body", "body": opening, "more_body": True})
    streaming = asyncio.current_task()
    gone = asyncio.ensure_future(_disconnected(receive))
    gone.add_done_callback(lambda _: streaming.cancel() if streaming else None)
    try:
        while True:
            answer, ready = read(after)
            if ready:
                after = answer["next_after"]
                await send({"type": "http.response.body", "body": _message(event, after, answer),
                            "more_body": True})
                continue
            try:
                async with asyncio.timeout(HEARTBEAT_SECONDS):
                    await channel.changed.wait()
            except TimeoutError:
                await send({"type": "http.response.body", "body": b": keep-alive\n\n",
                            "more_body": True})
    except asyncio.CancelledError:
        if not gone.done() or gone.cancelled():
            raise  # cancelled by the server, not by the client's going away
    finally:
        gone.cancel()


async def _disconnected(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


def _message(event: str, cursor: int, answer: dict[str, Any]) -> bytes:
    return b"id: %d\nevent: %s\ndata: %s\n\n" % (cursor, event.encode(), orjson.dumps(answer))


def _asked(scope: dict[str, Any]) -> tuple[str, list[str], dict[str, list[str]]]:
    """The caller's token, the path's parts and the query of a request."""
    return (_token(scope), scope["path"].strip("/").split("/"),
            parse_qs(scope["query_string"].decode("latin-1")))


def _token(scope: dict[str, Any]) -> str:
    for name, value in scope["headers"]:
        if name == b"authorization":
            scheme, _, key = value.decode("latin-1").partition(" ")
            if scheme == "Token" and key:
                return key
    raise Refusal(401, "not_authenticated", "Authentication credentials were not provided.")


async def _json_body(receive: Receive) -> dict[str, Any]:
    chunks = []
    while True:
        message = await receive()
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            break
    try:
        body = json.loads(b"".join(chunks) or b"{}")
    except ValueError:
        raise Refusal(400, "parse_error", "The body is not JSON.") from None
    if not isinstance(body, dict):
        raise Refusal(400, "parse_error", "The body must be a JSON object.")
    return body


def _load() -> BareLongPoll:
    path = os.environ.get("BARE_LONGPOLL_SEED")
    if not path:
        return BareLongPoll({"matches": []})
    with open(path) as seed:
        return BareLongPoll(json.load(seed))


application = _load()
