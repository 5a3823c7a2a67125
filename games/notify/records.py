"""The delivery rows: one per (feed entry, channel), claimed BEFORE sending.

The unique key makes a second run (a retry, a duplicate message) find the row and send nothing
again; a row left "retry" by an earlier try is taken over by the next one.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from games.notify.models import Delivery

Status = Delivery.Status


def claim(event_id: int, user_id: int, channel: str, kind: str, status: str,
          reason: str = "") -> Delivery | None:
    """The delivery row of (entry, channel), now ours with ``status``; None when another run
    has it (done, or being sent). A row left "retry" by an earlier try is taken over."""
    try:
        with transaction.atomic():
            return Delivery.objects.create(event_id=event_id, user_id=user_id, channel=channel,
                                           kind=kind, status=status, reason=reason, attempts=1)
    except IntegrityError:
        pass
    existing = Delivery.objects.filter(event_id=event_id, channel=channel).first()
    if existing is None or existing.status != Status.RETRY:
        return None
    taken = Delivery.objects.filter(id=existing.id, status=Status.RETRY).update(
        status=status, reason=reason, attempts=existing.attempts + 1,
        updated_at=timezone.now())
    if not taken:
        return None
    existing.refresh_from_db()
    return existing


def finish(delivery: Delivery, status: str, reason: str = "") -> None:
    """Record how a claimed delivery ended (and the devices that accepted it)."""
    delivery.status = status
    delivery.reason = reason
    delivery.save(update_fields=["status", "reason", "delivered_to", "updated_at"])
