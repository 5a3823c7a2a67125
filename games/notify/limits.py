"""The "your turn" limit: at most one "your turn" notification per match until the player has
looked at the match or moved in it."""

from __future__ import annotations

from typing import Any

from django.db.models import F, Q
from django.utils import timezone

from games.live import presence
from games.models import Move
from games.notify.models import TurnNotice


def turn_notice_allowed(user_id: int, match_id: Any) -> bool:
    """Whether a "your turn" for this match may go out: none went yet, or the player looked
    at the match or moved since the last one."""
    if match_id is None:
        return True
    notice = TurnNotice.objects.filter(user_id=user_id, match_id=match_id).first()
    if notice is None:
        return True
    if notice.looked_at is not None and notice.looked_at >= notice.sent_at:
        return True
    # A wait on the match (a long-poll or a stream) is recorded in Redis only.
    looked = presence.seen_at(user_id, match_id)
    if looked is not None and looked >= notice.sent_at.timestamp():
        return True
    return Move.objects.filter(match_id=match_id, user_id=user_id,
                               created_at__gt=notice.sent_at).exists()


def turn_notice_sent(*, user_id: int, match_id: Any) -> None:
    """A "your turn" for this match went out: the next waits until the player looks."""
    TurnNotice.objects.update_or_create(user_id=user_id, match_id=match_id,
                                        defaults={"sent_at": timezone.now(), "looked_at": None})


def player_looked(*, user_id: int, match_id: Any) -> None:
    """The player looked at the match (read it): the next "your turn" may go out.

    Recorded on the match's "your turn" limit row, so it holds without Redis (or while Redis
    is away): one indexed UPDATE that writes only when a notice waits to be looked at. And in
    Redis too, where a wait on the match (long-poll, stream) is recorded as well."""
    TurnNotice.objects.filter(user_id=user_id, match_id=match_id).filter(
        Q(looked_at__isnull=True) | Q(looked_at__lt=F("sent_at"))).update(
        looked_at=timezone.now())
    presence.mark_seen(user_id, match_id)
