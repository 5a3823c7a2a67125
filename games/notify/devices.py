"""A person's push devices: registering a browser's Web Push subscription, the browser
renewing it on its own, and removing it."""

from __future__ import annotations

import hmac
import logging

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext

from accounts.models import User
from config.exceptions import NotFound
from games.notify import push
from games.notify.exceptions import (
    InvalidPushSubscription,
    PushSubscriptionTaken,
    TooManyPushSubscriptions,
)
from games.notify.models import PushSubscription

logger = logging.getLogger(__name__)


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
