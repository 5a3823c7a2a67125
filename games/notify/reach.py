"""Whether a player has somewhere to be told something: a push device or a verified address.

Over-inclusive on purpose (a device while push is unconfigured, a mail kind switched off): the
services use it only to spare the notification task when nobody could be told anything. It is
registered with them when the app starts (``games.notify.apps``)."""

from __future__ import annotations

from functools import cache

from django.db.models import Exists, OuterRef, Q

from games.notify.models import NotificationSettings, PushSubscription


@cache
def user_reachable(user_field: str) -> Q:
    """The condition, on a row whose column ``user_field`` holds a user id, that the user has a
    push device or a verified address (two indexed EXISTS subqueries). Built once per column:
    every query resolves its own copy, so the one object serves them all."""
    user = OuterRef(user_field)
    return (Q(Exists(PushSubscription.objects.filter(user_id=user)))
            | Q(Exists(NotificationSettings.objects.filter(user_id=user)
                       .exclude(verified_email=""))))
