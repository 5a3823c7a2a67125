"""The request's language, remembered per language cookie and Accept-Language
(config.i18n.language_for): the same language Django's own middleware picks, the same headers,
and a change of the languages is seen at once."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.http import HttpResponse
from django.middleware.locale import LocaleMiddleware as DjangoLocaleMiddleware
from django.test import RequestFactory
from django.test.utils import override_settings
from django.utils import translation

from config.i18n import LocaleMiddleware, language_for

CASES = [
    (None, ""), (None, "fr"), (None, "fr-CA,fr;q=0.9"), (None, "pt-BR"), (None, "pt"),
    (None, "ko-KR,ko;q=0.8,en;q=0.5"), (None, "de,es;q=0.5"), (None, "*"), (None, "xx-!!"),
    (None, "en;q=0, fr;q=0.1"), ("ko", "fr"), ("de", "fr"), ("pt-br", ""), ("", "ko"),
    (None, "de;q=0.9, " * 40 + "ko"), ("x" * 300, "fr"),
]


def _answer(middleware_class, cookie, accept, path="/api/me"):
    request = RequestFactory().get(path, HTTP_ACCEPT_LANGUAGE=accept)
    if cookie is not None:
        request.COOKIES[settings.LANGUAGE_COOKIE_NAME] = cookie
    middleware = middleware_class(lambda request: HttpResponse("ok"))
    with translation.override(None):
        middleware.process_request(request)
        language = request.LANGUAGE_CODE
        response = middleware.process_response(request, HttpResponse("ok"))
    return language, response["Content-Language"], response["Vary"]


@pytest.mark.parametrize(("cookie", "accept"), CASES)
def test_the_language_is_the_one_django_picks(cookie, accept):
    assert _answer(LocaleMiddleware, cookie, accept) == _answer(DjangoLocaleMiddleware,
                                                                cookie, accept)


@pytest.mark.parametrize("path", ["/fr/api/me", "/ko/", "/api/me", "/"])
def test_a_path_that_starts_like_a_language_changes_nothing(path):
    assert _answer(LocaleMiddleware, None, "ko", path)[:2] == ("ko", "ko")


def test_each_pair_is_worked_out_once():
    language_for.cache_clear()
    for _ in range(3):
        _answer(LocaleMiddleware, None, "fr-CA,fr;q=0.9")
    info = language_for.cache_info()
    assert (info.misses, info.hits) == (1, 2)


def test_a_long_header_is_worked_out_each_time():
    language_for.cache_clear()
    _answer(LocaleMiddleware, None, "de;q=0.9, " * 40 + "ko")
    assert language_for.cache_info().currsize == 0


def test_a_change_of_the_languages_is_seen_at_once():
    assert _answer(LocaleMiddleware, None, "fr")[0] == "fr"
    with override_settings(LANGUAGES=[("en", "English"), ("ko", "한국어")]):
        assert _answer(LocaleMiddleware, None, "fr")[0] == "en"
    assert _answer(LocaleMiddleware, None, "fr")[0] == "fr"
