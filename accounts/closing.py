"""Closing an account, the account's own part: disable it, ask for its deletion, open it again
by signing in, and erase what the account row holds once the deletion is due.

A closed account is inactive (no token or session works, no profile, no leaderboard) and keeps
in ``User.closure`` how it was closed: "disabled" lasts until the player signs in again;
"deleting" waits ``ACCOUNT_DELETION_GRACE_DAYS`` (``deletion_due_at``), and signing in before
then cancels it; "deleted" is final. What touches matches (leaving them, erasing the player's
other data) is the games side's (``games.lifecycle``), which calls these.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings
from django.contrib.auth import authenticate
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone

from accounts.exceptions import GuestNotAllowed, WrongPassword
from accounts.models import RetiredName, User, retired_name_digest
from accounts.services import REOPENABLE, token_revoke_all, user_sessions_end

DISABLED = User.Closure.DISABLED
DELETING = User.Closure.DELETING
DELETED = User.Closure.DELETED
# Deleted accounts are shown under names starting with this; nobody may sign up with one.
PSEUDONYM_PREFIX = "deleted-"


def password_confirm(*, request: HttpRequest, user: User, password: str) -> None:
    """Check the signed-in ``user``'s password before a change only they may make. A wrong one
    counts towards the sign-in limits like a failed sign-in (django-axes, through
    ``authenticate``), so a stolen token cannot be used to guess the password."""
    if user.is_guest or not user.has_usable_password():
        raise GuestNotAllowed()
    checked = authenticate(request, username=user.get_username(), password=password)
    if checked is None or checked.pk != user.pk:
        raise WrongPassword()


@transaction.atomic
def account_close(*, user: User, closure: str, now: datetime | None = None) -> User:
    """Close ``user``'s account as ``closure`` (DISABLED or DELETING): inactive at once, every
    token and session ended; a deletion falls due after the grace period. Closing a closed
    account again changes its kind (a disabled account asked for deletion starts the grace
    period)."""
    if closure not in REOPENABLE:
        raise ValueError(f"Unknown closure {closure!r}.")
    now = now or timezone.now()
    account = User.objects.select_for_update().get(pk=user.pk)
    account.is_active = False
    account.closure = closure
    account.closed_at = now
    account.deletion_due_at = (now + timedelta(days=settings.ACCOUNT_DELETION_GRACE_DAYS)
                               if closure == DELETING else None)
    account.save(update_fields=["is_active", "closure", "closed_at", "deletion_due_at"])
    token_revoke_all(user=account)
    user_sessions_end(account)
    return account


def deletions_due(*, now: datetime | None = None, limit: int = 100) -> list[int]:
    """Ids of the accounts whose deletion is due, the longest due first."""
    return list(User.objects.filter(deletion_due_at__lte=now or timezone.now())
                .order_by("deletion_due_at", "pk").values_list("pk", flat=True)[:limit])


def account_erase(user: User) -> int:
    """The account row's part of a deletion (the last step of ``games.lifecycle.erasure``): a
    guest's row is deleted; any other keeps its row, so the matches and histories of others stay
    whole, under a pseudonym that stays the same everywhere, with no email, password, names,
    language or tokens, its old name retired for good. Returns 1."""
    token_revoke_all(user=user)
    user_sessions_end(user)
    for model in (AccessAttempt, AccessFailureLog, AccessLog):  # the sign-in records
        model.objects.filter(username=user.username).delete()
    if user.is_guest:
        user.delete()
        return 1
    old_name = user.username
    if not old_name.startswith(PSEUDONYM_PREFIX):
        with transaction.atomic():
            try:
                RetiredName.objects.create(digest=retired_name_digest(old_name))
            except IntegrityError:  # retired before: a deletion that ran once already
                pass
        user.username = _pseudonym()
    user.email = user.first_name = user.last_name = user.language = ""
    user.last_login = None
    user.set_unusable_password()
    user.is_active, user.is_staff, user.is_superuser = False, False, False
    user.closure, user.deletion_due_at = DELETED, None
    user.closed_at = user.closed_at or timezone.now()
    user.save(update_fields=["username", "email", "first_name", "last_name", "language",
                             "last_login", "password", "is_active", "is_staff", "is_superuser",
                             "closure", "deletion_due_at", "closed_at"])
    user.groups.clear()
    user.user_permissions.clear()
    return 1


def _pseudonym() -> str:
    for _ in range(5):
        name = PSEUDONYM_PREFIX + secrets.token_hex(6)
        if not User.objects.filter(username__iexact=name).exists():
            return name
    raise RuntimeError("Could not draw a free pseudonym.")  # pragma: no cover
