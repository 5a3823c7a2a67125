"""The answers kept for idempotent retries: a move submitted with an ``Idempotency-Key`` has its
answer stored as it is sent (status and rendered body), so a retry answers the very same
bytes."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError
from django.http import HttpResponse
from rest_framework.request import Request
from rest_framework.views import APIView

from games.exceptions import IdempotencyKeyReused
from games.models import IdempotencyRecord, Match


def answer_store(*, view: APIView, request: Request, key: str, match: Match, fingerprint: str,
                 status: int, body: dict[str, Any]) -> HttpResponse:
    """Render the first answer to a request with ``key`` as the view would and keep it, in the
    transaction that recorded what it answers; returns it as the response. The same key racing
    in on another match is ``IdempotencyKeyReused``: raised out of that transaction, it rolls
    the move back with it."""
    renderer = request.accepted_renderer
    content = renderer.render(body, request.accepted_media_type, view.get_renderer_context())
    try:
        record = IdempotencyRecord.objects.create(
            user=request.user, key=key, match=match, fingerprint=fingerprint,
            status_code=status, body=content.decode("utf-8"))
    except IntegrityError:
        raise IdempotencyKeyReused() from None
    return answer_replay(record)


def answer_replay(record: IdempotencyRecord) -> HttpResponse:
    """The kept answer, byte for byte, with its status."""
    return HttpResponse(record.body.encode("utf-8"), status=record.status_code,
                        content_type="application/json")
