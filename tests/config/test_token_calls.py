"""API calls with ``Authorization: Token`` skip the session user and messages middleware
(config.token_calls); every other request, a session-authenticated API call included, goes
through them, CSRF and all."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.sessions.middleware import SessionMiddleware
from django.http import HttpResponse
from django.test import Client, RequestFactory

from config.token_calls import AuthenticationMiddleware as TokenCallAuthentication
from config.token_calls import MessageMiddleware as TokenCallMessages
from config.token_calls import is_token_call
from tests.factories import token_for

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


@pytest.mark.parametrize(("path", "authorization", "expected"), [
    ("/api/me", "Token abc", True),
    ("/api/me", "token abc", True),
    ("/api/me", "TOKEN", True),  # DRF's token authentication refuses it: no session either
    ("/api/me", "Token a b", True),
    ("/api/me", "Bearer abc", False),
    ("/api/me", "Tokenabc", False),
    ("/api/me", "", False),
    ("/api/me", None, False),
    ("/admin/", "Token abc", False),
    ("/", "Token abc", False),
    ("/apiary", "Token abc", False),
])
def test_a_token_call_is_an_api_url_with_the_token_scheme(path, authorization, expected):
    headers = {} if authorization is None else {"HTTP_AUTHORIZATION": authorization}
    assert is_token_call(RequestFactory().get(path, **headers)) is expected


def test_the_answer_is_worked_out_once_per_request():
    request = RequestFactory().get("/api/me", HTTP_AUTHORIZATION="Token abc")
    assert is_token_call(request)
    request.META["HTTP_AUTHORIZATION"] = "Bearer abc"
    assert is_token_call(request)


def _through(request, *middleware_classes):
    """``request`` through the middleware (outermost first) around an empty view."""
    seen = {}

    def view(request):
        seen.update(user=request.__dict__.get("user"), messages=hasattr(request, "_messages"),
                    session=hasattr(request, "session"))
        return HttpResponse("ok")

    handler = view
    for cls in reversed(middleware_classes):
        handler = cls(handler)
    response = handler(request)
    return seen, response


@pytest.mark.django_db
def test_a_token_call_gets_no_session_user_and_no_messages():
    request = RequestFactory().post("/api/matches", HTTP_AUTHORIZATION="Token abc")
    seen, response = _through(request, SessionMiddleware, TokenCallAuthentication,
                              TokenCallMessages)
    assert seen == {"user": None, "messages": False, "session": True}
    assert response.status_code == 200 and not response.cookies


@pytest.mark.django_db
@pytest.mark.parametrize(("path", "headers"), [
    ("/api/matches", {}),
    ("/api/matches", {"HTTP_AUTHORIZATION": "Bearer abc"}),
    ("/admin/", {"HTTP_AUTHORIZATION": "Token abc"}),
])
def test_every_other_request_gets_them_as_from_django(path, headers):
    ours, _ = _through(RequestFactory().post(path, **headers), SessionMiddleware,
                       TokenCallAuthentication, TokenCallMessages)
    django, _ = _through(RequestFactory().post(path, **headers), SessionMiddleware,
                         AuthenticationMiddleware, MessageMiddleware)
    assert ours["messages"] and ours["session"] and ours["user"] is not None
    assert (ours["user"].is_authenticated, ours["messages"]) == (
        django["user"].is_authenticated, django["messages"])


def test_the_settings_name_them_in_django_s_places():
    names = settings.MIDDLEWARE
    assert names.index("django.contrib.sessions.middleware.SessionMiddleware") < names.index(
        "config.token_calls.AuthenticationMiddleware") < names.index(
        "config.token_calls.MessageMiddleware")
    # check --deploy looks for these two by their own names.
    assert "django.middleware.csrf.CsrfViewMiddleware" in names
    assert "django.contrib.sessions.middleware.SessionMiddleware" in names


@pytest.mark.django_db
def test_a_token_call_is_answered_with_no_session_cookie_or_vary_cookie(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice, backend=MODEL_BACKEND)
    response = client.patch("/api/me", {"language": "fr"}, content_type="application/json",
                            HTTP_AUTHORIZATION=f"Token {token_for(alice)}")
    assert response.status_code == 200, response.content
    assert "Cookie" not in response.get("Vary", "")
    assert not response.cookies


@pytest.mark.django_db
def test_a_session_authenticated_api_call_still_needs_its_csrf_token(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice, backend=MODEL_BACKEND)
    assert client.get("/api/me").json()["username"] == "alice"
    refused = client.patch("/api/me", {"language": "fr"}, content_type="application/json")
    assert refused.status_code == 403
    assert refused.json()["code"] == "permission_denied"
    assert "CSRF" in refused.json()["message"]
    client.get("/admin/login/")  # sets the CSRF cookie
    token = client.cookies[settings.CSRF_COOKIE_NAME].value
    accepted = client.patch("/api/me", {"language": "fr"}, content_type="application/json",
                            HTTP_X_CSRFTOKEN=token)
    assert accepted.status_code == 200, accepted.content


@pytest.mark.django_db
def test_the_admin_still_signs_in_with_a_session_and_shows_messages(make_user):
    make_user(username="root", password="correct horse battery", is_staff=True,
              is_superuser=True)
    client = Client()
    signed_in = client.post("/admin/login/", {"username": "root",
                                              "password": "correct horse battery"})
    assert signed_in.status_code == 302
    assert client.get("/admin/").status_code == 200
