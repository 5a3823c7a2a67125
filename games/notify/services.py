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
import logging
import smtplib
from collections import defaultdict
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
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
    Channel,
    Delivery,
    Kind,
    NotificationSettings,
    PushSubscription,
    TurnNotice,
)
from games.selectors.feeds import feed_entry

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
            _deliver_entry(row, user, prefs.get(user.id), devices[user.id], channels, counts,
                           final=final)
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
                                            defaults={"sent_at": timezone.now()})
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
    looked = presence.seen_at(user_id, match_id)
    if looked is not None and looked >= notice.sent_at.timestamp():
        return True
    return Move.objects.filter(match_id=match_id, user_id=user_id,
                               created_at__gt=notice.sent_at).exists()


def player_looked(*, user_id: int, match_id: Any) -> None:
    """The player looked at the match (read it): the next "your turn" may go out."""
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


# --------------------------------------------------------------------------- the digest

def digest_send(*, now: datetime | None = None) -> dict[str, int]:
    """One mail per person with the notifications kept for their digest; safe to run again
    (each row is taken once, under a row lock)."""
    now = now or timezone.now()
    counts = {"mails": 0, "items": 0}
    user_ids = sorted(set(Delivery.objects.filter(status=Status.DIGEST)
                          .values_list("user_id", flat=True)))
    for user_id in user_ids:
        with transaction.atomic():
            rows = list(Delivery.objects.select_for_update(skip_locked=True)
                        .filter(user_id=user_id, status=Status.DIGEST).order_by("event_id"))
            if not rows:
                continue
            user = User.objects.get(id=user_id)
            prefs = NotificationSettings.objects.filter(user_id=user_id).first()
            to = email_address(user, prefs)
            chosen = kinds.preferences_with_defaults(prefs.preferences if prefs else None)
            keep = [row for row in rows if chosen[row.kind][Channel.EMAIL]]
            if to is None or not keep:
                Delivery.objects.filter(id__in=[r.id for r in rows]).update(
                    status=Status.SKIPPED, reason="digest_off", updated_at=now)
                continue
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

def push_subscription_register(*, user: User, endpoint: str, p256dh: str, auth: str,
                               name: str = "", user_agent: str = "") -> PushSubscription:
    """Register (or refresh) a device's subscription; the same endpoint again updates it."""
    if not endpoint.startswith("https://") and not getattr(settings, "WEBPUSH_ALLOW_HTTP", False):
        raise InvalidPushSubscription("The endpoint must be an https URL.",
                                      field="endpoint")
    if not push.valid_client_key(p256dh):
        raise InvalidPushSubscription("keys.p256dh is not a P-256 public key.", field="p256dh")
    try:
        secret = push.b64url_decode(auth)
    except ValueError:
        secret = b""
    if len(secret) != 16:
        raise InvalidPushSubscription("keys.auth is not a 16-byte secret.", field="auth")
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


def push_subscription_delete(*, user: User, subscription_id: int) -> bool:
    deleted, _ = PushSubscription.objects.filter(user=user, id=subscription_id).delete()
    return bool(deleted)


# --------------------------------------------------------------------------- preferences

def preferences_update(*, user: User, preferences: Mapping[str, Mapping[str, bool]] | None = None,
                       email_digest: bool | None = None) -> NotificationSettings:
    with transaction.atomic():
        prefs, _ = NotificationSettings.objects.select_for_update().get_or_create(user=user)
        merged = kinds.preferences_with_defaults(prefs.preferences)
        for kind, channels in (preferences or {}).items():
            merged[kind].update({ch: bool(v) for ch, v in channels.items()})
        prefs.preferences = merged
        if email_digest is not None:
            prefs.email_digest = email_digest
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
        raise InvalidToken("This address is no longer the account's.")
    with transaction.atomic():
        prefs, _ = NotificationSettings.objects.select_for_update().get_or_create(user=user)
        prefs.verified_email = email
        prefs.save(update_fields=["verified_email", "updated_at"])
    return user


def unsubscribe(*, token: str) -> tuple[User, list[str]]:
    """Turn off the mails a signed unsubscribe link names; no sign-in needed."""
    found = mail.read_unsubscribe_token(token)
    if found is None:
        raise InvalidToken()
    user_id, kind = found
    user = User.objects.filter(id=user_id).first()
    if user is None or (kind != mail.ALL and kind not in kinds.DEFAULTS):
        raise InvalidToken()
    turned_off = list(kinds.DEFAULTS) if kind == mail.ALL else [kind]
    preferences_update(user=user, preferences={k: {Channel.EMAIL: False} for k in turned_off},
                       email_digest=False if kind == mail.ALL else None)
    return user, [str(k) for k in turned_off]
