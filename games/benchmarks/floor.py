"""The stack floor for ``bench_api --floor``: the least a move costs through the project's stack.

One DRF view, under the project's settings, middleware and token authentication, using the ORM,
that does what recording a move must do at the very least, and nothing else: look the API token
up (one query, no memory of recent tokens), lock the match row, read the mover's seat, insert
the move row, write a 2 KB JSON state and the version, and answer a small JSON body. No engine,
no validation of the move, no feed entries, no publishes, no follow-up tasks. Served only by
the benchmark's own gunicorn (``games.benchmarks.floor_wsgi``), never by the project's URLs. The
real move path is measured against it in the same run; the bare floor
(``games.benchmarks.bare``) does the same work with Django and DRF alone.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import F
from django.urls import path
from rest_framework import status
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import ApiToken, token_digest
from games.benchmarks.snapshot import floor_state
from games.models import Match, Move, Seat


class FloorTokenAuthentication(TokenAuthentication):
    """The token looked up on every request: one query for the token and its user."""

    model = ApiToken

    def authenticate_credentials(self, key: str) -> tuple[Any, ApiToken]:
        try:
            token = ApiToken.objects.select_related("user").get(digest=token_digest(key))
        except ApiToken.DoesNotExist:
            raise AuthenticationFailed("Invalid token.") from None
        return token.user, token


class FloorMoveApi(APIView):
    authentication_classes = [FloorTokenAuthentication]
    permission_classes = [IsAuthenticated]
    throttle_classes: list[Any] = []

    def post(self, request: Any, match_id: str) -> Response:
        move = request.data.get("move")
        expected = request.data.get("expected_version")
        with transaction.atomic():
            version = (Match.objects.select_for_update().values_list("version", flat=True)
                       .get(id=match_id))
            seat = Seat.objects.only("index").get(match_id=match_id, user=request.user)
            if expected is not None and expected != version:
                return Response({"code": "stale_version", "message": "Stale.",
                                 "extra": {"current_version": version}},
                                status=status.HTTP_409_CONFLICT)
            seq = version + 1
            Move.objects.create(match_id=match_id, seq=seq, kind=Move.Kind.MOVE,
                                seat=seat.index, user=request.user, payload=move)
            Match.objects.filter(id=match_id).update(state=floor_state(seq),
                                                     version=F("version") + 1)
        return Response({"seq": seq, "version": seq, "to_act": [seq % 2]},
                        status=status.HTTP_201_CREATED)


urlpatterns = [
    # Under /api/ as the project's API: the stack treats it as it treats every API call.
    path("api/floor/matches/<uuid:match_id>/moves", FloorMoveApi.as_view(), name="floor-move"),
]
