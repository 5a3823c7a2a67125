"""A seat's move: submitted (once, however often it is retried) or only previewed."""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any
from uuid import UUID

from django.db import IntegrityError, transaction
from rest_framework.utils.encoders import JSONEncoder

from accounts.models import User
from games import metrics
from games.catalog import get_engine
from games.exceptions import (
    IdempotencyKeyReused,
    MatchNotRunning,
    MatchNotStarted,
    NotSeated,
)
from games.kit.protocol import events_for, preview
from games.models import IdempotencyRecord, Match, Seat
from games.selectors import match_access, match_detail, seat_of
from games.services import _recording
from games.services.locking import match_lock, version_check


def request_fingerprint(*parts: Any) -> str:
    """A digest of what a request asked for, to tell a retry from a different request."""
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


@transaction.atomic
def match_move_submit(*, user: User, match_id: UUID | str, move: Any,
                      expected_version: int | None = None,
                      idempotency_key: str | None = None) -> dict[str, Any]:
    """Validate a seat's move through the engine and record it; returns the caller's answer.

    A retry with the same Idempotency-Key returns the first answer and records nothing."""
    started = time.perf_counter()
    # The version is checked only after a replay had its chance: a retry of a move that was
    # recorded expects the version from before it.
    match = match_lock(match_id=match_id, user=user)
    fingerprint = ""
    if idempotency_key:
        fingerprint = request_fingerprint(move, expected_version)
        record = IdempotencyRecord.objects.filter(user=user, key=idempotency_key).first()
        if record is not None:
            if record.match_id != match.id or record.fingerprint != fingerprint:
                raise IdempotencyKeyReused()
            body: dict[str, Any] = record.body
            return body
    seat = acting_seat(match, user)
    version_check(match, expected_version)
    recorded = _recording.play(match=match, seat=seat.index, user=user, payload=move)
    metrics.move_recorded(match.game, "player", started)
    body = {"seq": recorded.seq, "events": events_for(recorded.events, seat.index),
            "match": match_detail(match, user)}
    if idempotency_key:
        try:
            with transaction.atomic():
                # Stored as the API renders it, so a replay answers the very same body.
                IdempotencyRecord.objects.create(
                    user=user, key=idempotency_key, match=match, fingerprint=fingerprint,
                    status_code=201, body=json.loads(json.dumps(body, cls=JSONEncoder)))
        except IntegrityError:
            # The same key raced in on another match: refuse it (the move rolls back).
            raise IdempotencyKeyReused() from None
    return body


@transaction.atomic
def match_move_preview(*, user: User, match_id: UUID | str, move: Any,
                       expected_version: int | None = None) -> dict[str, Any]:
    """A dry run: what the seat may learn of the move before playing it, or the coded error
    that forbids it (``games.kit.protocol.preview``). A move whose result depends on what the
    seat does not know yet answers ``reveals_hidden`` and nothing of the result. Reads only, so
    it takes no lock."""
    match = match_access(user=user, match_id=match_id)
    seat = acting_seat(match, user)
    version_check(match, expected_version)
    engine = get_engine(match.game)
    return preview(engine, _recording.state_of(match, engine), seat.index, move)


def acting_seat(match: Match, user: User) -> Seat:
    """The user's seat in a running match, or the coded error that says why there is none."""
    seat = seat_of(match, user)
    if seat is None or seat.joined_at is None:
        raise NotSeated()
    if match.status == Match.Status.OPEN:
        raise MatchNotStarted()
    if match.status != Match.Status.ACTIVE:
        raise MatchNotRunning()
    return seat
