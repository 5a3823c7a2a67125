"""The OpenAPI schema of the long-poll and stream endpoints (``games.live.longpoll``,
``games.live.streams``).

Those views are async functions, not DRF views; drf-spectacular lists URL callbacks whose
``cls`` is a DRF view and reads the schema from that class, so each long-poll view is given a
stand-in DRF view here that only declares its schema, and Django still calls the function.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.views import APIView

from accounts.authentication import CachedTokenAuthentication
from config.api import ErrorSerializer
from games.api.schemas import MatchEventsSerializer, UserEventFeedSerializer
from games.live import longpoll, streams


def live_errors(*statuses: int) -> dict[int, OpenApiResponse]:
    descriptions = {400: "Invalid query parameter (validation_error).",
                    401: "Missing or invalid credentials.",
                    404: "Not found, or not visible to the caller."}
    return {status: OpenApiResponse(ErrorSerializer, description=descriptions[status])
            for status in statuses}


def documented(view: Callable[..., Any], **schema: Any) -> Callable[..., Any]:
    """The async ``view`` itself, declared for the OpenAPI schema by a stand-in DRF view that
    never serves a request (``schema``: ``extend_schema``'s arguments for its GET)."""

    @extend_schema(**schema)
    def get(self: APIView, request: Any, **kwargs: Any) -> Any:  # pragma: no cover
        raise NotImplementedError("the async view serves requests")

    name = "".join(part.title() for part in schema["operation_id"].split("_")) + "Schema"
    stand_in = type(name, (APIView,), {
        "__doc__": f"Declares the {view.__name__} view for the OpenAPI schema.",
        "authentication_classes": [CachedTokenAuthentication], "get": get})
    view.cls = stand_in  # type: ignore[attr-defined]
    view.initkwargs = {}  # type: ignore[attr-defined]
    return view


LAST_EVENT_ID = OpenApiParameter(
    "Last-Event-ID", OpenApiTypes.STR, OpenApiParameter.HEADER, required=False,
    description="The id of the last message received: the stream resumes after it "
                "(sent by EventSource on reconnection; takes precedence over `after`).")
STREAM_NOTE = (
    " Server-Sent Events (`text/event-stream`): each message has an `id` (the cursor to resume "
    "from, sent back as `Last-Event-ID`), an `event` name and one line of JSON `data`, exactly "
    "the answer the long-poll would give at that moment. A comment line (`: keep-alive`) breaks "
    "silences every EVENTS_HEARTBEAT_SECONDS (15 s); the stream ends after "
    "EVENTS_STREAM_SECONDS (1 hour) and the client reconnects. Token authentication only.")


def stream_responses(*statuses: int) -> dict[Any, Any]:
    """A stream's responses: the event stream, and the errors answered before it starts."""
    return {(200, "text/event-stream"): OpenApiResponse(
        OpenApiTypes.STR, description="The stream."), **live_errors(*statuses)}


match_events = documented(
    longpoll.match_events,
    operation_id="matches_events",
    summary="Long-poll the match's move log",
    description=(
        "The entries of the move log (redacted for the caller, as in `GET .../moves`) with "
        "`seq > after`. When there are none and `wait` > 0, the answer waits until the "
        "match changes or `wait` seconds pass, then answers what is there (possibly "
        "nothing). It answers at once when the match is over, and when its status changes "
        "(an open match starts, a match is aborted). Token authentication only."),
    parameters=[longpoll.MatchEventsParams],
    responses={200: MatchEventsSerializer, **live_errors(400, 401, 404)},
)
user_events = documented(
    longpoll.user_events,
    operation_id="me_events",
    summary="Long-poll the caller's event feed",
    description=(
        "The caller's feed entries with `id > after`, oldest first: invited, "
        "invitation_declined, match_started, your_turn, deadline_soon, timed_out, "
        "match_finished, match_aborted, rating_changed, vacation_ending, vacation_ended, "
        "auto_vacation_started, plan_not_covered, plan_dropped, chat (someone wrote in the "
        "players' chat of your match; at most one per match per quiet period), warned (a "
        "moderator's warning), tournament_starts_soon, tournament_round, tournament_withdrawn, "
        "tournament_finished. "
        "When there are none and `wait` > "
        "0, the answer waits for the next entry or `wait` seconds. Token authentication "
        "only."),
    parameters=[longpoll.FeedParams],
    responses={200: UserEventFeedSerializer, **live_errors(400, 401)},
)
match_stream = documented(
    streams.match_stream,
    operation_id="matches_stream",
    summary="Stream the match's move log (Server-Sent Events)",
    description=(
        "Event `match` at once (where the match stands: its moves after the cursor, "
        "possibly none), then whenever the match has new moves (redacted for the caller, "
        "as in `GET .../moves`) or its status changes; data as in `GET .../events`. "
        "The stream ends after the message showing the match over. A match "
        "the caller may not see answers 404 before the stream starts." + STREAM_NOTE),
    parameters=[streams.MatchStreamParams, LAST_EVENT_ID],
    responses=stream_responses(400, 401, 404),
)
user_stream = documented(
    streams.user_stream,
    operation_id="me_stream",
    summary="Stream the caller's event feed (Server-Sent Events)",
    description=(
        "Event `feed` whenever the caller's feed has entries after the cursor; data as in "
        "`GET /api/me/events`." + STREAM_NOTE),
    parameters=[streams.FeedStreamParams, LAST_EVENT_ID],
    responses=stream_responses(400, 401),
)
