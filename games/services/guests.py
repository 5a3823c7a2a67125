"""Guests who stopped playing: their accounts and matches are deleted after a while (by
``games.lifecycle.erasure.guests_idle_delete``, the steps of any account's deletion).

A guest (``accounts.User.is_guest``) plays bots only, so every match a guest sits in is one
they created against bots: deleting it touches nobody else's history (guest matches are never
rated, so no bot's rating history refers to one). A guest is idle when they have not created a
match for GUEST_IDLE_DAYS (``last_active_at``) and none of their matches changed in that time.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from accounts.models import User
from games.models import Match


def guests_idle(*, now: datetime | None = None) -> list[int]:
    """Ids of the guests idle for GUEST_IDLE_DAYS, oldest first."""
    cutoff = (now or timezone.now()) - timedelta(days=settings.GUEST_IDLE_DAYS)
    recent = Match.objects.filter(Q(created_by=OuterRef("pk")) | Q(seats__user=OuterRef("pk")),
                                  updated_at__gte=cutoff)
    return list(User.objects.filter(is_guest=True)
                .filter(Q(last_active_at__lt=cutoff)
                        | Q(last_active_at__isnull=True, date_joined__lt=cutoff))
                .exclude(Exists(recent)).order_by("last_active_at", "pk")
                .values_list("pk", flat=True))
