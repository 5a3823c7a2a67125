"""The bare move floor's view: what recording a move must do at the very least, in raw SQL.

One transaction on the project's own tables: look the API token up, lock the match row, read
the mover's seat, insert the move row, write the 2 KB JSON state (``games.benchmarks.snapshot``)
and the version, then answer a small JSON body. No engine, no validation of the move, no ORM,
no middleware, no feed entry, no publish, no follow-up task: nothing of the project's but its
tables. Refusals answer the project's coded envelope, so a broken floor shows as errors.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.db import connection, transaction
from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.parsers import JSONParser
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from games.benchmarks.snapshot import floor_state

_TOKEN = "SELECT user_id FROM accounts_apitoken WHERE digest = %s"
_LOCK = "SELECT version FROM games_match WHERE id = %s FOR UPDATE"
_SEAT = "SELECT index FROM games_seat WHERE match_id = %s AND user_id = %s"
# Every column without a database default (a move of the player's own, not by a plan).
_INSERT = ("INSERT INTO games_move (match_id, seq, kind, seat, user_id, payload, events, "
           "by_plan, created_at) "
           "VALUES (%s, %s, 'move', %s, %s, %s::jsonb, '[]'::jsonb, false, now())")
_UPDATE = "UPDATE games_match SET state = %s::jsonb, version = %s WHERE id = %s"


def _refusal(code: str, message: str, http_status: int, **extra: Any) -> Response:
    return Response({"code": code, "message": message, "extra": extra}, status=http_status)


def coded_error(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's own refusals (a body that is not JSON, a wrong method) in the coded envelope."""
    if not isinstance(exc, APIException):
        return None
    codes = exc.get_codes()
    code = codes if isinstance(codes, str) else "invalid"
    return _refusal(code, str(exc.detail), exc.status_code)


def _user_of(request: Any) -> int | None:
    scheme, _, key = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    if scheme != "Token" or not key:
        return None
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
    with connection.cursor() as cursor:
        cursor.execute(_TOKEN, [digest])
        row = cursor.fetchone()
    return row[0] if row else None


class BareMoveApi(APIView):
    parser_classes = [JSONParser]
    renderer_classes = [JSONRenderer]
    authentication_classes: list[Any] = []
    permission_classes: list[Any] = []
    throttle_classes: list[Any] = []

    def post(self, request: Any, match_id: Any) -> Response:
        data = request.data if isinstance(request.data, dict) else {}
        expected = data.get("expected_version")
        user_id = _user_of(request)
        if user_id is None:
            return _refusal("not_authenticated", "Invalid token.", status.HTTP_401_UNAUTHORIZED)
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(_LOCK, [match_id])
            row = cursor.fetchone()
            if row is None:
                return _refusal("match_not_found", "No such match.", status.HTTP_404_NOT_FOUND)
            version = row[0]
            cursor.execute(_SEAT, [match_id, user_id])
            seat = cursor.fetchone()
            if seat is None:
                return _refusal("not_seated", "Not a player of this match.",
                                status.HTTP_403_FORBIDDEN)
            if expected is not None and expected != version:
                return _refusal("stale_version", "Stale.", status.HTTP_409_CONFLICT,
                                current_version=version)
            seq = version + 1
            cursor.execute(_INSERT, [match_id, seq, seat[0], user_id,
                                     json.dumps(data.get("move"))])
            cursor.execute(_UPDATE, [json.dumps(floor_state(seq)), seq, match_id])
        return Response({"seq": seq, "version": seq, "to_act": [seq % 2]},
                        status=status.HTTP_201_CREATED)
