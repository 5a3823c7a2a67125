"""A small JSON-over-HTTP client for tests that talk to a real server (pytest-django's
live_server), so requests go through sockets like a phone's would."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from typing import Any


class HttpClient:
    def __init__(self, base_url: str, token: str | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token

    def request(self, method: str, path: str, body: Any = None,
                headers: dict[str, str] | None = None) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base_url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Token {self.token}")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                raw = response.read()
                return response.status, json.loads(raw) if raw else None
        except urllib.error.HTTPError as error:
            raw = error.read()
            return error.code, json.loads(raw) if raw else None

    def get(self, path: str, **kwargs: Any) -> tuple[int, Any]:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, body: Any = None, **kwargs: Any) -> tuple[int, Any]:
        return self.request("POST", path, body, **kwargs)


def register(base_url: str, username: str) -> HttpClient:
    status, body = HttpClient(base_url).post(
        "/api/auth/register", {"username": username, "password": "integration-pass-77"})
    assert status == 201, body
    return HttpClient(base_url, body["token"])


def all_at_once(calls: list[tuple[HttpClient, str, str, Any]]) -> list[tuple[str, tuple[int, Any]]]:
    """Send every ``(client, method, path, body)`` of ``calls`` at the same moment, one thread
    each (released together by a barrier); each call's method and answer, in order."""
    start = threading.Barrier(len(calls))

    def fire(call: tuple[HttpClient, str, str, Any]) -> tuple[str, tuple[int, Any]]:
        client, method, path, body = call
        start.wait(timeout=60)
        return method, client.request(method, path, body)

    with ThreadPoolExecutor(max_workers=len(calls)) as executor:
        return list(executor.map(fire, calls))
