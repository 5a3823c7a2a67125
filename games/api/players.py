"""Players API: the caller, player profiles with their ratings, rating history, leaderboards."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import get_language_from_request
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from accounts.services import user_settings_update
from config.api import (
    CursorField,
    QuerySerializer,
    StrictSerializer,
    cursor_pagination,
    error_responses,
)
from config.i18n import supported
from games.api.schemas import GAME_SLUGS, serializer_for
from games.selectors import game_engine, shapes
from games.selectors import players as selectors

RatingSerializer = serializer_for(shapes.Rating)
PlayerSerializer = serializer_for(shapes.Player)


MeSerializer = serializer_for(shapes.Me)


def language_field() -> serializers.ChoiceField:
    return serializers.ChoiceField(
        choices=[code for code, _name in settings.LANGUAGES], required=False, allow_null=True,
        help_text="The language you read Boardpost in; null to follow Accept-Language.")


class MeApi(APIView):
    """The caller; PATCH sets their language (the API answers in it from then on)."""

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "MeUpdate"

        language = language_field()

    @extend_schema(operation_id="me", responses={200: MeSerializer, **error_responses()})
    def get(self, request):
        return Response(selectors.me(user=request.user))

    @extend_schema(operation_id="me_update", request=InputSerializer,
                   responses={200: MeSerializer, **error_responses(400)})
    def patch(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = _settings_update(request, data.validated_data)
        return Response(selectors.me(user=user), status=status.HTTP_200_OK)


def _settings_update(request, values: dict) -> Any:
    """Apply the caller's new settings; a new language is the answer's language at once."""
    if "language" in values:
        values = {**values, "language": values["language"] or ""}
    user = user_settings_update(user=request.user, **values)
    if "language" in values:
        translation.activate(supported(user.language) or get_language_from_request(request))
    return user


SettingsSerializer = serializer_for(shapes.PlayerSettings)


class MeSettingsApi(APIView):
    """The caller's settings: whether their matches are private (seen by their seats only)."""

    class InputSerializer(StrictSerializer):
        class Meta:
            ref_name = "PlayerSettingsUpdate"

        matches_private = serializers.BooleanField(required=False, help_text=(
            "Every match you play in is seen only by its seats: not by other players nor "
            "visitors, past matches included."))
        language = language_field()
        invitations = serializers.ChoiceField(
            choices=User.Invitations.values, required=False, help_text=(
                "Who may invite you to a match or offer you a rematch: everyone, friends "
                "(players you follow who follow you back) or nobody. Others are refused "
                "with not_accepting_invitations."))

    @extend_schema(operation_id="me_settings",
                   responses={200: SettingsSerializer, **error_responses()})
    def get(self, request):
        return Response(selectors.player_settings(user=request.user))

    @extend_schema(operation_id="me_settings_update", request=InputSerializer,
                   responses={200: SettingsSerializer, **error_responses(400)})
    def patch(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = _settings_update(request, data.validated_data)
        return Response(selectors.player_settings(user=user), status=status.HTTP_200_OK)


class PlayerDetailApi(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(operation_id="player_detail",
                   responses={200: PlayerSerializer, **error_responses(404)})
    def get(self, request, username: str):
        user = selectors.player_get(username=username)
        return Response(selectors.player_profile(user=user))


# The registry's games when the schema is built, so a game registered later is listed too.
GAME_PATH_PARAMETER = OpenApiParameter("game", str, OpenApiParameter.PATH, enum=GAME_SLUGS)


HistoryPagination = cursor_pagination("HistoryPagination", ordering=("-at", "-id"),
                                      page_size=50, max_page_size=200)


class RatingHistoryApi(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]
    pagination_class = HistoryPagination  # so the schema shows the paginated envelope

    class FilterSerializer(QuerySerializer):
        since = serializers.DateTimeField(required=False)
        until = serializers.DateTimeField(required=False)
        limit = serializers.IntegerField(required=False, min_value=1, max_value=200)
        cursor = CursorField()

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "RatingChange"

        match = serializers.UUIDField(source="match_id")
        at = serializers.DateTimeField()
        rank = serializers.IntegerField()
        rating_before = serializers.IntegerField(source="display_before")
        rating_after = serializers.IntegerField(source="display_after")
        mu_before = serializers.FloatField()
        sigma_before = serializers.FloatField()
        mu_after = serializers.FloatField()
        sigma_after = serializers.FloatField()

    @extend_schema(
        operation_id="player_rating_history",
        parameters=[
            GAME_PATH_PARAMETER,
            OpenApiParameter("since", OpenApiTypes.DATETIME,
                             description="ISO-8601; changes at or after it."),
            OpenApiParameter("until", OpenApiTypes.DATETIME,
                             description="ISO-8601; changes before it."),
            OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": 200},
                             description="Page size, at most 200."),
            OpenApiParameter("cursor", str, description=CursorField().help_text),
        ],
        responses={200: OutputSerializer(many=True), **error_responses(400, 404)},
    )
    def get(self, request, username: str, game: str):
        game_engine(game)
        user = selectors.player_get(username=username)
        filters = self.FilterSerializer(data=request.query_params.dict())
        filters.is_valid(raise_exception=True)
        values = {k: v for k, v in filters.validated_data.items() if k in ("since", "until")}
        return HistoryPagination.respond(
            selectors.rating_history(user=user, game=game, **values), request, self,
            lambda page: self.OutputSerializer(page, many=True).data)


LeaderboardPagination = cursor_pagination("LeaderboardPagination", ordering=("-display", "id"),
                                          page_size=50, max_page_size=200)


class LeaderboardApi(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]
    pagination_class = LeaderboardPagination  # so the schema shows the paginated envelope

    class FilterSerializer(QuerySerializer):
        limit = serializers.IntegerField(required=False, min_value=1, max_value=200)
        cursor = CursorField()

    class OutputSerializer(serializers.Serializer):
        class Meta:
            ref_name = "LeaderboardEntry"

        username = serializers.CharField(source="user.username")
        is_bot = serializers.BooleanField(source="user.is_bot")
        rating = serializers.IntegerField(source="display")
        mu = serializers.FloatField()
        sigma = serializers.FloatField()
        games_played = serializers.IntegerField()

    @extend_schema(operation_id="leaderboard",
                   parameters=[GAME_PATH_PARAMETER,
                               OpenApiParameter("limit", {"type": "integer", "minimum": 1,
                                                          "maximum": 200}),
                               OpenApiParameter("cursor", str,
                                                description=CursorField().help_text)],
                   responses={200: OutputSerializer(many=True), **error_responses(400, 404)})
    def get(self, request, game: str):
        game_engine(game)
        self.FilterSerializer(data=request.query_params.dict()).is_valid(raise_exception=True)
        return LeaderboardPagination.respond(
            selectors.leaderboard(game=game), request, self,
            lambda page: self.OutputSerializer(page, many=True).data)
