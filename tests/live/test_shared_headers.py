"""The headers of an answer shared by many waiters (games.live.asgi): prepared once per URL
scheme and language, so a wake-up runs no middleware per waiter but the request id and the
request metrics; each waiter still gets its own request id and its own language."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.handlers.asgi import ASGIRequest
from django.utils import translation

from games.live import fanout, longpoll
from games.live.asgi import LongPollASGIHandler


def _request(language: str, request_id: str) -> ASGIRequest:
    scope: dict[str, Any] = {
        "type": "http", "method": "GET", "path": "/api/me/events", "query_string": b"",
        "root_path": "", "scheme": "http", "server": ("testserver", 80),
        "client": ("127.0.0.1", 5000),
        "headers": [(b"accept-language", language.encode()),
                    (b"x-request-id", request_id.encode())]}
    return ASGIRequest(scope, io.BytesIO(b""))


def _answered(handler: LongPollASGIHandler, shared: fanout.Shared, language: str,
              request_id: str) -> dict[str, str]:
    request = _request(language, request_id)
    assert handler._call_hooks(handler.request_hooks, request) is None
    status, headers = handler._headers(request, longpoll._shared_ok(shared))
    assert status == 200
    named = [(name.decode("ascii").lower(), value.decode("latin1")) for name, value in headers]
    assert len({name for name, _ in named}) == len(named), "a header sent twice"
    return dict(named)


@pytest.mark.parametrize("languages", [("fr", "en", "fr", "ko", "en")])
def test_each_waiter_gets_its_language_and_request_id_from_headers_made_once_per_language(
        languages):
    handler = LongPollASGIHandler()
    shared = fanout.Shared(b'{"events": []}', True, 7)
    try:
        answers = [_answered(handler, shared, language, f"req{n:02d}abcdef")
                   for n, language in enumerate(languages)]
    finally:
        translation.deactivate()
    assert [a["content-language"] for a in answers] == list(languages)
    assert [a["x-request-id"] for a in answers] == [f"req{n:02d}abcdef"
                                                    for n in range(len(languages))]
    assert all("Accept-Language" in a["vary"] for a in answers)
    assert all(a["content-type"] == "application/json" for a in answers)
    # Prepared once per language; the request id is never part of what is kept.
    assert sorted(language for _, language in shared.headers) == ["en", "fr", "ko"]
    for _, kept in shared.headers.values():
        assert all(name.lower() != b"x-request-id" for name, _ in kept)
