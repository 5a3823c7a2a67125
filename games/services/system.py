"""The engine's automatic work: what is due when the match runs and nobody may act (Nimalia
scores a round and deals the next)."""

from __future__ import annotations

from uuid import UUID

from django.db import transaction

from games import movelog
from games.models import Match, Move
from games.services import _recording
from games.services.locking import match_lock


@transaction.atomic
def match_system_step_run(*, match_id: UUID | str, expected_version: int) -> bool:
    """Apply the engine's due automatic work if the match is still at ``expected_version``;
    returns whether anything was recorded (a repeated or late step records nothing)."""
    locked = match_lock(match_id=match_id, missing_ok=True)
    if (locked is None or locked.match.status != Match.Status.ACTIVE
            or locked.match.version != expected_version):
        return False
    transition = locked.engine.system_step(locked.state)
    if transition is None:
        return False
    _recording.record(locked=locked, kind=Move.Kind.SYSTEM, seat=None, user=None,
                      payload=movelog.system_payload(), transition=transition)
    return True
