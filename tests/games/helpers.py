"""Helpers for playing matches through the API in tests, and for the players' settings."""

from __future__ import annotations

from typing import Any

from games.services import auto_vacation_set


def auto_vacation_off(*users: Any) -> None:
    """Turn auto-vacation off for ``users``: a seat of theirs that runs out of time times out
    (with it on, as by default, a vacation spares it: test_vacation_clocks.py)."""
    for user in users:
        auto_vacation_set(user=user, enabled=False)


def create_match(client, game: str = "nibble", **body: Any) -> dict[str, Any]:
    response = client.post("/api/matches", {"game": game, **body}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def first_nibble_take(legal_moves: dict[str, Any]) -> dict[str, Any]:
    """The first takeable disc of the lowest colour, as a one-disc take."""
    takeable = legal_moves["takeable"]
    colour = sorted(takeable, key=int)[0]
    return {"take": [takeable[colour][0]]}

