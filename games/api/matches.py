"""Thin match API views: validate the envelope, call one service or selector, answer."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import (
    CursorField,
    QuerySerializer,
    StrictSerializer,
    error_responses,
    keyset_pagination,
)
from games import selectors, services
from games.api import schemas
from games.api.idempotency import answer_replay, answer_store
from games.api.schemas import GAME_SLUGS, GameField
from games.api.timecontrols import TimeControlField
from games.exceptions import NotSeated
from games.models import IdempotencyRecord
from games.notify.limits import player_looked

# The largest `after` a move-log page takes: any 64-bit integer (past the last seq the page is
# empty); larger numbers are refused, as no client could have been given one.
MAX_AFTER = 2**63 - 1


class GameListApi(APIView):
    # Public: anyone may read what is played here, signed in or not.
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(operation_id="games_list",
                   responses={200: schemas.GameSerializer(many=True), **error_responses()})
    def get(self, request):
        return Response(selectors.game_list())


class BotListApi(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(operation_id="bots_list",
                   parameters=[OpenApiParameter("game", str, enum=GAME_SLUGS)],
                   responses={200: schemas.BotSerializer(many=True), **error_responses(400)})
    def get(self, request):
        game = request.query_params.get("game")
        if game is not None:
            selectors.game_engine(game)
        return Response(selectors.bot_list(game=game))


class SeatInputSerializer(StrictSerializer):
    kind = serializers.ChoiceField(choices=["me", "user", "bot", "open"])
    username = serializers.CharField(required=False, max_length=150)
    level = serializers.IntegerField(required=False, min_value=1, max_value=4)

    def validate(self, attrs):
        if attrs["kind"] == "user" and not attrs.get("username"):
            raise serializers.ValidationError({"username": ["Required for kind 'user'."]})
        if attrs["kind"] == "bot" and attrs.get("level") is None:
            raise serializers.ValidationError({"level": ["Required for kind 'bot'."]})
        return attrs


MatchPagination = keyset_pagination("MatchPagination", keys=selectors.list_order("created"),
                                    page_size=25, max_page_size=100)
MATCH_STATUSES = ["open", "active", "finished", "aborted"]
SORT_HELP = {
    "created": "newest first",
    "time_left": "soonest deadline first, matches without one last",
    "last_move": "most recent move first (a match nobody moved in yet: since it started, "
                 "or was created)",
    "game": "by game, then by last move",
    "ended": "by when the match ended, latest first (matches not over yet before them)",
}


def sort_description(sorts: Iterable[str], default: str) -> str:
    return "; ".join(f"`{sort}`: {SORT_HELP[sort]}" for sort in sorts) + f". {default}"


LIST_SORT_TEXT = sort_description(selectors.LIST_SORTS, (
    "Default: `time_left` with `my_turn=true`, else `ended` with `status=finished`, else "
    "`created`. Each ends in the match id, so cursor pages never skip nor repeat a match; a "
    "cursor keeps to the order it was issued for."))
INBOX_SORT_TEXT = sort_description(selectors.INBOX_SORTS, (
    "Default: `time_left`, which puts the matches where you must act first (each part "
    "soonest deadline first)."))


class MatchListCreateApi(APIView):
    pagination_class = MatchPagination  # so the schema shows the paginated envelope

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "MatchCreate"

        game = GameField()
        players = serializers.IntegerField(required=False, min_value=1, max_value=4)
        config = serializers.DictField(required=False, default=dict)
        seats = SeatInputSerializer(many=True, required=False,  # type: ignore[call-arg]
                                    min_length=1, max_length=4)
        rated = serializers.BooleanField(required=False, default=True)
        private = serializers.BooleanField(required=False, default=False, help_text=(
            "Seen only by its seats. Always so for a player who keeps their matches "
            "private."))
        time_control = TimeControlField(required=False, allow_null=True, help_text=(
            "Correspondence clock; omit or null for a casual match without deadlines."))
        plans = serializers.BooleanField(required=False, default=True, help_text=(
            "Whether the seats may hold plans (conditional moves, where the game allows them); "
            "a rematch keeps the choice."))

    class FilterSerializer(QuerySerializer):
        game = GameField(required=False)
        status = serializers.ChoiceField(choices=MATCH_STATUSES, required=False)
        scope = serializers.ChoiceField(choices=["mine", "open", "all"], required=False,
                                        default="mine")
        my_turn = serializers.BooleanField(required=False, default=False)
        sort = serializers.ChoiceField(choices=selectors.LIST_SORTS, required=False)
        cursor = CursorField()
        limit = serializers.IntegerField(required=False, min_value=1,
                                         max_value=MatchPagination.max_page_size)

    @extend_schema(operation_id="matches_create", request=InputSerializer,
                   responses={201: schemas.MatchDetailSerializer, **error_responses(400, 409)})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        seats = values.get("seats")
        match = services.match_create(
            user=request.user, game=values["game"], players=values.get("players"),
            config=values["config"], rated=values["rated"],
            seats=[services.SeatSpec(**seat) for seat in seats] if seats else None,
            time_control=values.get("time_control"),
            private=values["private"], plans=values["plans"],
        )
        return Response(selectors.match_detail(match, request.user),
                        status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="matches_list",
        parameters=[
            OpenApiParameter("game", str, enum=GAME_SLUGS),
            OpenApiParameter("status", str, enum=MATCH_STATUSES),
            OpenApiParameter("scope", str, enum=["mine", "open", "all"],
                             description="mine (default): my seats; open: joinable; all."),
            OpenApiParameter("my_turn", bool,
                             description="true: only active matches where I must act."),
            OpenApiParameter("sort", str, enum=list(selectors.LIST_SORTS),
                             description=LIST_SORT_TEXT),
            OpenApiParameter("cursor", str, description=CursorField().help_text),
            OpenApiParameter("limit", {"type": "integer", "minimum": 1,
                                       "maximum": MatchPagination.max_page_size}),
        ],
        responses={200: schemas.MatchSummarySerializer(many=True),
                   **error_responses(400, 404)},
    )
    def get(self, request):
        filters = self.FilterSerializer(data=request.query_params.dict())
        filters.is_valid(raise_exception=True)
        values = {k: v for k, v in filters.validated_data.items() if k not in ("cursor", "limit")}
        values["sort"] = selectors.list_sort(sort=values.get("sort"), my_turn=values["my_turn"],
                                             status=values.get("status"))
        return MatchPagination.respond(
            selectors.match_list(user=request.user, **values), request, self,
            lambda page: [selectors.match_summary(match, request.user) for match in page],
            keys=selectors.list_order(values["sort"]))


class MatchDetailApi(APIView):
    # Anyone, signed in or not, may read a match that is over (and an open one) unless it is
    # private; a running match only its seats and creator. A visitor sees what a spectator
    # does: no seat's hidden information.
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(operation_id="matches_detail",
                   parameters=[OpenApiParameter("If-None-Match", str, OpenApiParameter.HEADER)],
                   responses={200: schemas.MatchDetailSerializer, 304: None,
                              **error_responses(404)})
    def get(self, request, match_id):
        match = selectors.match_access(user=request.user, match_id=match_id)
        etag = selectors.match_etag(match)
        if request.headers.get("If-None-Match") == etag:
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
        return Response(selectors.match_detail(match, request.user), headers={"ETag": etag})


class MatchJoinApi(APIView):
    @extend_schema(operation_id="matches_join", request=None,
                   responses={200: schemas.MatchDetailSerializer, **error_responses(404, 409)})
    def post(self, request, match_id):
        match = services.match_join(user=request.user, match_id=match_id)
        return Response(selectors.match_detail(match, request.user))


class MoveInputSerializer(StrictSerializer):
    move = serializers.JSONField(help_text="The game's move, e.g. {\"take\": [[0, 0]]}.")
    expected_version = serializers.IntegerField(required=False, min_value=0, help_text=(
        "The version the move was chosen against; a mismatch answers 409 stale_version."))
    plan = serializers.JSONField(required=False, allow_null=True, help_text=(
        "POST .../moves only (a dry run refuses it): the mover's plan from the position right "
        "after the move (docs/plans.md; openings if the mover is still to act there), saved "
        "with it atomically: a plan refused answers its coded error and the move is not "
        "recorded either; an empty list deletes the mover's plan. Without `plan`, the move "
        "keeps of the mover's plan only the openings that start with it."))


_MOVE_FIELDS = frozenset(MoveInputSerializer._declared_fields)


def move_input(data: Any) -> tuple[Any, int | None, Any]:
    """The move, expected version and plan of a move's body, as ``MoveInputSerializer``
    validates them. A body as clients send it (an object with a move, maybe a version of 0 or
    more and a plan, nothing else) is read as it is, without the serializer, which every move
    would pay for; anything else goes through the serializer, which says what is wrong
    (tests/games/apis/test_move_input.py holds the two to the same answers)."""
    if type(data) is dict and data.keys() <= _MOVE_FIELDS and data.get("move") is not None:
        version = data.get("expected_version", 0)
        if type(version) is int and version >= 0:
            return data["move"], data.get("expected_version"), data.get("plan")
    checked = MoveInputSerializer(data=data)
    checked.is_valid(raise_exception=True)
    return (checked.validated_data["move"], checked.validated_data.get("expected_version"),
            checked.validated_data.get("plan"))


IDEMPOTENCY_HEADER = OpenApiParameter(
    "Idempotency-Key", str, OpenApiParameter.HEADER,
    description="Any unique string of 1 to 255 printable ASCII characters; a retry with the "
                "same key returns the first answer and records nothing new.")


def _idempotency_key(request) -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is not None and not (1 <= len(key) <= 255 and key.isascii() and key.isprintable()):
        raise serializers.ValidationError(
            {"Idempotency-Key": ["1 to 255 printable ASCII characters."]})
    return key


class MatchMoveApi(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    def throttle_exempt(self, request) -> bool:
        """A player over its request budget still gets a move through where it must act, so a
        busy client is never locked out of its own turn (see PlayerRateThrottle)."""
        return selectors.user_must_act(user=request.user, match_id=self.kwargs["match_id"])

    class LogFilterSerializer(QuerySerializer):
        after = serializers.IntegerField(required=False, min_value=0, max_value=MAX_AFTER,
                                         default=0)
        limit = serializers.IntegerField(required=False, min_value=1, max_value=500, default=100)

    @extend_schema(operation_id="matches_moves_submit", request=MoveInputSerializer,
                   parameters=[IDEMPOTENCY_HEADER],
                   responses={201: schemas.MoveResultSerializer,
                              **error_responses(400, 403, 404, 409, 422)})
    def post(self, request, match_id):
        move, expected_version, plan = move_input(request.data)
        key = _idempotency_key(request)
        if key is None:
            result = services.match_move_submit(user=request.user, match_id=match_id, move=move,
                                                expected_version=expected_version, plan=plan)
            return Response(_move_answer(result, request.user), status=status.HTTP_201_CREATED)
        # The move and the answer kept for its retries commit together.
        with transaction.atomic():
            result = services.match_move_submit(
                user=request.user, match_id=match_id, move=move,
                expected_version=expected_version, idempotency_key=key, plan=plan)
            if isinstance(result, IdempotencyRecord):  # a retry: the first answer again
                return answer_replay(result)
            return answer_store(
                view=self, request=request, key=key, match=result.match,
                fingerprint=services.move_fingerprint(move, expected_version, plan),
                status=status.HTTP_201_CREATED, body=_move_answer(result, request.user))

    @extend_schema(operation_id="matches_moves_list",
                   parameters=[
                       OpenApiParameter("after", {"type": "integer", "minimum": 0,
                                                  "maximum": MAX_AFTER}),
                       OpenApiParameter("limit", {"type": "integer", "minimum": 1,
                                                  "maximum": 500}),
                   ],
                   responses={200: schemas.MoveLogSerializer, **error_responses(400, 404)})
    def get(self, request, match_id):
        filters = self.LogFilterSerializer(data=request.query_params.dict())
        filters.is_valid(raise_exception=True)
        match = selectors.match_access(user=request.user, match_id=match_id)
        return Response(selectors.match_move_log(match=match, user=request.user,
                                                 **filters.validated_data))


def _move_answer(result, user) -> dict:
    """A recorded move as the mover is answered: its seq, the events its seat was shown and the
    match after it."""
    assert isinstance(result, services.MoveResult)  # a retry is answered before
    return {"seq": result.seq, "events": result.events,
            "match": selectors.match_detail(result.match, user, state=result.state)}


class MatchSeenApi(APIView):
    """The player looked at the match (a match page showed its position): the next "your
    turn" notice may go out (the flood limit: docs/notifications.md)."""

    def throttle_exempt(self, request) -> bool:
        """Never refused to a seat of the match, however busy its client."""
        return selectors.user_seated(user=request.user, match_id=self.kwargs["match_id"])

    @extend_schema(operation_id="matches_seen", request=None,
                   description=(
                       "Record that the caller, a seat of the match, looked at it: after a "
                       "\"your turn\" notice, the next one for this match goes out only once "
                       "the player has looked at the match (or moved in it). Changes nothing "
                       "else; reading the match (GET) records nothing."),
                   responses={204: None, **error_responses(403, 404)})
    def post(self, request, match_id):
        match = selectors.match_access(user=request.user, match_id=match_id)
        if selectors.seat_of(match, request.user) is None:
            raise NotSeated()
        player_looked(user_id=request.user.id, match_id=match.id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MatchMovePreviewApi(APIView):
    @extend_schema(operation_id="matches_moves_preview", request=MoveInputSerializer,
                   responses={200: schemas.PreviewSerializer,
                              **error_responses(400, 403, 404, 409, 422)})
    def post(self, request, match_id):
        data = MoveInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if data.validated_data.get("plan") is not None:
            raise serializers.ValidationError({"plan": ["A dry run takes no plan."]})
        return Response(services.match_move_preview(
            user=request.user, match_id=match_id, move=data.validated_data["move"],
            expected_version=data.validated_data.get("expected_version")))


class MatchResignApi(APIView):
    @extend_schema(operation_id="matches_resign", request=None,
                   responses={200: schemas.MatchDetailSerializer,
                              **error_responses(403, 404, 409)})
    def post(self, request, match_id):
        match = services.match_resign(user=request.user, match_id=match_id)
        return Response(selectors.match_detail(match, request.user))


class MatchAbortApi(APIView):
    @extend_schema(operation_id="matches_abort", request=None,
                   responses={200: schemas.MatchDetailSerializer,
                              **error_responses(403, 404, 409)})
    def post(self, request, match_id):
        match = services.match_abort(user=request.user, match_id=match_id)
        return Response(selectors.match_detail(match, request.user))


class MatchRematchApi(APIView):
    @extend_schema(
        operation_id="matches_rematch", request=None,
        description=(
            "Ask for a rematch of a finished match: the same game, options, clock, rating and "
            "privacy with the same players, each seat moved one place on (two players swap). "
            "Other people's seats become invitations, bots sit down at once. Made once per "
            "match: the first call creates it (201), any later call by any of the players "
            "answers the same match (200), accepting the caller's pending invitation to it. "
            "409 `rematch_not_available` while the match runs or after an abort."),
        responses={201: schemas.MatchDetailSerializer, 200: schemas.MatchDetailSerializer,
                   **error_responses(400, 403, 404, 409)})
    def post(self, request, match_id):
        rematch, created = services.match_rematch(user=request.user, match_id=match_id)
        return Response(selectors.match_detail(rematch, request.user),
                        status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class MatchDeclineApi(APIView):
    @extend_schema(operation_id="matches_decline", request=None,
                   responses={200: schemas.MatchSummarySerializer,
                              **error_responses(404, 409)})
    def post(self, request, match_id):
        match = services.match_decline(user=request.user, match_id=match_id)
        return Response(selectors.match_summary(match, request.user))


class InvitationListApi(APIView):
    @extend_schema(operation_id="me_invitations",
                   responses={200: schemas.MatchSummarySerializer(many=True),
                              **error_responses()})
    def get(self, request):
        return Response([selectors.match_summary(match, request.user)
                         for match in selectors.invitations_for(user=request.user)])


class InboxApi(APIView):
    class FilterSerializer(QuerySerializer):
        sort = serializers.ChoiceField(choices=selectors.INBOX_SORTS, required=False,
                                       default="time_left")
        game = GameField(required=False)
        my_turn = serializers.BooleanField(required=False, default=False)

    @extend_schema(
        operation_id="me_inbox",
        description=("My active and open matches, invitations included, all of them (no "
                     "pages)."),
        parameters=[
            OpenApiParameter("sort", str, enum=list(selectors.INBOX_SORTS),
                             description=INBOX_SORT_TEXT),
            OpenApiParameter("game", str, enum=GAME_SLUGS),
            OpenApiParameter("my_turn", bool,
                             description="true: only the matches where I must act."),
        ],
        responses={200: schemas.MatchSummarySerializer(many=True), **error_responses(400)})
    def get(self, request):
        filters = self.FilterSerializer(data=request.query_params.dict())
        filters.is_valid(raise_exception=True)
        return Response([selectors.match_summary(match, request.user) for match in
                         selectors.match_inbox(user=request.user, **filters.validated_data)])
