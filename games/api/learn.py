"""What a game offers newcomers, open to everyone (no account needed): its rules, example
pictures drawn by the server's renderer and a scripted first match (``games.selectors.learn``).
The answers depend only on the code and the language, so they may be cached for a day, apart
per language: the language follows ``Accept-Language``, Django's language cookie and a
signed-in caller's own choice (their token or session cookie), so the rules and the tutorial
vary on all of them (``config.i18n``); a picture is the same in every language."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.cache import patch_vary_headers
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import error_responses
from games.api import schemas
from games.api.boards import CSP, SvgRenderer
from games.kit.render import MEDIA_TYPE
from games.selectors import learn

CACHE = "public, max-age=86400"
# What decides the language of an answer (config.i18n): a cache keeps one copy per value.
VARY = ("Accept-Language", "Cookie", "Authorization")


class _Open(APIView):
    permission_classes = [AllowAny]
    # What the answer's words depend on, besides the URL.
    vary: tuple[str, ...] = VARY

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if response.status_code == 200:
            response["Cache-Control"] = CACHE
        patch_vary_headers(response, self.vary)
        return response


class GameRulesApi(_Open):
    @extend_schema(
        operation_id="games_rules", summary="A game's rules",
        description=(
            "The game's rules as HTML (from the game package's RULES.md): `html` for players, "
            "`technical_html` for client authors, and the example pictures it shows. No "
            "account needed. 404 `not_found` for an unknown game."),
        responses={200: schemas.GameRulesSerializer, **error_responses(404)})
    def get(self, request, slug):
        return Response(learn.game_rules(slug))


class GameTutorialApi(_Open):
    @extend_schema(
        operation_id="games_tutorial", summary="A game's tutorial",
        description=(
            "A short scripted first match, played through by the game's engine from a fixed "
            "seed: per step the learner's view (its legal moves cut down to the suggested "
            "move), the move to make and what it teaches. A client plays it locally with its "
            "own board. No account needed. 404 `not_found` for an unknown game."),
        responses={200: schemas.GameTutorialSerializer, **error_responses(404)})
    def get(self, request, slug):
        return Response(learn.game_tutorial(slug))


class GamePictureApi(_Open):
    renderer_classes = [SvgRenderer]
    # A picture is the same in every language (the renderer's words are English).
    vary = ()

    @extend_schema(
        operation_id="games_picture", summary="An example position, as a picture",
        description=(
            "One of the example positions the rules show, drawn by the game's renderer (the "
            "one behind `board.svg`). No account needed. 404 `not_found` for an unknown game "
            "or picture."),
        responses={(200, MEDIA_TYPE): OpenApiResponse(OpenApiTypes.STR,
                                                      description="The SVG document."),
                   **{(code, "application/json"): response
                      for code, response in error_responses(404).items()}})
    def get(self, request, slug, name):
        response = HttpResponse(learn.game_picture(slug, name),
                                content_type=f"{MEDIA_TYPE}; charset=utf-8")
        response["Content-Security-Policy"] = CSP
        response["X-Content-Type-Options"] = "nosniff"
        return response

    def perform_content_negotiation(self, request, force=False):
        renderer = SvgRenderer()
        return renderer, renderer.media_type

    def finalize_response(self, request, response, *args, **kwargs):
        if isinstance(response, Response):
            # Errors are the JSON envelope whatever the request accepts.
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = JSONRenderer.media_type
        return super().finalize_response(request, response, *args, **kwargs)
