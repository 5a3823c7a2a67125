"""``GET /api/matches/{id}/board.svg``: a picture of the caller's view of a match.

The current position is drawn from the caller's seat view, exactly the ``view`` of the match
detail; ``?seq=N`` draws the position after move N (0 is the start) once the match is over, by
replaying the move log through the engine. Either way the picture is drawn from
``engine.view(state, seat)`` alone, so it hides what the view hides. Errors are the usual JSON
envelope; hidden matches are 404 as for the match detail.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpResponse, HttpResponseNotModified
from django.utils.http import parse_etags
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from config.api import StrictSerializer, error_responses
from config.exceptions import Conflict
from games.catalog import game, get_engine
from games.exceptions import MatchNotStarted
from games.kit.protocol import Engine, EngineError, State, apply_checked
from games.kit.render import MEDIA_TYPE, REVISION
from games.models import Match, Move
from games.selectors import PUBLIC_STATUSES, match_access, match_seats, seat_of

CONTENT_TYPE = f"{MEDIA_TYPE}; charset=utf-8"
# The current position changes with every move: always revalidate (the ETag makes that cheap).
# A past position of a match that is over never changes.
CACHE_CURRENT = "private, no-cache"
CACHE_PAST = "private, max-age=86400"
# The picture is never a document: nothing in it may run or load anything.
CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"


class ReplayNotAvailable(Conflict):
    code = "replay_not_available"
    default_message = ("Past positions are drawn only once the match is over; leave out seq "
                       "for the current one.")


class ReplayBroken(RuntimeError):
    """The move log does not replay through the rules: a server bug, never the caller's."""


# --------------------------------------------------------------------------- selector


@dataclass(frozen=True)
class BoardPicture:
    """What to draw: the viewer's view, the seats' player names, and its cache validator."""

    game: str
    view: dict[str, Any]
    names: list[str | None]
    etag: str
    past: bool


def board_etag(match: Match, seq: int | None) -> str:
    """The match detail's ETag, marked as this picture (and its position, for ``?seq``) and
    the renderer's revision, so a new renderer is never served from an old cache entry."""
    mark = f"svg{REVISION}" if seq is None else f"svg{REVISION}-seq{seq}"
    return f'{match.etag[:-1]}-{mark}"'


def board_check(match: Match, seq: int | None) -> None:
    """Refuse what cannot be drawn: a match not started, a past position of a running match,
    a position that does not exist."""
    if match.state is None:
        raise MatchNotStarted("The match has not started: there is no board to draw yet.")
    if seq is None:
        return
    if match.status not in PUBLIC_STATUSES:
        raise ReplayNotAvailable(status=match.status)
    if not 0 <= seq <= match.version:
        raise serializers.ValidationError(
            {"seq": [f"This match has positions 0 to {match.version}."]})


def board_picture(*, match: Match, user: User, seq: int | None = None) -> BoardPicture:
    """The caller's view to draw: of the current position, or (only once the match is over)
    of the position after move ``seq``. The caller's seat is found as for the match detail;
    anyone else gets the spectator view."""
    board_check(match, seq)
    engine = get_engine(match.game)
    mine = seat_of(match, user)
    viewer = mine.index if mine else None
    if seq is None or seq == match.version:
        state = engine.load(match.state)
    else:
        state = state_at(match, engine, seq)
    view = engine.view(state, viewer)
    view.pop("legal_moves", None)  # not drawn; and only ever the caller's own
    names = [seat.user.username if seat.user is not None else None
             for seat in match_seats(match)]
    return BoardPicture(game=match.game, view=view, names=names,
                        etag=board_etag(match, seq), past=seq is not None)


def state_at(match: Match, engine: Engine, seq: int) -> State:
    """The state after move ``seq``: the match's first state from its seed, then the log's
    moves, system steps and forfeits up to ``seq`` through the engine, as they were recorded."""
    state = engine.initial_state(num_players=match.num_players, config=match.config,
                                 seed=match.seed)
    moves = (Move.objects.filter(match=match, seq__lte=seq).order_by("seq")
             .only("seq", "kind", "seat", "payload"))
    for move in moves:
        try:
            state = _replayed(engine, state, move)
        except (EngineError, ValueError, KeyError, TypeError) as exc:
            raise ReplayBroken(f"Move {move.seq} of match {match.id} does not replay: "
                               f"{exc}") from exc
    return state


def _replayed(engine: Engine, state: State, move: Move) -> State:
    if move.kind == Move.Kind.MOVE:
        return apply_checked(engine, state, move.seat, engine.parse_move(move.payload)).state
    if move.kind == Move.Kind.FORFEIT:
        return engine.forfeit(state, move.seat).state
    if move.kind == Move.Kind.SYSTEM:
        payload = move.payload if isinstance(move.payload, dict) else {}
        if payload.get("reason") == "idle":
            # The server's stall guard for real-time matches (deadlines.match_deadline_expire).
            return engine.end_stalemate(state).state  # type: ignore[attr-defined]
        transition = engine.system_step(state)
        if transition is None:
            raise ValueError("a system step was recorded where none was due")
        return transition.state
    raise ValueError(f"unknown move kind {move.kind!r}")


# --------------------------------------------------------------------------- API


class SvgRenderer(BaseRenderer):
    """The one representation of the picture (see ``perform_content_negotiation``)."""

    media_type = MEDIA_TYPE
    format = "svg"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: Any = None,
               renderer_context: Any = None) -> bytes:
        return data.encode("utf-8") if isinstance(data, str) else b""


class BoardQuerySerializer(StrictSerializer):
    # Strict like every query of the API: an unknown parameter is a 400, not silently ignored.
    seq = serializers.IntegerField(required=False, min_value=0)


def _matches(header: str | None, etag: str) -> bool:
    if not header:
        return False
    tags = parse_etags(header)
    return "*" in tags or etag in tags or f"W/{etag}" in tags


class MatchBoardSvgApi(APIView):
    renderer_classes = [SvgRenderer]

    @extend_schema(
        operation_id="matches_board_svg",
        summary="A picture of the board",
        description=(
            "An SVG picture of the caller's view of the match: the current position, or with "
            "`seq` the position after that move (0 is the start) once the match is over. "
            "Hidden information stays hidden, as in the match detail's `view`. Every colour "
            "also has a letter (Nimalia terrains a pattern too), and the picture has a "
            "`<title>` and a `<desc>` for screen readers. 409 `match_not_started` before the "
            "start, `replay_not_available` for `seq` while the match runs."),
        parameters=[
            OpenApiParameter("seq", {"type": "integer", "minimum": 0},
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
        match = match_access(user=request.user, match_id=match_id)
        board_check(match, seq)
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
