"""The chat live: a long-poll and a stream of the lines a reader gets, on the same machinery
as the match's (``games.live``): a waiting request listens on the match's chat channel of the
events hub, and every answer is read again through ``lines.chat_read``.

    GET /api/matches/{id}/chat/events?after=<line id>&wait=<s>&limit=<n>
    GET /api/matches/{id}/chat/stream?after=<line id>      event "chat", id = next_after
"""

from __future__ import annotations

from functools import partial
from typing import Any
from uuid import UUID

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from rest_framework import serializers

from accounts.models import User
from config.api import QuerySerializer
from config.exceptions import ApplicationError
from games.live import fanout
from games.live.hub import PREFIX
from games.live.longpoll import (
    MAX_EVENT_ID,
    Reader,
    _coded_error,
    _long_poll,
    _long_poll_view,
    _prepare,
    _read,
    _render,
    _wait_field,
)
from games.live.streams import _messages, _stream, _stream_start
from games.people.lines import LIMIT_DEFAULT, LIMIT_MAX, chat_read


def chat_channel(match_id: object) -> str:
    return f"{PREFIX}chat:{match_id}"


class ChatEventsParams(QuerySerializer):
    after = serializers.IntegerField(required=False, default=0, min_value=0,
                                     max_value=MAX_EVENT_ID,
                                     help_text="The last line id the caller has (next_after).")
    wait = _wait_field()
    limit = serializers.IntegerField(required=False, default=LIMIT_DEFAULT, min_value=1,
                                     max_value=LIMIT_MAX)


class ChatStreamParams(QuerySerializer):
    after = serializers.IntegerField(
        required=False, default=0, min_value=0, max_value=MAX_EVENT_ID,
        help_text="The last line id the caller has; a Last-Event-ID header takes precedence.")


def chat_reader(request: HttpRequest, user: User, match_id: UUID, *, after: int,
                limit: int) -> Reader:
    """Reads of the lines ``user`` gets after ``after``; "ready" once there are some. Each
    reader's answer is its own (blocks, mutes and rooms differ from one reader to the next)."""

    def build() -> fanout.Shared:
        body = chat_read(user=user, match_id=match_id, after=after, limit=limit)
        return fanout.Shared(_render(body), bool(body["lines"]), body["next_after"])

    async def read(subscription: Any) -> tuple[fanout.Shared, bool]:
        answer = await _read(request, build)
        return answer, answer.ready

    return read


@_long_poll_view
async def chat_events(request: HttpRequest, match_id: UUID) -> HttpResponse:
    prepared = await _prepare(request, ChatEventsParams)
    if isinstance(prepared, HttpResponse):
        return prepared
    user, params = prepared
    read = chat_reader(request, user, match_id, after=params["after"], limit=params["limit"])
    try:
        return await _long_poll(request, channel=chat_channel(match_id), wait=params["wait"],
                                read=read)
    except ApplicationError as exc:  # MatchNotFound, also when the match turns private
        return _coded_error(exc)


@_long_poll_view
async def chat_stream(request: HttpRequest, match_id: UUID) -> HttpResponseBase:
    started = await _stream_start(request, ChatStreamParams, MAX_EVENT_ID)
    if isinstance(started, HttpResponse):
        return started
    user, after = started
    reader = partial(chat_reader, request, user, match_id, limit=LIMIT_DEFAULT)
    # The first read before the stream starts: a match the caller may not see is a plain 404.
    try:
        await reader(after=after)(None)
    except ApplicationError as exc:
        return _coded_error(exc)
    return _stream(_messages(
        request, channel=chat_channel(match_id), event="chat", first=b"",
        reader=lambda cursor: reader(after=cursor), after=after, ended=lambda answer: False))
