"""Forgotten passwords: a mail with a link that chooses a new one.

Asking never tells whether an account has the address: whatever the address, the request does
the same work (one row written, one task queued after commit) and gets the same answer; the
worker looks the accounts up and mails each one that has the address a link, in the account's
language (or the asker's, when the account chose none). The link carries Django's password
reset token (``default_token_generator``): it expires after PASSWORD_RESET_TIMEOUT seconds and
works once, since it is tied to the password it replaces and to the last sign-in.

The mail is due work: the request's row (``PasswordResetRequest``) stays until its mails have
gone, and the account sweep queues it again when its task was lost; the row, and with it the
address asked about, is deleted once done.
"""

from __future__ import annotations

import logging

from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone, translation
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode

from accounts.exceptions import InvalidResetLink
from accounts.models import PasswordResetRequest, User
from accounts.services import REOPENABLE, password_set
from config.i18n import supported
from games.notify import mail
from games.services import scheduling

logger = logging.getLogger(__name__)


def resettable() -> QuerySet[User]:
    """Accounts whose password may be reset: people with a password, open or closed in a way
    that signing in undoes (a banned or deleted account is not)."""
    return (User.objects.filter(is_bot=False, is_guest=False)
            .filter(Q(is_active=True) | Q(closure__in=REOPENABLE)))


@transaction.atomic
def password_forgot(*, email: str, language: str = "") -> None:
    """Ask for reset links for the accounts with ``email`` (there may be none)."""
    row = PasswordResetRequest.objects.create(email=email.strip(), language=language,
                                              send_due_at=timezone.now())
    scheduling.password_reset_send_after_commit(request_id=row.pk)


def password_reset_send(*, request_id: int) -> int:
    """Mail a reset link to each account with the request's address, then forget the request;
    how many mails went. A request done already is nothing to do."""
    with transaction.atomic():
        row = PasswordResetRequest.objects.select_for_update().filter(pk=request_id).first()
        if row is None:
            return 0
        accounts = [user for user in resettable().filter(email__iexact=row.email)
                    if user.has_usable_password()]
        for user in accounts:
            with translation.override(supported(user.language) or supported(row.language)
                                      or settings.LANGUAGE_CODE):
                mail.send(mail.password_reset_mail(
                    to=user.email, username=user.username,
                    query={"uid": urlsafe_base64_encode(force_bytes(user.pk)),
                           "token": default_token_generator.make_token(user)},
                    hours=max(1, settings.PASSWORD_RESET_TIMEOUT // 3600)))
        row.delete()
    logger.info("password reset request %s done: %d mails", request_id, len(accounts))
    return len(accounts)


def password_reset(*, uid: str, token: str, password: str) -> User:
    """Choose a new password with a reset link's ``uid`` and ``token``: every token and session
    of the account ends, and its sign-in failures are forgotten. The player then signs in (which
    opens a closed account again)."""
    try:
        user_id = int(force_str(urlsafe_base64_decode(uid)))
    except (TypeError, ValueError, OverflowError, UnicodeDecodeError):
        raise InvalidResetLink() from None
    if not 0 < user_id < 2**63:
        raise InvalidResetLink()
    user = resettable().filter(pk=user_id).first()
    if user is None or not user.has_usable_password() \
            or not default_token_generator.check_token(user, token):
        raise InvalidResetLink()
    password_set(user=user, password=password)
    axes_reset(username=user.username)
    return user
