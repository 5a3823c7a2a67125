"""``GET /api/matches/{id}/board.svg``: a picture of the caller's view of a match.

The current position is drawn from the caller's seat view, exactly the ``view`` of the match
detail; ``?seq=N`` draws the position after move N (0 is the start) once the match is over, by
replaying the move log through the engine (``games.selectors.boards``). Errors are the usual
JSON envelope; hidden matches are 404 as for the match detail.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse, HttpResponseNotModified
from django.utils.http import parse_etags
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import QuerySerializer, error_responses
from games import selectors
from games.catalog import game
from games.kit.render import MEDIA_TYPE
from games.selectors.boards import board_check, board_etag, board_picture

CONTENT_TYPE = f"{MEDIA_TYPE}; charset=utf-8"
# The current position changes with every move: always revalidate (the ETag makes that cheap).
# A past position of a match that is over never changes.
CACHE_CURRENT = "private, no-cache"
CACHE_PAST = "private, max-age=86400"
# The picture is never a document: nothing in it may run or load anything.
CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"


class SvgRenderer(BaseRenderer):
    """The one representation of the picture (see ``perform_content_negotiation``)."""

    media_type = MEDIA_TYPE
    format = "svg"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: Any = None,
               renderer_context: Any = None) -> bytes:
        return data.encode("utf-8") if isinstance(data, str) else b""


class BoardQuerySerializer(QuerySerializer):
    # Strict like every query of the API: an unknown parameter is a 400, not silently ignored.
    seq = serializers.IntegerField(required=False, min_value=0, max_value=2**31 - 1)


def _matches(header: str | None, etag: str) -> bool:
    if not header:
        return False
    tags = parse_etags(header)
    return "*" in tags or etag in tags or f"W/{etag}" in tags


class MatchBoardSvgApi(APIView):
    renderer_classes = [SvgRenderer]
    # Visible as the match detail is: a visitor sees a public match as a spectator.
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        operation_id="matches_board_svg",
        summary="A picture of the board",
        description=(
            "An SVG picture of the caller's view of the match: the current position, or with "
            "`seq` the position after that move (0 is the start) once the match is over. "
            "Hidden information stays hidden, as in the match detail's `view`. Every colour "
            "also has a letter (Nimalia terrains a pattern too), and the picture has a "
            "`<title>` and a `<desc>` for screen readers. In the current position a player on "
            "vacation is marked after their name (the seats' `on_vacation`), and the ETag "
            "changes when a vacation starts or ends. 409 `match_not_started` before the "
            "start, `replay_not_available` for `seq` while the match runs."),
        parameters=[
            OpenApiParameter("seq", {"type": "integer", "minimum": 0, "maximum": 2**31 - 1},
                             description="Draw the position after this move (0: the start); "
                                         "only once the match is over."),
            OpenApiParameter("If-None-Match", str, OpenApiParameter.HEADER),
            OpenApiParameter("ETag", str, OpenApiParameter.HEADER, response=[200, 304],
                             required=True),
        ],
        responses={
            (200, MEDIA_TYPE): OpenApiResponse(OpenApiTypes.STR,
                                               description="The SVG document."),
            304: OpenApiResponse(description="Not modified: the picture matches If-None-Match."),
            **{(code, "application/json"): response
               for code, response in error_responses(400, 404, 409).items()},
        },
    )
    def get(self, request, match_id):
        query = BoardQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        seq = query.validated_data.get("seq")
        match = selectors.match_access(user=request.user, match_id=match_id)
        board_check(match, seq)
        if seq is not None and seq > match.version:
            raise serializers.ValidationError(
                {"seq": [f"This match has positions 0 to {match.version}."]})
        etag = board_etag(match, seq)
        cache = CACHE_PAST if seq is not None else CACHE_CURRENT
        if _matches(request.headers.get("If-None-Match"), etag):
            response = HttpResponseNotModified()
        else:
            picture = board_picture(match=match, user=request.user, seq=seq)
            response = HttpResponse(game(picture.game).render(picture.view, picture.names),
                                    content_type=CONTENT_TYPE)
            response["Content-Security-Policy"] = CSP
            response["X-Content-Type-Options"] = "nosniff"
        response["ETag"] = etag
        response["Cache-Control"] = cache
        return response

    def perform_content_negotiation(self, request, force=False):
        # One representation, whatever Accept says: no 406 for an <img> that asks for
        # image/webp first.
        renderer = SvgRenderer()
        return renderer, renderer.media_type

    def finalize_response(self, request, response, *args, **kwargs):
        if isinstance(response, Response):
            # Errors are the JSON envelope whatever the request accepts.
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = JSONRenderer.media_type
        return super().finalize_response(request, response, *args, **kwargs)
