"""Sending one claimed delivery through its channel: Web Push to each of the person's devices,
or a mail to their verified address.

A send that fails for a reason that may pass (a push service's 429 or 5xx, an SMTP error, the
network) raises ``DeliveryDeferred``: the delivery is tried again later, and on the push
channel only the devices that have not accepted it yet are sent to again. A push service
answering 404 or 410 means the subscription is gone: it is deleted.
"""

from __future__ import annotations

import hashlib
import logging
import smtplib
from collections.abc import Mapping
from typing import Any

from django.utils import timezone

from accounts.models import User
from games.notify import kinds, mail, push
from games.notify.models import Delivery, Kind, NotificationSettings, PushSubscription
from games.notify.preferences import email_address
from games.notify.records import Status, finish
from games.selectors.lists import waiting_count

logger = logging.getLogger(__name__)

MAIL_ERRORS = (smtplib.SMTPException, OSError)


class DeliveryDeferred(Exception):
    """Some notification could not be sent for now; the task retries (with backoff)."""


def push_payload(entry: Mapping[str, Any], message: kinds.Message, *,
                 waiting: int) -> dict[str, Any]:
    """What a device receives (encrypted): the words, where to go, the feed entry, and how
    many matches wait for the person now (the installed app's badge)."""
    return {"title": message.title, "body": message.body, "url": message.path,
            "tag": message.tag, "kind": message.kind, "match": message.match,
            "event": entry.get("id"), "waiting": waiting}


def send_push(delivery: Delivery, devices: list[PushSubscription],
              entry: Mapping[str, Any], message: kinds.Message) -> bool:
    """Push to every device that has not accepted this delivery yet; whether any has."""
    payload = push_payload(entry, message, waiting=waiting_count(user_id=delivery.user_id))
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
    finish(delivery, Status.SENT if done else Status.SKIPPED, "" if done else "no_device")
    return bool(done)


def _topic(tag: str) -> str:
    # RFC 8030 topics: at most 32 characters of the URL-safe base64 alphabet.
    return push.b64url(hashlib.sha256(tag.encode()).digest())[:32]


def send_mail(delivery: Delivery, user: User, prefs: NotificationSettings | None,
              message: kinds.Message) -> bool:
    """Mail the notification to the person's verified address; whether it went."""
    to = email_address(user, prefs)
    if to is None:
        finish(delivery, Status.SKIPPED, "no_address")
        return False
    try:
        mail.send(mail.notification_mail(user_id=user.id, to=to, message=message))
    except MAIL_ERRORS as exc:
        logger.warning("mail not sent for now: %s", type(exc).__name__)
        raise DeliveryDeferred() from exc
    finish(delivery, Status.SENT)
    return True
