"""A second player's calls to the API in the browser tests: the opponent the page under test
plays against moves through the same HTTP API as any client."""

from __future__ import annotations

import json
import urllib.request
from typing import Any


def call_api(base: str, token: str, method: str, path: str,
             body: dict[str, Any] | None = None) -> Any:
    """The decoded JSON answer of ``method path`` on the test server, as the token's player."""
    request = urllib.request.Request(
        base + path, method=method, data=json.dumps(body).encode() if body else None,
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=20) as answer:
        return json.loads(answer.read())
