"""The answers kept for idempotent retries: a move submitted with an ``Idempotency-Key`` has its
answer stored as rendered, so a retry answers the very same status and bytes."""

from __future__ import annotations

import json
from typing import Any

from django.db import IntegrityError
from rest_framework.utils.encoders import JSONEncoder

from accounts.models import User
from games.exceptions import IdempotencyKeyReused
from games.models import IdempotencyRecord, Match


def answer_store(*, user: User, key: str, match: Match, fingerprint: str, status: int,
                 body: dict[str, Any]) -> dict[str, Any]:
    """Keep the answer to the first request with ``key``, in the transaction that recorded
    what it answers; returns the body as stored (as the API renders it). The same key racing in
    on another match is ``IdempotencyKeyReused``: raised out of that transaction, it rolls the
    move back with it."""
    stored: dict[str, Any] = json.loads(json.dumps(body, cls=JSONEncoder))
    try:
        IdempotencyRecord.objects.create(user=user, key=key, match=match,
                                         fingerprint=fingerprint, status_code=status,
                                         body=stored)
    except IntegrityError:
        raise IdempotencyKeyReused() from None
    return stored
