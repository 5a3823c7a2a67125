"""Chat and reports endpoints.

    GET  /api/matches/{id}/chat              the lines the caller gets (after a line id)
    POST /api/matches/{id}/chat              say a line
    PUT  /api/matches/{id}/chat/mute         mute the match's chat      DELETE: unmute
    GET  /api/matches/{id}/chat/events       long-poll of the lines (games.people.live)
    GET  /api/matches/{id}/chat/stream       the same as Server-Sent Events, event "chat"
    POST /api/reports                        report a player, a chat line or a match
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import QuerySerializer, StrictSerializer, error_responses, schema_serializer
from config.throttling import ScopedRateThrottle
from games.api.events import (
    LAST_EVENT_ID,
    STREAM_NOTE,
    documented,
    live_errors,
    stream_responses,
)
from games.people import live
from games.people.chat import chat_say
from games.people.lines import LIMIT_DEFAULT, LIMIT_MAX, chat_read, line_entry
from games.people.models import ChatLine, Report
from games.people.mutes import chat_mute, chat_unmute
from games.people.reports import report_file
from games.selectors import match_access

ROOMS = ChatLine.Room.values

ChatLineSerializer = schema_serializer("ChatLine", {
    "id": serializers.IntegerField(help_text="Increases with every line said (any match)."),
    "room": serializers.ChoiceField(choices=ROOMS, help_text=(
        "players: said by a seat; spectators: said by someone watching.")),
    "author": serializers.CharField(help_text="The author's username."),
    "body": serializers.CharField(),
    "created_at": serializers.DateTimeField(),
})
ChatSerializer = schema_serializer("Chat", {
    "lines": ChatLineSerializer(many=True),
    "next_after": serializers.IntegerField(help_text="Send as after to get newer lines."),
    "rooms": serializers.ListField(child=serializers.ChoiceField(choices=ROOMS), help_text=(
        "The rooms the caller gets now: a seat its own room and a spectator theirs while the "
        "match runs, both once it is over. When this grows, read again from after=0.")),
    "room": serializers.ChoiceField(choices=ROOMS, allow_null=True, help_text=(
        "Where the caller's lines go; null for an anonymous visitor.")),
    "muted": serializers.BooleanField(help_text=(
        "The caller muted this chat: they get their own lines only, and no chat entries.")),
})


class ChatQuery(QuerySerializer):
    after = serializers.IntegerField(required=False, default=0, min_value=0,
                                     max_value=live.MAX_EVENT_ID,
                                     help_text="The last line id the caller has (next_after).")
    limit = serializers.IntegerField(required=False, default=LIMIT_DEFAULT, min_value=1,
                                     max_value=LIMIT_MAX)


class ChatApi(APIView):
    """A match's chat. The seats talk in the players' room; anyone else who may see the match
    in the spectators' room, which the seats do not get while the match runs; once it is over
    both rooms are shown to whoever may see the match. A viewer never gets the lines of a
    player they blocked in chat, nor those of a shadow-banned player (who sees their own)."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "ChatLineInput"

        body = serializers.CharField(max_length=settings.CHAT_LINE_MAX_CHARS, help_text=(
            "The line (white space runs become one space). A link needs an account at least "
            "CHAT_LINK_MIN_ACCOUNT_DAYS (7) days old."))

    def get_throttles(self) -> list[Any]:
        throttles = super().get_throttles()
        if self.request.method == "POST":
            throttles.append(ScopedRateThrottle())
        return throttles

    throttle_scope = "chat"

    @extend_schema(operation_id="matches_chat", parameters=[ChatQuery],
                   responses={200: ChatSerializer, **error_responses(400, 404)})
    def get(self, request, match_id: UUID):
        query = ChatQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        return Response(chat_read(user=request.user, match_id=match_id, **query.validated_data))

    @extend_schema(
        operation_id="matches_chat_say", request=InputSerializer,
        description=(
            "Say a line. 201 with the line; 200 with the earlier line when it says the same "
            "as the caller's previous line in this match within CHAT_DUPLICATE_SECONDS (the "
            "duplicate is dropped). Bots say nothing (chat_not_allowed); a muted player is "
            "refused (chat_muted); at most 10 lines a minute (throttled)."),
        responses={201: ChatLineSerializer, 200: ChatLineSerializer,
                   **error_responses(400, 403, 404)})
    def post(self, request, match_id: UUID):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        line, new = chat_say(user=request.user, match_id=match_id,
                             body=data.validated_data["body"])
        return Response(line_entry(line),
                        status=status.HTTP_201_CREATED if new else status.HTTP_200_OK)


class ChatMuteApi(APIView):
    """Mute a match's chat for yourself (you get only your own lines, and no chat entries in
    your feed), or unmute it."""

    @extend_schema(operation_id="matches_chat_mute", request=None,
                   responses={204: None, **error_responses(404)})
    def put(self, request, match_id: UUID):
        chat_mute(user=request.user, match=match_access(user=request.user, match_id=match_id))
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(operation_id="matches_chat_unmute",
                   responses={204: None, **error_responses(404)})
    def delete(self, request, match_id: UUID):
        chat_unmute(user=request.user, match=match_access(user=request.user, match_id=match_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


ReportSerializer = schema_serializer("Report", {
    "id": serializers.IntegerField(),
    "reason": serializers.ChoiceField(choices=Report.Reason.values),
    "status": serializers.ChoiceField(choices=Report.Status.values, help_text=(
        "open until a moderator answers it.")),
    "created_at": serializers.DateTimeField(),
})


class ReportApi(APIView):
    """Report a player, a chat line or a match to the moderators, with a reason and a note.
    The reported player is never told. Reporting the same thing again while the report is
    open answers 200 with that report."""

    throttle_scope = "report"

    def get_throttles(self) -> list[Any]:
        return [*super().get_throttles(), ScopedRateThrottle()]

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "ReportInput"

        reason = serializers.ChoiceField(choices=Report.Reason.values)
        note = serializers.CharField(required=False, allow_blank=True, default="",
                                     max_length=1000)
        username = serializers.CharField(required=False, max_length=150, help_text=(
            "The player reported."))
        line = serializers.IntegerField(required=False, min_value=1,
                                        max_value=live.MAX_EVENT_ID, help_text=(
                                            "The id of a chat line the caller got."))
        match = serializers.UUIDField(required=False, help_text="A match the caller may see.")

    @extend_schema(operation_id="reports_create", request=InputSerializer,
                   responses={201: ReportSerializer, 200: ReportSerializer,
                              **error_responses(400, 404)})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        report, new = report_file(reporter=request.user, reason=values["reason"],
                                  note=values["note"], username=values.get("username"),
                                  line_id=values.get("line"), match_id=values.get("match"))
        return Response({"id": report.pk, "reason": report.reason, "status": report.status,
                         "created_at": report.created_at},
                        status=status.HTTP_201_CREATED if new else status.HTTP_200_OK)


chat_events = documented(
    live.chat_events,
    operation_id="matches_chat_events",
    summary="Long-poll the match's chat",
    description=(
        "The lines the caller gets (as in `GET .../chat`) with `id > after`. When there are "
        "none and `wait` > 0, the answer waits for the next line or `wait` seconds. Token "
        "authentication only."),
    parameters=[live.ChatEventsParams],
    responses={200: ChatSerializer, **live_errors(400, 401, 404)},
)
chat_stream = documented(
    live.chat_stream,
    operation_id="matches_chat_stream",
    summary="Stream the match's chat (Server-Sent Events)",
    description=(
        "Event `chat` whenever the caller gets new lines after the cursor; data as in "
        "`GET .../chat/events`. A match the caller may not see answers 404 before the stream "
        "starts." + STREAM_NOTE),
    parameters=[live.ChatStreamParams, LAST_EVENT_ID],
    responses=stream_responses(400, 401, 404),
)
