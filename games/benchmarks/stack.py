"""Views that do no work of their own, for ``manage.py stack_costs``: what the project's stack
costs a request around a view, piece by piece.

``stack_costs`` calls them in process through a WSGI handler whose URLconf is this module
(``StackHandler``), under the project's settings, with the middleware and DRF classes it is
measuring. ``empty`` is a plain Django view; ``drf/<name>`` is a DRF view whose classes are
those of ``DRF_VARIANTS[name]``, each adding one piece of what an API request goes through to
the one before it. Every DRF variant reads the JSON body and answers a small JSON object.
``moves/sql/<match>`` and ``moves/orm/<match>`` are the bare floor's and the stack floor's views,
the same move's work in SQL and through the ORM. Never part of the project's URLs.
"""

from __future__ import annotations

from typing import Any

from django.core.handlers.wsgi import WSGIHandler
from django.http import HttpRequest, JsonResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.parsers import JSONParser
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from games.benchmarks.bare.views import BareMoveApi
from games.benchmarks.floor import FloorMoveApi, FloorTokenAuthentication

ANSWER = {"seq": 7, "version": 7, "to_act": [1]}


@csrf_exempt
def empty(request: HttpRequest, **_: Any) -> JsonResponse:
    """A Django view that answers a small JSON body and does nothing else (exempt from the
    CSRF check, as every DRF view is)."""
    return JsonResponse(ANSWER, status=201)


class FirstRenderer(BaseContentNegotiation):
    """No negotiation at all: the view's first parser and renderer (DRF always negotiates)."""

    def select_parser(self, request: Any, parsers: Any) -> Any:
        return parsers[0]

    def select_renderer(self, request: Any, renderers: Any, format_suffix: Any = None) -> Any:
        return renderers[0], renderers[0].media_type


def _variant(**classes: Any) -> dict[str, Any]:
    return classes


# Each adds one piece to the one before, unless ``ADDS_TO`` names another.
DRF_VARIANTS: dict[str, dict[str, Any]] = {
    # DRF with its stock JSON parser and renderer, no negotiation, no authentication.
    "bare": _variant(parser_classes=[JSONParser], renderer_classes=[JSONRenderer],
                     content_negotiation_class=FirstRenderer, authentication_classes=[],
                     permission_classes=[], throttle_classes=[]),
    # + DRF's content negotiation (the Accept header read against the renderers).
    "negotiation": _variant(parser_classes=[JSONParser], renderer_classes=[JSONRenderer],
                            authentication_classes=[], permission_classes=[],
                            throttle_classes=[]),
    # + the project's parser and renderer (size-bounded JSON in, orjson out).
    "project-codec": _variant(authentication_classes=[], permission_classes=[],
                              throttle_classes=[]),
    # + the token looked up by one query on every request, as the stack floor does.
    "token-query": _variant(authentication_classes=[FloorTokenAuthentication],
                            permission_classes=[], throttle_classes=[]),
    # The project's authentication (the token's user remembered for a few seconds) instead.
    "token-remembered": _variant(permission_classes=[], throttle_classes=[]),
    # + the permission (IsAuthenticated).
    "permission": _variant(throttle_classes=[]),
    # + the project's throttles (every API view's defaults).
    "throttles": _variant(),
}
ADDS_TO = {"token-remembered": "project-codec"}


def _drf_view(name: str, classes: dict[str, Any]) -> Any:
    def post(self: APIView, request: Any, **_: Any) -> Response:
        request.data  # noqa: B018 - the body is parsed, as a move's is
        return Response(ANSWER, status=201)

    attrs = {"post": post, "__doc__": f"The DRF variant {name!r} (games.benchmarks.stack)."}
    defaults = {"parser_classes": api_settings.DEFAULT_PARSER_CLASSES,
                "renderer_classes": api_settings.DEFAULT_RENDERER_CLASSES,
                "authentication_classes": api_settings.DEFAULT_AUTHENTICATION_CLASSES,
                "permission_classes": api_settings.DEFAULT_PERMISSION_CLASSES,
                "throttle_classes": api_settings.DEFAULT_THROTTLE_CLASSES}
    attrs.update({key: value for key, value in defaults.items() if key not in classes})
    attrs.update(classes)
    return type(f"Stack{name.title().replace('-', '')}Api", (APIView,), attrs).as_view()


urlpatterns = [
    path("api/stack/empty", empty, name="stack-empty"),
    *[path(f"api/stack/drf/{name}", _drf_view(name, classes), name=f"stack-{name}")
      for name, classes in DRF_VARIANTS.items()],
    # A floor move's work, through the same stack: in SQL (the bare floor's view) and through
    # the ORM (the stack floor's).
    path("api/stack/moves/sql/<uuid:match_id>", BareMoveApi.as_view(), name="stack-moves-sql"),
    path("api/stack/moves/orm/<uuid:match_id>", FloorMoveApi.as_view(), name="stack-moves-orm"),
]


class StackHandler(WSGIHandler):
    """The project's WSGI handler (its middleware as the settings name them when it is made)
    with this module's URLconf."""

    def get_response(self, request: Any) -> Any:
        request.urlconf = "games.benchmarks.stack"
        return super().get_response(request)
