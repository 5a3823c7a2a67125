"""Mails through Django's email framework: plain text and HTML, each with signed links that
unsubscribe in one click without signing in (and the List-Unsubscribe headers of RFC 2369 and
RFC 8058, so mail programs offer it too), the links that verify an address, and the password
reset link.

Links are absolute, on SITE_URL. Tokens are signed with the project's secret key
(``django.core.signing``) under salts of their own, so one kind cannot stand in for another.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives, get_connection
from django.template.loader import render_to_string
from django.utils.translation import gettext, ngettext

from games.notify.kinds import LABELS, Message

UNSUBSCRIBE_SALT = "boardpost.notify.unsubscribe"
VERIFY_SALT = "boardpost.notify.verify-email"
ALL = "all"
# A verification link works for this long.
VERIFY_MAX_AGE_SECONDS = 3 * 86400


def site_url(path: str, query: dict[str, str] | None = None) -> str:
    base = str(getattr(settings, "SITE_URL", "http://127.0.0.1:8000")).rstrip("/")
    return f"{base}{path}" + (f"?{urlencode(query)}" if query else "")


def unsubscribe_token(user_id: int, kind: str) -> str:
    """A token that turns off mails of ``kind`` (or ``ALL`` mails) for the user."""
    return signing.dumps({"u": user_id, "k": kind}, salt=UNSUBSCRIBE_SALT, compress=True)


def read_unsubscribe_token(token: str) -> tuple[int, str] | None:
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("u"), int) \
            or not isinstance(data.get("k"), str):
        return None
    return data["u"], data["k"]


def unsubscribe_url(user_id: int, kind: str) -> str:
    return site_url("/api/notifications/unsubscribe",
                    {"token": unsubscribe_token(user_id, kind)})


def verify_token(user_id: int, email: str) -> str:
    return signing.dumps({"u": user_id, "e": email}, salt=VERIFY_SALT, compress=True)


def read_verify_token(token: str) -> tuple[int, str] | None:
    """(user id, address) of a verification token; None when forged or expired."""
    try:
        data = signing.loads(token, salt=VERIFY_SALT, max_age=VERIFY_MAX_AGE_SECONDS)
    except signing.BadSignature:  # SignatureExpired is one
        return None
    if not isinstance(data, dict) or not isinstance(data.get("u"), int) \
            or not isinstance(data.get("e"), str):
        return None
    return data["u"], data["e"]


def _mail(*, to: str, subject: str, template: str, context: dict[str, Any],
          unsubscribe: str | None) -> EmailMultiAlternatives:
    context = {**context, "unsubscribe_all": unsubscribe}
    text = render_to_string(f"notify/{template}.txt", context)
    html = render_to_string(f"notify/{template}.html", context)
    headers = {"Auto-Submitted": "auto-generated"}
    if unsubscribe:
        headers["List-Unsubscribe"] = f"<{unsubscribe}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    mail = EmailMultiAlternatives(subject=subject, body=text, to=[to], headers=headers)
    mail.attach_alternative(html, "text/html")
    return mail


def notification_mail(*, user_id: int, to: str, message: Message) -> EmailMultiAlternatives:
    """One notification: its words, a link to the match, and the ways to stop such mails."""
    return _mail(to=to, subject=message.title, template="notification", context={
        "message": message, "link": site_url(message.path),
        "kind_label": LABELS.get(message.kind, message.kind),
        "unsubscribe_kind": unsubscribe_url(user_id, message.kind),
    }, unsubscribe=unsubscribe_url(user_id, ALL))


def digest_mail(*, user_id: int, to: str, messages: Sequence[Message],
                ending: Sequence[dict[str, str]] = ()) -> EmailMultiAlternatives:
    """The day's notifications in one mail, and the turns ending in less than a day
    (``ending``: each line's ``text`` and ``link``)."""
    items = [{"message": m, "link": site_url(m.path)} for m in messages]
    count = len(items)
    if count:
        subject = ngettext("Boardpost: %(count)d update from your matches",
                           "Boardpost: %(count)d updates from your matches", count) % {
                               "count": count}
    else:
        subject = ngettext("Boardpost: %(count)d match with less than a day left to move",
                           "Boardpost: %(count)d matches with less than a day left to move",
                           len(ending)) % {"count": len(ending)}
    return _mail(to=to, subject=subject, template="digest",
                 context={"items": items, "ending": list(ending), "inbox": site_url("/inbox"),
                          "settings_link": site_url("/notifications")},
                 unsubscribe=unsubscribe_url(user_id, ALL))


def verification_mail(*, user_id: int, to: str) -> EmailMultiAlternatives:
    link = site_url("/api/me/email/verify", {"token": verify_token(user_id, to)})
    return _mail(to=to, subject=gettext("Boardpost: confirm your email address"),
                 template="verify",
                 context={"link": link, "days": VERIFY_MAX_AGE_SECONDS // 86400},
                 unsubscribe=None)


def password_reset_mail(*, to: str, username: str, query: dict[str, str],
                        hours: int) -> EmailMultiAlternatives:
    """The link to the web client's page that chooses a new password (``query``: the account's
    id and token, ``games.lifecycle.recovery``), working for ``hours``."""
    return _mail(to=to, subject=gettext("Boardpost: choose a new password"),
                 template="password_reset",
                 context={"link": site_url("/password/reset", query), "username": username,
                          "hours": hours},
                 unsubscribe=None)


def send(mail: EmailMultiAlternatives) -> None:
    """Send one mail; the backend's errors (SMTP refused, unreachable) propagate."""
    mail.connection = get_connection(fail_silently=False)
    mail.send()
