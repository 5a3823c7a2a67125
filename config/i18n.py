"""Which language a request is answered in, and the headers that say so.

The order, first match wins:

1. a signed-in caller's own preference (``accounts.User.language``, set with ``PATCH /api/me``),
   applied as soon as the caller is known: for API calls that is inside the view, once DRF has
   authenticated the token (``activate_user_language``, called by the authentication classes);
2. the ``Accept-Language`` header (Django's ``LocaleMiddleware``);
3. ``LANGUAGE_CODE`` (English).

Every answer says which language it is in with ``Content-Language`` and varies on
``Accept-Language``. Only human-readable texts change with the language: codes, slugs, enums and
``extra.rule`` never do.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.middleware.locale import LocaleMiddleware as DjangoLocaleMiddleware
from django.utils import translation
from drf_spectacular.authentication import SessionScheme
from rest_framework.authentication import SessionAuthentication


def supported(code: str | None) -> str | None:
    """``code`` if it is one of ``settings.LANGUAGES`` (case-insensitive), else None."""
    if not code:
        return None
    code = code.lower()
    for known, _name in settings.LANGUAGES:
        if known == code:
            return known
    return None


def activate_user_language(request: Any, user: Any) -> None:
    """Answer ``request`` in ``user``'s preferred language, if they chose one. ``request`` is a
    Django or DRF request (DRF's keeps the Django one as ``_request``)."""
    language = supported(getattr(user, "language", None))
    if language is None:
        return
    translation.activate(language)
    for target in (request, getattr(request, "_request", None)):
        if target is not None:
            try:
                target.LANGUAGE_CODE = language
            except AttributeError:  # pragma: no cover - a request that refuses attributes
                pass


class LocaleMiddleware(DjangoLocaleMiddleware):
    """Django's ``LocaleMiddleware`` (language from ``Accept-Language``), whose
    ``Content-Language`` is the language the answer was finally made in: a signed-in caller's
    preference applied inside the view counts. Its headers depend on the answer's language
    alone (``by_language``): the live-update handler shares them between the waiters woken by
    one shared answer who read the same language, and never between languages."""

    by_language = True
    response_headers = ("Content-Language",)

    def process_response(self, request: HttpRequest,
                         response: HttpResponseBase) -> HttpResponseBase:
        response = super().process_response(request, response)
        response.headers["Content-Language"] = translation.get_language() or \
            settings.LANGUAGE_CODE
        return response


class UserLanguageSessionAuthentication(SessionAuthentication):
    """DRF's session authentication (the admin's and the browsable pages' signed-in users),
    answering in the user's preferred language."""

    def authenticate(self, request: Any) -> tuple[Any, Any] | None:
        result = super().authenticate(request)
        if result is not None:
            activate_user_language(request, result[0])
        return result


class UserLanguageSessionScheme(SessionScheme):
    """The schema describes it as the session (cookie) authentication it is."""

    target_class = "config.i18n.UserLanguageSessionAuthentication"
