"""The notification sweep: what the delivery task never did, found and delivered later.

``sweep`` runs by beat every NOTIFY_SWEEP_SECONDS (the task ``games.notify_sweep``). The
delivery task is queued after commit, and a broker that is down then (or a queue lost with it)
loses that message; a worker killed while sending leaves a delivery "sending", and a lost retry
one "retry". The sweep finds both: feed entries that were never delivered, and deliveries stuck.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Max, Min
from django.utils import timezone

from games.models import UserEvent
from games.notify import kinds, push
from games.notify.delivery import deliver
from games.notify.models import Delivery, NotificationSettings, PushSubscription, SweepCursor
from games.notify.records import Status
from games.notify.sending import DeliveryDeferred
from games.services import scheduling

logger = logging.getLogger(__name__)


def sweep(*, now: datetime | None = None, batch: int = 500, rounds: int = 20) -> dict[str, int]:
    """Deliver what the notification task never did:

    * feed entries of a notified type, older than NOTIFY_SWEEP_GRACE_SECONDS (the task had
      its chance) and younger than NOTIFY_SWEEP_LOOKBACK_SECONDS, that have no delivery row
      and whose player had a device or a verified address when they were written
      (``_reachable_since``) are delivered now. The sweep walks the feed in id order from
      ``SweepCursor`` (its own row), so each entry is looked at about once; ``deliver`` keeps a
      second look harmless (the (entry, channel) key).
    * deliveries left "sending" or "retry" for NOTIFY_SWEEP_STUCK_SECONDS (far past the task's
      time limit and its longest backoff) are tried again.

    An entry written by a transaction that stays open longer than the grace period may be
    passed by the cursor before it commits; the request and task time limits keep every
    transaction far shorter."""
    now = now or timezone.now()
    counts = {"checked": 0, "lost": 0, "stuck": 0, "deferred": 0}
    _deliver_lost(now, batch, rounds, counts)
    _retry_stuck(now, batch, counts)
    return counts


def _seconds(name: str, default: float) -> timedelta:
    return timedelta(seconds=float(getattr(settings, name, default)))


def _deliver_lost(now: datetime, batch: int, rounds: int, counts: dict[str, int]) -> None:
    """Walk the feed from the cursor, ``batch`` entries a round, and deliver those lost."""
    cutoff = now - _seconds("NOTIFY_SWEEP_GRACE_SECONDS", 60)
    oldest = now - _seconds("NOTIFY_SWEEP_LOOKBACK_SECONDS", 86400)
    last = _cursor_position(oldest)
    for _ in range(rounds):
        rows = list(UserEvent.objects.filter(id__gt=last).order_by("id")
                    .values("id", "type", "created_at", "user_id", "user__is_bot")[:batch])
        candidates: dict[int, tuple[int, datetime]] = {}
        reached_cutoff = False
        for row in rows:
            if row["created_at"] > cutoff:
                reached_cutoff = True  # the rest is the task's for now
                break
            last = row["id"]
            counts["checked"] += 1
            if _told_by_sweep(row, oldest):
                candidates[row["id"]] = (row["user_id"], row["created_at"])
        lost = _never_delivered(candidates)
        if lost:
            logger.info("notification sweep: %d feed entries were never delivered", len(lost))
            counts["lost"] += len(lost)
            _deliver_now(lost, counts)
        SweepCursor.objects.filter(id=1, last_event_id__lt=last).update(
            last_event_id=last, updated_at=now)
        if reached_cutoff or len(rows) < batch:
            break


def _cursor_position(oldest: datetime) -> int:
    """The last feed entry a sweep looked at; the first run starts at the lookback (entries
    from before are not told any more)."""
    cursor = SweepCursor.objects.filter(id=1).first()
    if cursor is None:
        start = (UserEvent.objects.filter(created_at__lt=oldest)
                 .aggregate(last=Max("id"))["last"] or 0)
        cursor, _ = SweepCursor.objects.get_or_create(id=1, defaults={"last_event_id": start})
    return cursor.last_event_id


def _told_by_sweep(row: Mapping[str, Any], oldest: datetime) -> bool:
    """Whether the sweep tells this feed entry: a notified type, a person, in the lookback."""
    return (row["type"] in kinds.NOTIFIED_TYPES and not row["user__is_bot"]
            and row["created_at"] >= oldest)


def _never_delivered(candidates: dict[int, tuple[int, datetime]]) -> list[int]:
    """The candidate entries with no delivery row whose player was reachable when written."""
    since = _reachable_since({user_id for user_id, _ in candidates.values()})
    handled = set(Delivery.objects.filter(event_id__in=candidates)
                  .values_list("event_id", flat=True))
    return [event_id for event_id, (user_id, created_at) in candidates.items()
            if user_id in since and since[user_id] <= created_at and event_id not in handled]


def _retry_stuck(now: datetime, batch: int, counts: dict[str, int]) -> None:
    """Try again the deliveries left "sending" or "retry" for NOTIFY_SWEEP_STUCK_SECONDS."""
    stuck_before = now - _seconds("NOTIFY_SWEEP_STUCK_SECONDS", 900)
    stuck = Delivery.objects.filter(status__in=[Status.SENDING, Status.RETRY],
                                    updated_at__lt=stuck_before)
    stuck_ids = sorted(set(stuck.values_list("event_id", flat=True)[:batch]))
    if not stuck_ids:
        return
    # "sending" that long: its worker died. Free it for a new try, as a failed send.
    Delivery.objects.filter(event_id__in=stuck_ids, status=Status.SENDING,
                            updated_at__lt=stuck_before).update(
        status=Status.RETRY, reason="stuck", updated_at=now)
    counts["stuck"] += len(stuck_ids)
    _deliver_now(stuck_ids, counts)


def _reachable_since(user_ids: set[int]) -> dict[int, datetime]:
    """Those of ``user_ids`` with somewhere to send to (a device, a verified address), each
    with the earliest time it is known to have had it: the others' entries have no delivery
    rows by design. An entry from before that time was written when its player had nowhere to
    be told (its notification task was not even sent, ``games.services.notifications``): a
    device or an address added later is not owed it. A verified address counts from the last
    change of its settings row (the time of the verification is not kept apart)."""
    if not user_ids:
        return {}
    since: dict[int, datetime] = {}
    for user_id, updated_at in (NotificationSettings.objects.filter(user_id__in=user_ids)
                                .exclude(verified_email="")
                                .values_list("user_id", "updated_at")):
        since[user_id] = updated_at
    if push.configured():
        for user_id, created_at in (PushSubscription.objects.filter(user_id__in=user_ids)
                                    .values("user_id").annotate(first=Min("created_at"))
                                    .values_list("user_id", "first")):
            since[user_id] = min(since.get(user_id, created_at), created_at)
    return since


def _deliver_now(event_ids: list[int], counts: dict[str, int]) -> None:
    try:
        deliver(event_ids)
    except DeliveryDeferred:
        # Some sends failed for now: the task retries them with its backoff (and if that
        # message is lost too, the next sweeps find the rows left "retry").
        counts["deferred"] += 1
        scheduling.send(scheduling.NOTIFY_DELIVER, (event_ids,), countdown=30)
