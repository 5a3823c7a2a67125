"""A seat's move: submitted (once, however often it is retried) or only previewed."""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.db import transaction

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
from games.models import IdempotencyRecord, Match, Move, Seat
from games.selectors import match_access, match_state, seat_of
from games.services import _recording
from games.services.locking import match_lock, version_check


@dataclass(frozen=True)
class MoveResult:
    """A move recorded: its log entry, the events as its seat was shown them, and the match
    right after it with the game state it is now at (so its view is not loaded again)."""

    move: Move
    events: list[dict[str, Any]]
    match: Match
    state: Any

    @property
    def seq(self) -> int:
        return self.move.seq


def request_fingerprint(*parts: Any) -> str:
    """A digest of what a request asked for, to tell a retry from a different request."""
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


def move_fingerprint(move: Any, expected_version: int | None, plan: Any = None) -> str:
    """The fingerprint of a move request; one without a plan has the fingerprint it had before
    moves could carry plans."""
    if plan is None:
        return request_fingerprint(move, expected_version)
    return request_fingerprint(move, expected_version, plan)


@transaction.atomic
def match_move_submit(*, user: User, match_id: UUID | str, move: Any,
                      expected_version: int | None = None,
                      idempotency_key: str | None = None,
                      plan: Any = None) -> MoveResult | IdempotencyRecord:
    """Validate a seat's move through the engine and record it; returns the ``MoveResult``.

    With ``plan`` (a plan tree, ``games.kit.plans``): the seat's plan from the position right
    after the move, saved with it atomically: a plan refused is its coded error and the move
    is not recorded either; an empty one only leaves the seat without a plan, as any move by
    hand does.

    With ``idempotency_key``: a retry (the same key, match, move and expected version) records
    nothing and returns the ``IdempotencyRecord`` of the first answer; the same key with
    anything else is ``IdempotencyKeyReused``. The caller stores its answer to a first request
    (``IdempotencyRecord``, fingerprint ``move_fingerprint(move, expected_version, plan)``) in the
    transaction that records the move, so the move and its answer commit together."""
    started = time.perf_counter()
    # The version is checked only after a retry had its chance: a retry of a move that was
    # recorded expects the version from before it.
    locked = match_lock(match_id=match_id, user=user)
    match = locked.match
    if idempotency_key:
        record = IdempotencyRecord.objects.filter(user=user, key=idempotency_key).first()
        if record is not None:
            if (record.match_id != match.id
                    or record.fingerprint != move_fingerprint(move, expected_version, plan)):
                raise IdempotencyKeyReused()
            return record
    seat = acting_seat(match, locked.seat_of(user))
    version_check(match, expected_version)
    recorded = _recording.play(locked=locked, seat=seat.index, user=user, payload=move,
                               plan=plan)
    metrics.move_recorded(match.game, "player", started)
    return MoveResult(move=recorded, events=events_for(recorded.events, seat.index),
                      match=match, state=locked.state)


@transaction.atomic
def match_move_preview(*, user: User, match_id: UUID | str, move: Any,
                       expected_version: int | None = None) -> dict[str, Any]:
    """A dry run: what the seat may learn of the move before playing it, or the coded error
    that forbids it (``games.kit.protocol.preview``). A move whose result depends on what the
    seat does not know yet answers ``reveals_hidden`` and nothing of the result. Reads only, so
    it takes no lock."""
    match = match_access(user=user, match_id=match_id)
    seat = acting_seat(match, seat_of(match, user))
    version_check(match, expected_version)
    engine = get_engine(match.game)
    return preview(engine, match_state(match, engine), seat.index, move)


def acting_seat(match: Match, seat: Seat | None) -> Seat:
    """The caller's seat (``seat``: theirs, if they hold one) in a running match, or the coded
    error that says why they may not act."""
    if seat is None or seat.joined_at is None:
        raise NotSeated()
    if match.status == Match.Status.OPEN:
        raise MatchNotStarted()
    if match.status != Match.Status.ACTIVE:
        raise MatchNotRunning()
    return seat
