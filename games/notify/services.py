"""The notification services: deliver new feed entries, the daily digest, devices, preferences,
verified addresses and unsubscribing.

``deliver`` is what the task ``games.notify_deliver`` runs after the transaction that wrote
feed entries commits. Per entry it decides, for the push and the email channel, whether to send
(the player's preferences, a device or a verified address, not watching the match live, the
"your turn" limit) and records the decision as a ``Delivery`` row keyed by (entry, channel)
BEFORE sending: the unique key makes a second run (a retry, a duplicate message) find the row
and send nothing again. A send that fails for a reason that may pass (a push service's 429 or
5xx, an SMTP error, the network) leaves the row "retry" and raises ``DeliveryDeferred``, so the
task retries with backoff and sends only what is still due (on the push channel, only to the
devices that have not accepted it yet). A push service answering 404 or 410 means the
subscription is gone: it is deleted.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import smtplib
import zoneinfo
from collections import defaultdict
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, time, timedelta
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Max, Min, Q
from django.utils import timezone, translation
from django.utils.translation import gettext

from accounts.models import User
from config.exceptions import NotFound
from config.i18n import supported
from games.live import presence
from games.models import Move, RatingChange, UserEvent
from games.notify import kinds, mail, push
from games.notify.exceptions import (
    InvalidPushSubscription,
    InvalidToken,
    NoEmailAddress,
    PushSubscriptionTaken,
    TooManyPushSubscriptions,
)
from games.notify.models import (
    DEFAULT_DIGEST_HOUR,
    DEFAULT_TIME_ZONE,
    Channel,
    Delivery,
    Kind,
    NotificationSettings,
    PushSubscription,
    SweepCursor,
    TurnNotice,
)
from games.selectors.feeds import feed_entry
from games.services import scheduling

logger = logging.getLogger(__name__)

Status = Delivery.Status
FEED_FIELDS = ("id", "type", "match_id", "match__game", "data", "created_at", "user_id")


class DeliveryDeferred(Exception):
    """Some notification could not be sent for now; the task retries (with backoff)."""


def _settings_of(user_ids: Iterable[int]) -> dict[int, NotificationSettings]:
    return {s.user_id: s for s in NotificationSettings.objects.filter(user_id__in=user_ids)}


def settings_for(user: User) -> NotificationSettings:
    found = NotificationSettings.objects.filter(user=user).first()
    return found or NotificationSettings(user=user)


def recipient_language(user: User) -> str:
    """The language a player's notifications and mails are written in: their own choice, else
    the server's default (a notification has no request whose Accept-Language could say)."""
    return supported(user.language) or settings.LANGUAGE_CODE


def email_address(user: User, prefs: NotificationSettings | None) -> str | None:
    """Where mails go: the account's address, once verified."""
    email = (user.email or "").strip()
    if email and prefs is not None and prefs.verified_email.lower() == email.lower():
        return email
    return None


# --------------------------------------------------------------------------- delivering

def deliver(event_ids: Iterable[int], *, final: bool = False) -> dict[str, int]:
    """Notify the people of these feed entries (see the module docstring). ``final``: the
    task's last try, where what still fails is given up. Returns counts by outcome."""
    ids = sorted({int(i) for i in event_ids})
    rows = list(UserEvent.objects.filter(id__in=ids, type__in=kinds.NOTIFIED_TYPES,
                                         user__is_bot=False).values(*FEED_FIELDS))
    counts: dict[str, int] = defaultdict(int)
    if not rows:
        return dict(counts)
    user_ids = {row["user_id"] for row in rows}
    users = User.objects.in_bulk(user_ids)
    prefs = _settings_of(user_ids)
    devices: dict[int, list[PushSubscription]] = defaultdict(list)
    for sub in PushSubscription.objects.filter(user_id__in=user_ids).order_by("id"):
        devices[sub.user_id].append(sub)
    deferred = False
    for row in rows:
        user = users[row["user_id"]]
        channels: dict[str, bool] = {
            Channel.PUSH: bool(devices[user.id]) and push.configured(),
            Channel.EMAIL: email_address(user, prefs.get(user.id)) is not None,
        }
        if not any(channels.values()):
            continue  # nowhere to send: nothing to decide or record
        try:
            with translation.override(recipient_language(user)):  # the words, in theirs
                _deliver_entry(row, user, prefs.get(user.id), devices[user.id], channels,
                               counts, final=final)
        except DeliveryDeferred:
            deferred = True
    if deferred:
        raise DeliveryDeferred(f"some of {len(ids)} notifications wait for a retry")
    return dict(counts)


def _anchor(row: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None] | None:
    """The entry a finished match is told by and its rating change (or None for now).

    A match's "match finished" and "rating changed" entries make ONE notification, keyed by
    the "match finished" entry: for a rated match it goes out once the rating is in (the rating
    update is due work of the match, so it comes), for an unrated one at once."""
    if row["type"] == UserEvent.Type.RATING_CHANGED:
        finished = (UserEvent.objects.filter(user_id=row["user_id"], match_id=row["match_id"],
                                             type=UserEvent.Type.MATCH_FINISHED)
                    .values(*FEED_FIELDS).first())
        return dict(finished or row), dict(row)
    if row["type"] != UserEvent.Type.MATCH_FINISHED:
        return dict(row), None
    rating = (UserEvent.objects.filter(user_id=row["user_id"], match_id=row["match_id"],
                                       type=UserEvent.Type.RATING_CHANGED)
              .values(*FEED_FIELDS).first())
    if rating is None and row["match_id"] is not None and _rating_pending(row):
        return None
    return dict(row), dict(rating) if rating else None


def _rating_pending(row: Mapping[str, Any]) -> bool:
    from games.models import Match

    rated = Match.objects.filter(id=row["match_id"], rated=True).exists()
    return rated and not RatingChange.objects.filter(match_id=row["match_id"],
                                                     user_id=row["user_id"]).exists()


def _deliver_entry(row: Mapping[str, Any], user: User, prefs: NotificationSettings | None,
                   devices: list[PushSubscription], channels: dict[str, bool],
                   counts: dict[str, int], *, final: bool) -> None:
    anchored = _anchor(row)
    if anchored is None:
        counts["waiting_for_rating"] += 1
        return
    key_row, rating_row = anchored
    entry = feed_entry(key_row)
    rating = feed_entry(rating_row)["data"] if rating_row else None
    message = kinds.message(entry, rating)
    kind = message.kind
    chosen = kinds.preferences_with_defaults(prefs.preferences if prefs else None)[kind]
    wanted = [ch for ch in (Channel.PUSH, Channel.EMAIL) if channels[ch] and chosen[ch]]
    if not wanted:
        return
    event_id = key_row["id"]
    match_id = key_row["match_id"]
    # Decided once for both channels.
    skip = None
    if presence.is_watching(user.id, match_id):
        skip = "watching"
    elif kind == Kind.YOUR_TURN and not _turn_notice_allowed(user.id, match_id):
        skip = "turn_already_notified"
    deferred = False
    sent_any = False
    for channel in wanted:
        if skip is not None:
            if _claim(event_id, user.id, channel, kind, Status.SKIPPED, skip) is not None:
                counts[f"skipped_{skip}"] += 1
            continue
        digest = channel == Channel.EMAIL and prefs is not None and prefs.email_digest
        if digest:
            if _claim(event_id, user.id, channel, kind, Status.DIGEST) is not None:
                counts["digest"] += 1
                sent_any = True
            continue
        delivery = _claim(event_id, user.id, channel, kind, Status.SENDING)
        if delivery is None:
            continue
        try:
            if channel == Channel.PUSH:
                ok = _send_push(delivery, devices, entry, message)
            else:
                ok = _send_mail(delivery, user, prefs, message)
        except DeliveryDeferred:
            if final:
                _finish(delivery, Status.FAILED, "gave_up")
                counts["failed"] += 1
            else:
                _finish(delivery, Status.RETRY, "retrying")
                counts["retry"] += 1
                deferred = True
            continue
        counts["sent" if ok else "not_sent"] += 1
        sent_any = sent_any or ok
    if sent_any and kind == Kind.YOUR_TURN and match_id is not None:
        TurnNotice.objects.update_or_create(user_id=user.id, match_id=match_id,
                                            defaults={"sent_at": timezone.now(),
                                                      "looked_at": None})
    if deferred:
        raise DeliveryDeferred()


def _claim(event_id: int, user_id: int, channel: str, kind: str, status: str,
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


def _finish(delivery: Delivery, status: str, reason: str = "") -> None:
    delivery.status = status
    delivery.reason = reason
    delivery.save(update_fields=["status", "reason", "delivered_to", "updated_at"])


def _turn_notice_allowed(user_id: int, match_id: Any) -> bool:
    """At most one "your turn" per match until the player has looked at it or moved."""
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


def player_looked(*, user_id: int, match_id: Any) -> None:
    """The player looked at the match (read it): the next "your turn" may go out.

    Recorded on the match's "your turn" limit row, so it holds without Redis (or while Redis
    is away): one indexed UPDATE that writes only when a notice waits to be looked at. And in
    Redis too, where a wait on the match (long-poll, stream) is recorded as well."""
    TurnNotice.objects.filter(user_id=user_id, match_id=match_id).filter(
        Q(looked_at__isnull=True) | Q(looked_at__lt=F("sent_at"))).update(
        looked_at=timezone.now())
    presence.mark_seen(user_id, match_id)


# --------------------------------------------------------------------------- the channels

def _topic(tag: str) -> str:
    # RFC 8030 topics: at most 32 characters of the URL-safe base64 alphabet.
    return push.b64url(hashlib.sha256(tag.encode()).digest())[:32]


def push_payload(entry: Mapping[str, Any], message: kinds.Message) -> dict[str, Any]:
    """What a device receives (encrypted): the words, where to go, and the feed entry."""
    return {"title": message.title, "body": message.body, "url": message.path,
            "tag": message.tag, "kind": message.kind, "match": message.match,
            "event": entry.get("id")}


def _send_push(delivery: Delivery, devices: list[PushSubscription],
               entry: Mapping[str, Any], message: kinds.Message) -> bool:
    payload = push_payload(entry, message)
    urgent = message.kind in (Kind.YOUR_TURN, Kind.DEADLINE_SOON)
    done = set(delivery.delivered_to)
    retry = False
    for sub in devices:
        if sub.id in done:
            continue
        outcome = push.send(endpoint=sub.endpoint, p256dh=sub.p256dh, auth=sub.auth,
                            payload=payload, urgency="high" if urgent else "normal",
                            topic=_topic(message.tag))
        if outcome.ok:
            done.add(sub.id)
            PushSubscription.objects.filter(id=sub.id).update(last_used_at=timezone.now())
        elif outcome.gone:
            logger.info("push subscription %s is gone (%s): removed", sub.id, outcome.status)
            PushSubscription.objects.filter(id=sub.id).delete()
        elif outcome.retry:
            retry = True
        else:
            logger.warning("push service refused a notification (%s) for subscription %s",
                           outcome.status, sub.id)
    delivery.delivered_to = sorted(done)
    if retry:
        delivery.save(update_fields=["delivered_to", "updated_at"])
        raise DeliveryDeferred()
    _finish(delivery, Status.SENT if done else Status.SKIPPED, "" if done else "no_device")
    return bool(done)


MAIL_ERRORS = (smtplib.SMTPException, OSError)


def _send_mail(delivery: Delivery, user: User, prefs: NotificationSettings | None,
               message: kinds.Message) -> bool:
    to = email_address(user, prefs)
    if to is None:
        _finish(delivery, Status.SKIPPED, "no_address")
        return False
    try:
        mail.send(mail.notification_mail(user_id=user.id, to=to, message=message))
    except MAIL_ERRORS as exc:
        logger.warning("mail not sent for now: %s", type(exc).__name__)
        raise DeliveryDeferred() from exc
    _finish(delivery, Status.SENT)
    return True


# --------------------------------------------------------------------------- the sweep

def _seconds(name: str, default: float) -> timedelta:
    return timedelta(seconds=float(getattr(settings, name, default)))


def sweep(*, now: datetime | None = None, batch: int = 500, rounds: int = 20) -> dict[str, int]:
    """Deliver what the notification task never did (run by beat every
    NOTIFY_SWEEP_SECONDS). The task is queued after commit, and a broker that is down then
    (or a queue lost with it) loses that message; a worker killed while sending leaves a
    delivery "sending", and a lost retry one "retry". So:

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
    cutoff = now - _seconds("NOTIFY_SWEEP_GRACE_SECONDS", 60)
    oldest = now - _seconds("NOTIFY_SWEEP_LOOKBACK_SECONDS", 86400)
    counts = {"checked": 0, "lost": 0, "stuck": 0, "deferred": 0}
    cursor = SweepCursor.objects.filter(id=1).first()
    if cursor is None:
        # The first run starts at the lookback (entries from before are not told any more).
        start = (UserEvent.objects.filter(created_at__lt=oldest)
                 .aggregate(last=Max("id"))["last"] or 0)
        cursor, _ = SweepCursor.objects.get_or_create(id=1, defaults={"last_event_id": start})
    last = cursor.last_event_id
    for _ in range(rounds):
        rows = list(UserEvent.objects.filter(id__gt=last).order_by("id")
                    .values("id", "type", "created_at", "user_id", "user__is_bot")[:batch])
        candidates: dict[int, tuple[int, datetime]] = {}
        for row in rows:
            if row["created_at"] > cutoff:
                rows = []  # the rest is the task's for now
                break
            last = row["id"]
            counts["checked"] += 1
            if row["type"] in kinds.NOTIFIED_TYPES and not row["user__is_bot"] \
                    and row["created_at"] >= oldest:
                candidates[row["id"]] = (row["user_id"], row["created_at"])
        since = _reachable_since({user_id for user_id, _ in candidates.values()})
        handled = set(Delivery.objects.filter(event_id__in=candidates)
                      .values_list("event_id", flat=True))
        lost = [event_id for event_id, (user_id, created_at) in candidates.items()
                if user_id in since and since[user_id] <= created_at
                and event_id not in handled]
        if lost:
            logger.info("notification sweep: %d feed entries were never delivered", len(lost))
            counts["lost"] += len(lost)
            _deliver_now(lost, counts)
        SweepCursor.objects.filter(id=1, last_event_id__lt=last).update(
            last_event_id=last, updated_at=now)
        if len(rows) < batch:
            break
    stuck_before = now - _seconds("NOTIFY_SWEEP_STUCK_SECONDS", 900)
    stuck = Delivery.objects.filter(status__in=[Status.SENDING, Status.RETRY],
                                    updated_at__lt=stuck_before)
    stuck_ids = sorted(set(stuck.values_list("event_id", flat=True)[:batch]))
    if stuck_ids:
        # "sending" that long: its worker died. Free it for a new try, as a failed send.
        Delivery.objects.filter(event_id__in=stuck_ids, status=Status.SENDING,
                                updated_at__lt=stuck_before).update(
            status=Status.RETRY, reason="stuck", updated_at=now)
        counts["stuck"] += len(stuck_ids)
        _deliver_now(stuck_ids, counts)
    return counts


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


# --------------------------------------------------------------------------- the digest

def time_zone_valid(name: str) -> bool:
    return name in _time_zones()


@lru_cache(maxsize=1)
def _time_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones() | {"UTC"})


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def digest_time(prefs: NotificationSettings | None, now: datetime) -> datetime:
    """The person's latest digest time at or before ``now``: today's ``digest_hour`` in their
    time zone, or yesterday's while it is earlier than that (an hour a clock change skips
    counts as the hour after it)."""
    hour = prefs.digest_hour if prefs is not None else DEFAULT_DIGEST_HOUR
    zone = _zone(prefs.time_zone if prefs is not None else DEFAULT_TIME_ZONE)
    local = now.astimezone(zone)
    for days in (0, 1):
        day = local.date() - timedelta(days=days)
        at = datetime.combine(day, time(hour=hour), tzinfo=zone).astimezone(UTC)
        if at <= now:
            return at
    raise AssertionError("unreachable")  # pragma: no cover - yesterday's hour is in the past


def digest_send(*, now: datetime | None = None) -> dict[str, int]:
    """One mail a day per person with the notifications kept for their digest, at the hour
    they chose in their time zone (default 08:00 UTC), or at the first run after it. A person
    is due when their digest time has come since their last digest and something waits from
    before it; a run the same day sends them nothing more (what arrives later waits for the
    next day). Safe to run again and concurrently (each row is taken once, under a row lock)."""
    now = now or timezone.now()
    counts = {"mails": 0, "items": 0}
    waiting = (Delivery.objects.filter(status=Status.DIGEST).values("user_id")
               .annotate(oldest=Min("created_at")))
    oldest = {row["user_id"]: row["oldest"] for row in waiting}
    prefs_of = _settings_of(oldest)
    for user_id in sorted(oldest):
        since = digest_time(prefs_of.get(user_id), now)
        sent_at = prefs_of[user_id].digest_sent_at if user_id in prefs_of else None
        if oldest[user_id] > since or (sent_at is not None and sent_at >= since):
            continue  # not its time yet, or sent today already
        with transaction.atomic():
            prefs = (NotificationSettings.objects.select_for_update()
                     .filter(user_id=user_id).first())
            if prefs is not None and prefs.digest_sent_at is not None \
                    and prefs.digest_sent_at >= since:
                continue  # another run sent it meanwhile
            rows = list(Delivery.objects.select_for_update(skip_locked=True)
                        .filter(user_id=user_id, status=Status.DIGEST).order_by("event_id"))
            if not rows:
                continue
            user = User.objects.get(id=user_id)
            to = email_address(user, prefs)
            chosen = kinds.preferences_with_defaults(prefs.preferences if prefs else None)
            keep = [row for row in rows if chosen[row.kind][Channel.EMAIL]]
            if to is None or not keep:
                Delivery.objects.filter(id__in=[r.id for r in rows]).update(
                    status=Status.SKIPPED, reason="digest_off", updated_at=now)
                continue
            with translation.override(recipient_language(user)):
                messages = _digest_messages(keep)
                mail.send(mail.digest_mail(user_id=user_id, to=to, messages=messages))
            Delivery.objects.filter(id__in=[r.id for r in rows]).update(
                status=Status.DIGESTED, updated_at=now)
            NotificationSettings.objects.filter(user_id=user_id).update(digest_sent_at=now)
            counts["mails"] += 1
            counts["items"] += len(keep)
    return counts


def _digest_messages(rows: list[Delivery]) -> list[kinds.Message]:
    entries = {row["id"]: row for row in UserEvent.objects.filter(
        id__in=[r.event_id for r in rows]).values(*FEED_FIELDS)}
    result = []
    for delivery in rows:
        row = entries.get(delivery.event_id)
        if row is None:
            continue
        rating = None
        if row["type"] == UserEvent.Type.MATCH_FINISHED:
            found = (UserEvent.objects.filter(user_id=row["user_id"], match_id=row["match_id"],
                                              type=UserEvent.Type.RATING_CHANGED)
                     .values(*FEED_FIELDS).first())
            rating = feed_entry(found)["data"] if found else None
        result.append(kinds.message(feed_entry(row), rating))
    return result


# --------------------------------------------------------------------------- devices

def _check_subscription(endpoint: str, p256dh: str, auth: str) -> None:
    if not endpoint.startswith("https://") and not getattr(settings, "WEBPUSH_ALLOW_HTTP", False):
        raise InvalidPushSubscription(gettext("The endpoint must be an https URL."),
                                      field="endpoint")
    if not push.valid_client_key(p256dh):
        raise InvalidPushSubscription(gettext("keys.p256dh is not a P-256 public key."),
                                      field="p256dh")
    try:
        secret = push.b64url_decode(auth)
    except ValueError:
        secret = b""
    if len(secret) != 16:
        raise InvalidPushSubscription(gettext("keys.auth is not a 16-byte secret."), field="auth")


def push_subscription_register(*, user: User, endpoint: str, p256dh: str, auth: str,
                               name: str = "", user_agent: str = "") -> PushSubscription:
    """Register (or refresh) a device's subscription; the same endpoint again updates it."""
    _check_subscription(endpoint, p256dh, auth)
    with transaction.atomic():
        existing = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
        if existing is not None and existing.user_id != user.id:
            raise PushSubscriptionTaken()
        if existing is None:
            limit = int(getattr(settings, "PUSH_SUBSCRIPTIONS_PER_USER", 20))
            if PushSubscription.objects.filter(user=user).count() >= limit:
                raise TooManyPushSubscriptions(limit=limit)
            return PushSubscription.objects.create(user=user, endpoint=endpoint, p256dh=p256dh,
                                                   auth=auth, name=name, user_agent=user_agent)
        existing.p256dh, existing.auth = p256dh, auth
        existing.name = name or existing.name
        existing.user_agent = user_agent or existing.user_agent
        existing.save(update_fields=["p256dh", "auth", "name", "user_agent"])
        return existing


def push_subscription_renew(*, old_endpoint: str, old_auth: str, endpoint: str, p256dh: str,
                            auth: str) -> PushSubscription:
    """A device's push service replaced its subscription (the service worker's
    ``pushsubscriptionchange``): the new one takes the old one's place, for the same account
    and name. No sign-in: a service worker has no API token. Knowing the old endpoint and its
    auth secret, which only that browser and this server hold, is the proof."""
    _check_subscription(endpoint, p256dh, auth)
    with transaction.atomic():
        old = PushSubscription.objects.select_for_update().filter(endpoint=old_endpoint).first()
        if old is None or not hmac.compare_digest(old.auth.encode(), old_auth.encode()):
            raise NotFound(gettext("No such push subscription."))
        if endpoint == old.endpoint:
            old.p256dh, old.auth = p256dh, auth
            old.save(update_fields=["p256dh", "auth"])
            return old
        taken = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
        if taken is not None and taken.user_id != old.user_id:
            raise PushSubscriptionTaken()
        if taken is not None:  # the page registered the new one already
            old.delete()
            taken.p256dh, taken.auth = p256dh, auth
            taken.name = taken.name or old.name
            taken.save(update_fields=["p256dh", "auth", "name"])
            return taken
        old.endpoint, old.p256dh, old.auth = endpoint, p256dh, auth
        old.last_used_at = None
        old.save(update_fields=["endpoint", "p256dh", "auth", "last_used_at"])
        logger.info("push subscription %s renewed by its device", old.id)
        return old


def push_subscription_delete(*, user: User, subscription_id: int) -> bool:
    deleted, _ = PushSubscription.objects.filter(user=user, id=subscription_id).delete()
    return bool(deleted)


# --------------------------------------------------------------------------- preferences

def preferences_update(*, user: User, preferences: Mapping[str, Mapping[str, bool]] | None = None,
                       email_digest: bool | None = None, digest_hour: int | None = None,
                       time_zone: str | None = None) -> NotificationSettings:
    """Change what is given (``time_zone``: an IANA name, checked by the caller with
    ``time_zone_valid``)."""
    with transaction.atomic():
        prefs, _ = NotificationSettings.objects.select_for_update().get_or_create(user=user)
        merged = kinds.preferences_with_defaults(prefs.preferences)
        for kind, channels in (preferences or {}).items():
            merged[kind].update({ch: bool(v) for ch, v in channels.items()})
        prefs.preferences = merged
        if email_digest is not None:
            prefs.email_digest = email_digest
        if digest_hour is not None:
            prefs.digest_hour = digest_hour
        if time_zone is not None:
            prefs.time_zone = time_zone
        prefs.save()
        return prefs


def email_set(*, user: User, email: str) -> NotificationSettings:
    """Change the account's address (``""`` removes it); a new one must be verified again."""
    with transaction.atomic():
        prefs, _ = NotificationSettings.objects.select_for_update().get_or_create(user=user)
        if email.lower() != (user.email or "").lower():
            user.email = email
            user.save(update_fields=["email"])
        if prefs.verified_email.lower() != email.lower():
            prefs.verified_email = ""
            prefs.save(update_fields=["verified_email", "updated_at"])
    if email and not prefs.verified_email:
        email_verification_send(user=user)
    return prefs


def email_verification_send(*, user: User) -> None:
    """Mail a link that verifies the account's current address."""
    if not user.email:
        raise NoEmailAddress()
    mail.send(mail.verification_mail(user_id=user.id, to=user.email))


def email_verify(*, token: str) -> User:
    """Verify the address of a link's token (it must still be the account's)."""
    found = mail.read_verify_token(token)
    if found is None:
        raise InvalidToken()
    user_id, email = found
    user = User.objects.filter(id=user_id).first()
    if user is None or (user.email or "").lower() != email.lower():
        raise InvalidToken(gettext("This address is no longer the account's."))
    with transaction.atomic():
        prefs, _ = NotificationSettings.objects.select_for_update().get_or_create(user=user)
        prefs.verified_email = email
        prefs.save(update_fields=["verified_email", "updated_at"])
    return user


def unsubscribe_preview(*, token: str) -> tuple[User, list[str]]:
    """Who a signed unsubscribe link is for and the kinds of mail it would stop; changes
    nothing (what a GET of the link answers: a mail scanner following links stops nothing)."""
    found = mail.read_unsubscribe_token(token)
    if found is None:
        raise InvalidToken()
    user_id, kind = found
    user = User.objects.filter(id=user_id).first()
    if user is None or (kind != mail.ALL and kind not in kinds.DEFAULTS):
        raise InvalidToken()
    return user, [str(k) for k in (list(kinds.DEFAULTS) if kind == mail.ALL else [kind])]


def unsubscribe(*, token: str) -> tuple[User, list[str]]:
    """Turn off the mails a signed unsubscribe link names, at once; no sign-in needed (the
    one-click POST of RFC 8058, and the button of the link's page)."""
    user, turned_off = unsubscribe_preview(token=token)
    kind = mail.ALL if len(turned_off) > 1 else turned_off[0]
    preferences_update(user=user, preferences={k: {Channel.EMAIL: False} for k in turned_off},
                       email_digest=False if kind == mail.ALL else None)
    return user, [str(k) for k in turned_off]
