"""Deleting an account once its deletion is due: every kind of data the server holds about the
player, one registered step per kind, in one transaction with the account's row locked.

``STEPS`` is the registry, in the order the steps run: leaving the tournaments and then the
running matches comes first (through the one write path, so the other seats see a
resignation), the account row's own part last (the name becomes a pseudonym, used from then on
in every match and history of others; a guest's row goes). A new kind of data a player owns adds
its step before the last one. A step is a function of the locked
account that returns how many rows it removed or changed and may run again harmlessly.

The deletion is due work: ``User.deletion_due_at`` is set when it is asked for, and the account
sweep (``games.lifecycle.sweep``, run by Celery beat) hands each account whose time has come to
``account_delete``. Signing in before then clears the mark and so cancels it. Idle guests go the
same way (``games.services.guests`` finds them; ``erase`` deletes them).
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from accounts.closing import DELETING, account_erase
from accounts.models import User
from games.lifecycle import steps
from games.lifecycle.registry import PerKind
from games.services.guests import guests_idle

logger = logging.getLogger(__name__)


STEPS: tuple[PerKind, ...] = (
    PerKind("tournaments", steps.tournaments_left),
    PerKind("matches", steps.matches_left),
    PerKind("ratings", steps.ratings_forgotten),
    PerKind("feed", steps.feed_forgotten),
    PerKind("devices", steps.devices_forgotten),
    PerKind("vacation", steps.vacation_forgotten),
    PerKind("replays", steps.replays_forgotten),
    PerKind("exports", steps.exports_forgotten),
    PerKind("follows", steps.follows_forgotten),
    PerKind("blocks", steps.blocks_forgotten),
    PerKind("chat", steps.chat_forgotten),
    PerKind("account", account_erase),
)


def erase(user: User) -> dict[str, int]:
    """Run every step on ``user`` (locked by the caller, in its transaction), in order."""
    return {step.name: step.run(user) for step in STEPS}


@transaction.atomic
def account_delete(*, user_id: int, now: datetime | None = None) -> dict[str, int] | None:
    """Delete the account ``user_id`` if its deletion is still asked for and due at ``now``;
    the counts by step, or None when there was nothing to do (signed in meanwhile, deleted
    already)."""
    now = now or timezone.now()
    user = User.objects.select_for_update().filter(pk=user_id).first()
    if user is None or user.closure != DELETING or user.deletion_due_at is None \
            or user.deletion_due_at > now:
        return None
    done = erase(user)
    # Ids and counts only: never the name the account had.
    logger.info("account %s deleted: %s", user_id, done)
    return done


def guests_idle_delete(*, now: datetime | None = None, batch: int = 200) -> dict[str, int]:
    """Delete up to ``batch`` idle guests (``games.services.guests.guests_idle``) through the
    deletion steps, their matches with them, one guest per transaction (the periodic task
    calls it; the next run takes the rest). Returns the counts."""
    deleted = {"guests": 0, "matches": 0}
    for guest_id in guests_idle(now=now)[:batch]:
        with transaction.atomic():
            guest = User.objects.select_for_update().filter(pk=guest_id, is_guest=True).first()
            if guest is None:  # signed up meanwhile
                continue
            done = erase(guest)
        deleted["guests"] += 1
        deleted["matches"] += done["matches"]
    return deleted
