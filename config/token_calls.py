"""API calls authenticated by a token header skip the middleware of a session's user and
messages.

A request to ``/api/`` whose ``Authorization`` header names the ``Token`` scheme (what every
client of the API, the web client included, sends) is a *token call*: DRF's token
authentication, first in ``DEFAULT_AUTHENTICATION_CLASSES`` and the only one of the long-poll
views, then either knows the caller or refuses the request, so nothing on its way reads the
session's user or its messages. For such a request ``AuthenticationMiddleware`` and
``MessageMiddleware`` (Django's, with ``SkippedByTokenCalls``) do nothing: no lazy session user
(DRF sets ``request.user`` once it has authenticated the token) and no message storage, which
builds a cookie and a session store on every request. Every other request, the admin's and the
web pages' and a session-authenticated API call's, goes through them as before.

Two stay as they are, under Django's own names, which ``manage.py check --deploy`` looks for:
the session middleware (a session is read only when asked for, so a token call costs it a
cookie look-up and an empty store), and CSRF (DRF's views are exempt from the middleware's
check and DRF checks CSRF itself for session-authenticated calls only, so a token call costs
it a cookie look-up).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.middleware import AuthenticationMiddleware as DjangoAuthentication
from django.contrib.messages.middleware import MessageMiddleware as DjangoMessages
from django.http import HttpRequest
from rest_framework import HTTP_HEADER_ENCODING

API_PREFIX = "/api/"
TOKEN_SCHEME = b"token"
# Where the answer is kept on the request.
_ATTR = "boardpost_token_call"


def is_token_call(request: HttpRequest) -> bool:
    """Whether ``request`` is an API call with ``Authorization: Token ...``, read as DRF's
    ``TokenAuthentication`` reads it (the header's bytes, its first word in any case), from
    ``META`` (DRF's ``request.headers`` costs a dict of every header). Worked out once per
    request."""
    known = request.__dict__.get(_ATTR)
    if known is None:
        header = request.META.get("HTTP_AUTHORIZATION", b"")
        if isinstance(header, str):
            header = header.encode(HTTP_HEADER_ENCODING, "replace")
        words = header.split()
        known = bool(request.path_info.startswith(API_PREFIX) and words
                     and words[0].lower() == TOKEN_SCHEME)
        setattr(request, _ATTR, known)
    return known


class SkippedByTokenCalls:
    """A hook-based middleware whose hooks do nothing for a token call (``is_token_call``)."""

    def process_request(self, request: HttpRequest) -> Any:
        if is_token_call(request):
            return None
        return super().process_request(request)  # type: ignore[misc]

    def process_response(self, request: HttpRequest, response: Any) -> Any:
        if is_token_call(request) or not hasattr(super(), "process_response"):
            return response
        return super().process_response(request, response)  # type: ignore[misc]


class AuthenticationMiddleware(SkippedByTokenCalls, DjangoAuthentication):
    """Django's session user (``request.user``), for every request but a token call."""


class MessageMiddleware(SkippedByTokenCalls, DjangoMessages):
    """Django's messages, for every request but a token call."""
