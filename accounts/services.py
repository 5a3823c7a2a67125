"""Writes of the accounts app: registration, passwords, API tokens and sessions."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import authenticate, password_validation
from django.contrib.auth.signals import user_logged_in
from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone

from accounts.authentication import CachedTokenAuthentication
from accounts.exceptions import (
    InvalidCredentials,
    InvalidPassword,
    NotAGuest,
    TokenNotFound,
    UsernameTaken,
)
from accounts.models import ApiToken, RetiredName, User, retired_name_digest, token_digest

# What the key of a token starts with, so a leaked key is easy to recognise (and scan for).
KEY_PREFIX = "bp_"
# Guests' generated names start with this; nobody may sign up with a name that does.
GUEST_PREFIX = "guest-"
# Closed accounts that signing in opens again (accounts.closing).
REOPENABLE = (User.Closure.DISABLED, User.Closure.DELETING)


class IssuedToken:
    """A token just created: its row, and the key, which exists only here and in the answer."""

    def __init__(self, token: ApiToken, key: str) -> None:
        self.token = token
        self.key = key
        self.user: User = token.user


def _check_new_name(username: str, *, exclude: int | None = None) -> None:
    """A name is taken when an account holds it (in any case) or a deleted account held it."""
    taken = User.objects.filter(username__iexact=username)
    if exclude is not None:
        taken = taken.exclude(pk=exclude)
    if taken.exists() or RetiredName.objects.filter(digest=retired_name_digest(username)).exists():
        raise UsernameTaken()


def password_check(candidate: User, password: str) -> None:
    """Run the password validators (settings.AUTH_PASSWORD_VALIDATORS) on a new password."""
    try:
        password_validation.validate_password(password, user=candidate)
    except ValidationError as exc:
        raise InvalidPassword(" ".join(exc.messages), reasons=exc.messages) from None


@transaction.atomic
def user_register(*, username: str, password: str, email: str = "",
                  token_name: str = "") -> tuple[User, IssuedToken]:
    _check_new_name(username)
    candidate = User(username=username, email=email)
    password_check(candidate, password)
    candidate.set_password(password)
    try:
        with transaction.atomic():
            candidate.save()
    except IntegrityError:
        raise UsernameTaken() from None
    return candidate, token_create(candidate, name=token_name)


# --------------------------------------------------------------------------- guests


@transaction.atomic
def guest_create(*, token_name: str = "") -> tuple[User, IssuedToken]:
    """A guest account with a generated name and no usable password, and its token, which
    lasts GUEST_TOKEN_DAYS. Guests are unrated, play only bots, keep at most
    GUEST_MAX_ACTIVE_MATCHES running matches and have a request budget of their own."""
    for _ in range(5):
        username = GUEST_PREFIX + secrets.token_hex(5)
        guest = User(username=username, is_guest=True, last_active_at=timezone.now())
        guest.set_unusable_password()
        try:
            with transaction.atomic():
                guest.save()
        except IntegrityError:  # a name drawn twice: draw again
            continue
        return guest, token_create(guest, name=token_name,
                                   expires_in_days=settings.GUEST_TOKEN_DAYS)
    raise RuntimeError("Could not draw a free guest name.")  # pragma: no cover


@transaction.atomic
def guest_convert(*, user: User, username: str, password: str, email: str = "",
                  token_name: str = "") -> tuple[User, IssuedToken]:
    """Sign a guest up in place: the account takes the chosen name, password and address and
    keeps its matches. Its guest tokens are revoked; the answer carries a new, ordinary one."""
    guest = User.objects.select_for_update().get(pk=user.pk)
    if not guest.is_guest:
        raise NotAGuest()
    _check_new_name(username, exclude=guest.pk)
    guest.username, guest.email = username, email
    password_check(guest, password)
    guest.set_password(password)
    guest.is_guest = False
    guest.last_active_at = None
    try:
        with transaction.atomic():
            guest.save(update_fields=["username", "email", "password", "is_guest",
                                      "last_active_at"])
    except IntegrityError:
        raise UsernameTaken() from None
    token_revoke_all(user=guest)
    return guest, token_create(guest, name=token_name)


def guest_touch(user: User) -> None:
    """Note that a guest is active now (creating or joining a match), which keeps it from being
    cleaned up as idle."""
    if user.is_guest:
        user.last_active_at = timezone.now()
        User.objects.filter(pk=user.pk).update(last_active_at=user.last_active_at)


def user_settings_update(*, user: User, matches_private: bool | None = None,
                         language: str | None = None, invitations: str | None = None) -> User:
    """Change the caller's settings; ``language`` is a code of settings.LANGUAGES, or "" to
    follow the client's Accept-Language (the API checks it); ``invitations`` one of
    ``User.Invitations`` (who may invite the player)."""
    changed: dict[str, object] = {}
    if invitations is not None and invitations != user.invitations:
        user.invitations = invitations
        changed["invitations"] = invitations
    if matches_private is not None and matches_private != user.matches_private:
        user.matches_private = matches_private
        changed["matches_private"] = matches_private
    if language is not None and language != user.language:
        user.language = language
        changed["language"] = language
    if changed:
        User.objects.filter(pk=user.pk).update(**changed)
    return user


def token_create(user: User, name: str = "", *, expires_in_days: int | None = None,
                 ) -> IssuedToken:
    """A new token for ``user``. It expires after ``expires_in_days`` (at most, and by default,
    API_TOKEN_TTL_DAYS; never when that is 0 and no days are asked for). Beyond
    API_TOKENS_PER_USER tokens, the oldest are dropped; expired ones are dropped first."""
    ttl = settings.API_TOKEN_TTL_DAYS
    days = expires_in_days if expires_in_days is not None else ttl
    if ttl and days:
        days = min(days, ttl)
    now = timezone.now()
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        expired = list(ApiToken.objects.filter(user=user, expires__lte=now))
        token = ApiToken.objects.create(
            user=user, name=name, digest=token_digest(key), prefix=key[:8],
            expires=now + timedelta(days=days) if days else None)
        dropped = expired + list(
            ApiToken.objects.filter(user=user).exclude(pk__in=[t.pk for t in expired])
            .order_by("-created", "-pk")[settings.API_TOKENS_PER_USER:])
        if dropped:
            ApiToken.objects.filter(pk__in=[t.pk for t in dropped]).delete()
    CachedTokenAuthentication.forget_tokens(dropped)
    return IssuedToken(token, key)


def token_obtain(*, request: HttpRequest, username: str, password: str,
                 name: str = "", expires_in_days: int | None = None) -> IssuedToken:
    """Sign in: a new token, when the password is right. Wrong passwords count towards the
    account's and the address's sign-in limits (django-axes, through ``authenticate``). A closed
    account that may be opened again is opened."""
    user = authenticate(request, username=username, password=password)
    if user is None or not isinstance(user, User) or user.is_bot:
        raise InvalidCredentials()
    # Signing in opens a disabled account again and cancels a deletion not yet done
    # (accounts.backends lets such an account through the password check).
    account_reopen(user)
    # A sign-in like the session one: clears the failure counts, records last_login.
    user_logged_in.send(sender=user.__class__, request=request, user=user)
    return token_create(user, name, expires_in_days=expires_in_days)


def account_reopen(user: User) -> bool:
    """Open a disabled account, or one waiting for its deletion, again (the player signed in
    with their password); True when it was closed."""
    if user.closure not in REOPENABLE:
        return False
    reopened = User.objects.filter(pk=user.pk, closure__in=REOPENABLE).update(
        is_active=True, closure="", closed_at=None, deletion_due_at=None)
    user.is_active, user.closure, user.closed_at, user.deletion_due_at = True, "", None, None
    return bool(reopened)


def token_revoke(*, user: User, token_id: int) -> None:
    """Revoke one of ``user``'s tokens (404 for anyone else's)."""
    tokens = list(ApiToken.objects.filter(user=user, pk=token_id))
    if not tokens:
        raise TokenNotFound()
    ApiToken.objects.filter(pk=token_id).delete()
    CachedTokenAuthentication.forget_tokens(tokens)


def token_revoke_all(*, user: User) -> None:
    tokens = list(ApiToken.objects.filter(user=user))
    ApiToken.objects.filter(user=user).delete()
    CachedTokenAuthentication.forget_tokens(tokens)


def user_sessions_end(user: User, *, keep: str | None = None) -> int:
    """Delete every unexpired session signed in as ``user`` but the one keyed ``keep``; returns
    how many. Sessions keep the user id inside their encoded data, so each live one is
    decoded."""
    ended = []
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if session.pk != keep and str(session.get_decoded().get("_auth_user_id")) == str(user.pk):
            ended.append(session.pk)
    if ended:
        Session.objects.filter(pk__in=ended).delete()
    return len(ended)


@transaction.atomic
def password_set(*, user: User, password: str, keep_token: ApiToken | None = None,
                 keep_session: str | None = None) -> None:
    """Give ``user`` a new password (checked by the validators) and end every token and session
    but those kept: whoever signed in with the old password is signed out."""
    password_check(user, password)
    user.set_password(password)
    user.save(update_fields=["password"])
    tokens = list(ApiToken.objects.filter(user=user).exclude(
        pk=keep_token.pk if keep_token is not None else None))
    ApiToken.objects.filter(pk__in=[token.pk for token in tokens]).delete()
    CachedTokenAuthentication.forget_tokens(tokens)
    user_sessions_end(user, keep=keep_session)


def tokens_create_bulk(users: list[User], name: str = "") -> dict[str, str]:
    """A new token for each of ``users`` in one insert (for load tests and fixtures):
    ``{username: key}``. Expiry as ``token_create``; no pruning."""
    ttl = settings.API_TOKEN_TTL_DAYS
    expires = timezone.now() + timedelta(days=ttl) if ttl else None
    keys = {user.username: KEY_PREFIX + secrets.token_urlsafe(32) for user in users}
    ApiToken.objects.bulk_create([
        ApiToken(user=user, name=name, digest=token_digest(keys[user.username]),
                 prefix=keys[user.username][:8], expires=expires)
        for user in users
    ], batch_size=500)
    return keys
