"""Server-Sent Events: the long-polls as streams that stay open.

    GET /api/matches/{id}/stream?after=<seq>    event "match": the long-poll answer of
                                                 /api/matches/{id}/events, id = next_after
    GET /api/me/stream?after=<id>               event "feed": the answer of /api/me/events,
                                                 id = next_after

Each message's data is exactly what the long-poll would answer at that moment (one line of
JSON), and its ``id`` is the cursor to resume from: a client that reconnects sends it back as
``Last-Event-ID`` (browsers' ``EventSource`` does so by itself; it overrides ``after``). A match
stream sends a first message at once (where the match stands: its moves after the cursor,
possibly none, its version and status), then one whenever the match has new moves or its
status changes, and ends after the message that shows it over. Silence is broken every
EVENTS_HEARTBEAT_SECONDS (15) by a comment line (``: keep-alive``), so proxies keep the
connection and clients notice a dead one;
a stream ends after EVENTS_STREAM_SECONDS (1 hour) and the client reconnects where it was.

Authentication, throttling, visibility and redaction are those of the long-polls
(``games.live.longpoll``): ``Authorization: Token <key>``, the long-poll budget for each
connection, a match the caller may not see is 404 before the stream starts, and a match that
turns private to the caller ends its stream. Messages come from the same shared reads and
answers as the long-polls' (``games.live.fanout``), so a stream costs a wake-up no more than a
long-poll does. When the client goes away the ASGI handler cancels the stream at once.

Serve streams under ASGI (uvicorn). Under WSGI (gunicorn) Django collects a streaming response
whole before sending it, so there a stream lasts one long-poll at most (25 s), holding a worker
thread like a long-poll, and ends with its first message; clients simply reconnect.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any
from uuid import UUID

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from rest_framework import serializers

from config.api import QuerySerializer
from config.exceptions import ApplicationError
from games import metrics
from games.live import fanout, presence
from games.live import hub as events_hub
from games.live.longpoll import (
    MAX_EVENT_ID,
    MAX_SEQ,
    Reader,
    _coded_error,
    _long_poll_view,
    _prepare,
    _served_by_asgi,
    _validation_error,
    feed_reader,
    match_reader,
)
from games.models import Match

# How long a stream served under WSGI lasts at most (see _messages).
WSGI_STREAM_SECONDS = 25.0
# Before reconnecting, a client waits this long (milliseconds; the SSE "retry" field).
RETRY_MILLISECONDS = 3000


def heartbeat_seconds() -> float:
    return float(settings.EVENTS_HEARTBEAT_SECONDS)


def stream_seconds() -> float:
    return float(settings.EVENTS_STREAM_SECONDS)


class MatchStreamParams(QuerySerializer):
    after = serializers.IntegerField(
        required=False, default=0, min_value=0, max_value=MAX_SEQ,
        help_text="The last seq the caller has; a Last-Event-ID header takes precedence.")


class FeedStreamParams(QuerySerializer):
    after = serializers.IntegerField(
        required=False, default=0, min_value=0, max_value=MAX_EVENT_ID,
        help_text="The last id the caller has; a Last-Event-ID header takes precedence.")


def message(event: str, cursor: int, data: bytes) -> bytes:
    """One SSE message (``data`` is one line of JSON)."""
    return b"id: %d\nevent: %s\ndata: %s\n\n" % (cursor, event.encode(), data)


def _resume_from(request: HttpRequest, after: int, highest: int) -> int | HttpResponse:
    last = request.headers.get("Last-Event-ID")
    if last is None or last == "":
        return after
    if not last.isdigit() or int(last) > highest:
        return _validation_error({"Last-Event-ID": ["A cursor sent as an event id is needed."]})
    return int(last)


async def _stream_start(request: HttpRequest, params_class: type[QuerySerializer],
                        highest: int) -> tuple[Any, int] | HttpResponse:
    """The caller and the cursor to resume from (``after``, or Last-Event-ID), or the refusal
    to answer instead of a stream."""
    prepared = await _prepare(request, params_class)
    if isinstance(prepared, HttpResponse):
        return prepared
    user, params = prepared
    after = _resume_from(request, params["after"], highest)
    if isinstance(after, HttpResponse):
        return after
    return user, after


def _stream(events: AsyncIterator[bytes]) -> StreamingHttpResponse:
    return StreamingHttpResponse(events, content_type="text/event-stream", headers={
        "Cache-Control": "no-store",
        # nginx: pass every message on at once.
        "X-Accel-Buffering": "no",
    })


async def _messages(request: HttpRequest, *, channel: str, event: str, first: bytes,
                    reader: Any, after: int, ended: Any,
                    first_news: bool = False) -> AsyncIterator[bytes]:
    """``first``, then a message each time ``reader(after)`` finds something new, heartbeats
    in the silences, until ``ended(answer)`` says the stream is over or its time is up."""
    loop = asyncio.get_running_loop()
    # Under WSGI Django collects the whole stream before sending any of it: there a stream
    # lasts one long-poll at most and ends with its first message, and the client reconnects.
    asgi = _served_by_asgi(request)
    closes_at = loop.time() + (stream_seconds() if asgi else WSGI_STREAM_SECONDS)
    beat = heartbeat_seconds()
    yield b"retry: %d\n\n" % RETRY_MILLISECONDS + first
    if first_news and not asgi:
        return
    async with metrics.waiting("stream"), \
            events_hub.listen(channel, shared=_served_by_asgi(request)) as subscription:
        read: Reader = reader(after)
        last_write = loop.time()
        while True:
            subscription.rearm()
            try:
                answer, ready = await read(subscription)
            except ApplicationError:  # the match turned private to the caller
                return
            if ready:
                yield message(event, answer.cursor, answer.body)
                last_write = loop.time()
                if ended(answer) or not asgi:
                    return
                after = answer.cursor
                read = reader(after)
            now = loop.time()
            if now >= closes_at:
                return
            if now - last_write >= beat:
                yield b": keep-alive\n\n"
                last_write = now
            await subscription.wait(min(beat - (now - last_write), closes_at - now))


@_long_poll_view
async def match_stream(request: HttpRequest, match_id: UUID) -> HttpResponseBase:
    started = await _stream_start(request, MatchStreamParams, MAX_SEQ)
    if isinstance(started, HttpResponse):
        return started
    user, after = started
    # The first read before the stream starts: a match the caller may not see is a plain 404.
    probe = match_reader(request, user, match_id, after=after, limit=100)
    try:
        answer, ready = await probe(None)
    except ApplicationError as exc:
        return _coded_error(exc)
    status: list[str] = [answer.status]
    # The first message, at once, tells where the match stands (its moves after the cursor,
    # possibly none, its version and status), so a client that read the match just before a
    # change it then missed sees that it must read it again.
    first = message("match", answer.cursor, answer.body)
    if status[0] not in RUNNING:
        return _stream(_once(first))
    start = answer.cursor

    known: list[tuple[str, int | None]] = []

    def reader(cursor: int) -> Reader:
        return _status_watch(match_reader(request, user, match_id, after=cursor, limit=100,
                                          first=known), status)

    return _stream(presence.watched(user.id, match_id, _messages(
        request, channel=events_hub.match_channel(match_id), event="match", first=first,
        reader=reader, after=start, ended=lambda answer: answer.status not in RUNNING,
        first_news=ready)))


@_long_poll_view
async def user_stream(request: HttpRequest) -> HttpResponseBase:
    started = await _stream_start(request, FeedStreamParams, MAX_EVENT_ID)
    if isinstance(started, HttpResponse):
        return started
    user, after = started

    def reader(cursor: int) -> Reader:
        return feed_reader(request, user, after=cursor, limit=100)

    return _stream(presence.watched(user.id, None, _messages(
        request, channel=events_hub.user_channel(user.id), event="feed", first=b"",
        reader=reader, after=after, ended=lambda answer: False)))


# --------------------------------------------------------------------------- match status

RUNNING = (Match.Status.OPEN, Match.Status.ACTIVE)


def _status_watch(read: Reader, status: list[str]) -> Reader:
    """``read``, "ready" also when the status differs from the last one sent."""

    async def watched(subscription: events_hub.Subscription | None
                      ) -> tuple[fanout.Shared, bool]:
        answer, _ = await read(subscription)
        ready = answer.ready or answer.status != status[0]
        if ready:
            status[0] = answer.status
        return answer, ready

    return watched


async def _once(first: bytes) -> AsyncIterator[bytes]:
    yield b"retry: %d\n\n" % RETRY_MILLISECONDS + first


__all__ = ["FeedStreamParams", "MatchStreamParams", "match_stream", "user_stream"]
