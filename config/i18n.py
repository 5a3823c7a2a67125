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

from functools import lru_cache
from typing import Any

from django.conf import settings
from django.conf.urls.i18n import is_language_prefix_patterns_used
from django.core.signals import setting_changed
from django.http import HttpRequest, HttpResponseBase
from django.middleware.locale import LocaleMiddleware as DjangoLocaleMiddleware
from django.utils import translation
from django.utils.cache import patch_vary_headers
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


# Distinct (language cookie, Accept-Language) pairs whose language a process remembers, and the
# longest pair remembered (a browser's header is a few dozen characters; longer ones, rare and
# mostly made up, are worked out each time).
LANGUAGE_MEMORY = 1024
LONGEST_REMEMBERED = 256


@lru_cache(maxsize=LANGUAGE_MEMORY)
def language_for(cookie: str | None, accept: str) -> str:
    """The language Django's ``get_language_from_request`` picks for a request that sends
    this language cookie (None: none) and this ``Accept-Language``: those are all it reads of
    a request when the URLs carry no language prefix. Remembered: parsing the header and
    trying each code it names cost the middleware most of its 36 µs of CPU a request
    (``manage.py stack_costs``; 13 µs with this)."""
    probe = HttpRequest()
    probe.COOKIES = {} if cookie is None else {settings.LANGUAGE_COOKIE_NAME: cookie}
    probe.META = {"HTTP_ACCEPT_LANGUAGE": accept}
    return translation.get_language_from_request(probe, check_path=False)


def _forget(setting: str = "", **_: Any) -> None:
    if setting in ("LANGUAGES", "LANGUAGE_CODE", "LANGUAGE_COOKIE_NAME", "LOCALE_PATHS"):
        language_for.cache_clear()


setting_changed.connect(_forget, dispatch_uid="boardpost_i18n_forget")


class LocaleMiddleware(DjangoLocaleMiddleware):
    """Django's ``LocaleMiddleware`` (language from ``Accept-Language``), whose
    ``Content-Language`` is the language the answer was finally made in: a signed-in caller's
    preference applied inside the view counts. Its headers depend on the answer's language
    alone (``by_language``): the live-update handler shares them between the waiters woken by
    one shared answer who read the same language, and never between languages.

    The project's URLs carry no language prefix (no ``i18n_patterns``), so a request's language
    depends only on its language cookie and ``Accept-Language`` (``language_for``,
    remembered), and no answer is redirected to a prefixed URL; a URLconf that uses
    ``i18n_patterns`` gets Django's own handling."""

    by_language = True
    response_headers = ("Content-Language",)

    def process_request(self, request: HttpRequest) -> None:
        if is_language_prefix_patterns_used(getattr(request, "urlconf", settings.ROOT_URLCONF))[0]:
            return super().process_request(request)
        cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        accept = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
        find = language_for if len(accept) + len(cookie or "") <= LONGEST_REMEMBERED else \
            language_for.__wrapped__
        translation.activate(find(cookie, accept))
        request.LANGUAGE_CODE = translation.get_language()
        return None

    def process_response(self, request: HttpRequest,
                         response: HttpResponseBase) -> HttpResponseBase:
        if is_language_prefix_patterns_used(getattr(request, "urlconf", settings.ROOT_URLCONF))[0]:
            response = super().process_response(request, response)
        else:
            patch_vary_headers(response, ("Accept-Language",))
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
