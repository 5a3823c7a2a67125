"""Thin tournament API views: validate the envelope, call one service or selector, answer."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import (
    CursorField,
    QuerySerializer,
    StrictSerializer,
    cursor_pagination,
    error_responses,
)
from games.api.schemas import GAME_SLUGS, GameField, serializer_for
from games.api.timecontrols import TimeControlField
from games.selectors.players import player_get
from games.tournaments import selectors, shapes
from games.tournaments.models import Tournament
from games.tournaments.services.creation import (
    MAX_CHALLENGE_DAYS,
    MAX_PLAYERS,
    MAX_REACH,
    MAX_ROUND_DAYS,
    MAX_ROUNDS,
    Settings,
    tournament_create,
)
from games.tournaments.services.entries import (
    tournament_join,
    tournament_leave,
    tournament_withdraw,
)
from games.tournaments.services.ladder import tournament_challenge

SummarySerializer = serializer_for(shapes.TournamentSummary)
DetailSerializer = serializer_for(shapes.TournamentDetail)
HistorySerializer = serializer_for(shapes.TournamentHistoryEntry)

TournamentPagination = cursor_pagination("TournamentPagination", ordering=("-starts_at", "-id"),
                                         page_size=25, max_page_size=100)
STATUSES = list(Tournament.Status.values)
CURSOR_HELP = str(CursorField().help_text)


class TournamentListCreateApi(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]
    pagination_class = TournamentPagination  # so the schema shows the paginated envelope

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TournamentCreate"

        name = serializers.CharField(max_length=100)
        game = GameField()
        format = serializers.ChoiceField(choices=list(Tournament.Format.values))
        players_per_match = serializers.IntegerField(required=False, default=2, min_value=2,
                                                     max_value=4)
        config = serializers.DictField(required=False, default=dict)
        time_control = TimeControlField(help_text=(
            "The clock of every match, in the form POST /matches takes; "
            "`vacation_allowed` and `weekend_pause` apply to every match."))
        rated = serializers.BooleanField(required=False, default=True)
        plans = serializers.BooleanField(required=False, default=True, help_text=(
            "Whether players may hold plans (conditional moves) in its matches."))
        bots_allowed = serializers.BooleanField(required=False, default=False, help_text=(
            "Whether the creator may enter bots (POST .../join with `bot_level`)."))
        starts_at = serializers.DateTimeField(help_text=(
            "Entries are taken until then (at most 90 days ahead)."))
        min_players = serializers.IntegerField(required=False, default=2, min_value=2,
                                               max_value=MAX_PLAYERS)
        max_players = serializers.IntegerField(required=False, allow_null=True, min_value=2,
                                               max_value=MAX_PLAYERS, help_text=(
                                                   "Round robin: at most 20, 10 if left out."))
        min_rating = serializers.IntegerField(required=False, allow_null=True)
        min_games = serializers.IntegerField(required=False, allow_null=True)
        rounds = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                          max_value=MAX_ROUNDS, help_text=(
                                              "Swiss only (default 5)."))
        round_days = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                              max_value=MAX_ROUND_DAYS, help_text=(
                                                  "A round ends when all its matches are "
                                                  "over, or this many days after it began if "
                                                  "sooner; left out: only when all are over."))
        placing_points = serializers.ListField(
            child=serializers.FloatField(), required=False, allow_null=True,
            min_length=3, max_length=4, help_text=(
                "Tables of 3 or 4: the points of each place, first place first, never rising "
                "(default 4/2/0 and 6/4/2/0); ties share."))
        challenge_reach = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                                   max_value=MAX_REACH, help_text=(
                                                       "Ladder: how many places up a player "
                                                       "may challenge (default 3)."))
        challenge_days = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                                  max_value=MAX_CHALLENGE_DAYS, help_text=(
                                                      "Ladder: the days the challenged player "
                                                      "has to make a first move (default 7)."))

    class FilterSerializer(QuerySerializer):
        game = GameField(required=False)
        status = serializers.ChoiceField(choices=STATUSES, required=False)
        mine = serializers.BooleanField(required=False, default=False)
        cursor = CursorField()
        limit = serializers.IntegerField(required=False, min_value=1,
                                         max_value=TournamentPagination.max_page_size)

    @extend_schema(operation_id="tournaments_create", request=InputSerializer,
                   responses={201: DetailSerializer, **error_responses(400, 403)})
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        values["plans_allowed"] = values.pop("plans")
        tournament = tournament_create(user=request.user, settings=Settings(**values))
        return Response(selectors.tournament_detail(tournament, request.user),
                        status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="tournaments_list",
        parameters=[
            OpenApiParameter("game", str, enum=GAME_SLUGS),
            OpenApiParameter("status", str, enum=STATUSES),
            OpenApiParameter("mine", bool, description="true: only those I entered."),
            OpenApiParameter("cursor", str, description=CURSOR_HELP),
            OpenApiParameter("limit", {"type": "integer", "minimum": 1,
                                       "maximum": TournamentPagination.max_page_size}),
        ],
        responses={200: SummarySerializer(many=True), **error_responses(400)},
    )
    def get(self, request):
        filters = self.FilterSerializer(data=request.query_params.dict())
        filters.is_valid(raise_exception=True)
        values = {k: v for k, v in filters.validated_data.items() if k not in ("cursor", "limit")}
        return TournamentPagination.respond(
            selectors.tournament_list(user=request.user, **values), request, self,
            lambda page: [selectors.tournament_summary(row, request.user) for row in page])


class TournamentDetailApi(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(operation_id="tournaments_detail",
                   responses={200: DetailSerializer, **error_responses(404)})
    def get(self, request, tournament_id):
        tournament = selectors.tournament_get(tournament_id)
        return Response(selectors.tournament_detail(tournament, request.user))


def _detail(request, tournament_id, code: int = status.HTTP_200_OK) -> Response:
    tournament = selectors.tournament_get(tournament_id)
    return Response(selectors.tournament_detail(tournament, request.user), status=code)


class TournamentJoinApi(APIView):
    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TournamentJoin"

        bot_level = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                             max_value=4, help_text=(
                                                 "The creator enters that level's bot instead "
                                                 "(where bots are allowed)."))

    @extend_schema(operation_id="tournaments_join", request=InputSerializer,
                   responses={201: DetailSerializer, **error_responses(400, 403, 404, 409)})
    def post(self, request, tournament_id):
        data = self.InputSerializer(data=request.data or {})
        data.is_valid(raise_exception=True)
        tournament_join(user=request.user, tournament_id=tournament_id,
                        bot_level=data.validated_data.get("bot_level"))
        return _detail(request, tournament_id, status.HTTP_201_CREATED)


class TournamentLeaveApi(APIView):
    @extend_schema(operation_id="tournaments_leave", request=None,
                   responses={200: DetailSerializer, **error_responses(404, 409)})
    def post(self, request, tournament_id):
        tournament_leave(user=request.user, tournament_id=tournament_id)
        return _detail(request, tournament_id)


class TournamentWithdrawApi(APIView):
    @extend_schema(operation_id="tournaments_withdraw", request=None,
                   responses={200: DetailSerializer, **error_responses(404, 409)})
    def post(self, request, tournament_id):
        tournament_withdraw(user=request.user, tournament_id=tournament_id)
        return _detail(request, tournament_id)


class TournamentChallengeApi(APIView):
    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "TournamentChallenge"

        username = serializers.CharField(max_length=150, help_text=(
            "The player challenged: at most the ladder's reach above the caller."))

    @extend_schema(operation_id="tournaments_challenge", request=InputSerializer,
                   responses={201: DetailSerializer, **error_responses(400, 404, 409)})
    def post(self, request, tournament_id):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        tournament_challenge(user=request.user, tournament_id=tournament_id,
                             target=data.validated_data["username"])
        return _detail(request, tournament_id, status.HTTP_201_CREATED)


class PlayerTournamentsApi(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]
    pagination_class = TournamentPagination

    class FilterSerializer(QuerySerializer):
        cursor = CursorField()
        limit = serializers.IntegerField(required=False, min_value=1,
                                         max_value=TournamentPagination.max_page_size)

    @extend_schema(
        operation_id="player_tournaments",
        parameters=[OpenApiParameter("cursor", str, description=CURSOR_HELP),
                    OpenApiParameter("limit", {"type": "integer", "minimum": 1,
                                               "maximum": TournamentPagination.max_page_size})],
        responses={200: HistorySerializer(many=True), **error_responses(400, 404)})
    def get(self, request, username: str):
        filters = self.FilterSerializer(data=request.query_params.dict())
        filters.is_valid(raise_exception=True)
        player = player_get(username=username)
        return TournamentPagination.respond(
            selectors.player_tournaments(player, request.user), request, self,
            lambda page: [selectors.history_entry(row, request.user) for row in page])
