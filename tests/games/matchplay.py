"""Helpers for driving matches through the HTTP API and checking its answers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.games.helpers import create_match, first_nibble_take

ENVELOPE_KEYS = {"code", "message", "extra"}


def assert_error(response, status: int, code: str, **extra: Any) -> dict[str, Any]:
    """The response is the error envelope with this status and code, and ``extra`` holds at
    least the given items. Returns the body."""
    assert response.status_code == status, (response.status_code, _body(response))
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert set(body) == ENVELOPE_KEYS, body
    assert body["code"] == code, body
    assert isinstance(body["message"], str) and body["message"], body
    assert isinstance(body["extra"], dict), body
    for key, value in extra.items():
        assert body["extra"].get(key) == value, (key, body)
    return body


def _body(response) -> Any:
    try:
        return response.json()
    except ValueError:
        return response.content[:500]


def match_url(match_id: str, suffix: str = "") -> str:
    return f"/api/matches/{match_id}{'/' + suffix if suffix else ''}"


def submit(client, match_id: str, move: Any, expected_version: int | None = None, **headers):
    body: dict[str, Any] = {"move": move}
    if expected_version is not None:
        body["expected_version"] = expected_version
    return client.post(match_url(match_id, "moves"), body, format="json", headers=headers)


@dataclass
class NibbleMatch:
    """An active two-player Nibble match: ``a`` (seat 0) moves first, ``b`` holds seat 1."""

    id: str
    a: Any
    b: Any

    def detail(self, client=None) -> dict[str, Any]:
        response = (client or self.a).get(match_url(self.id))
        assert response.status_code == 200, response.json()
        return response.json()

    def mover(self) -> Any:
        """The client of the seat that must act now."""
        detail = self.detail()
        return self.a if 0 in detail["to_act"] else self.b

    def play_one(self) -> dict[str, Any]:
        """The player to act takes its first takeable disc; returns the move's answer."""
        client = self.mover()
        mine = self.detail(client)
        response = submit(client, self.id, first_nibble_take(mine["legal_moves"]),
                          mine["version"])
        assert response.status_code == 201, response.json()
        return response.json()


def start_nibble_match(a, b, *, config: dict[str, Any] | None = None,
                       **body: Any) -> NibbleMatch:
    """Client ``a`` creates a Nibble match in which seat 0 (its own) moves first; ``b`` joins.
    ``body`` adds fields to the create request (``time_control``, ``rated``)."""
    created = create_match(a, config={"first_seat": 0, **(config or {})}, **body)
    joined = b.post(match_url(created["id"], "join"))
    assert joined.status_code == 200, joined.json()
    assert joined.json()["status"] == "active"
    return NibbleMatch(id=created["id"], a=a, b=b)
