"""The callers of long-poll requests that arrive together (the re-polls after a wake-up) are
looked up in one trip to a database thread (games.live.longpoll._CallerBatch)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from games.live import longpoll


def test_requests_arriving_together_make_one_trip(monkeypatch):
    trips: list[list[str]] = []

    def callers(asked: list[tuple[str, Any]]) -> list[Any]:
        trips.append([key for key, _ in asked])
        return [ValueError("broken") if key == "bad" else
                "Invalid token." if key == "refused" else (f"user-{key}", None)
                for key, _ in asked]

    monkeypatch.setattr(longpoll, "_callers", callers)
    monkeypatch.setattr(longpoll, "_in_pool", lambda fn, *args: fn(*args))

    async def arrive() -> list[Any]:
        batch = longpoll._callers_batch()
        keys = ["a", "b", "refused", "bad", "c"]
        futures = [batch.lookup(key, object()) for key in keys]  # type: ignore[arg-type]
        gone = batch.lookup("gone", object())  # type: ignore[arg-type]
        gone.cancel()  # its client went away before the trip
        results = await asyncio.gather(*futures, return_exceptions=True)
        later = await longpoll._callers_batch().lookup("d", object())  # type: ignore[arg-type]
        return [*results, later]

    results = asyncio.run(arrive())
    assert trips == [["a", "b", "refused", "bad", "c"], ["d"]]
    assert results[:3] == [("user-a", None), ("user-b", None), "Invalid token."]
    assert isinstance(results[3], ValueError)  # to that request alone
    assert results[4:] == [("user-c", None), ("user-d", None)]


def test_a_failed_trip_fails_each_request_of_the_batch(monkeypatch):
    def callers(asked: list[tuple[str, Any]]) -> list[Any]:
        raise RuntimeError("no database thread")

    monkeypatch.setattr(longpoll, "_callers", callers)
    monkeypatch.setattr(longpoll, "_in_pool", lambda fn, *args: fn(*args))

    async def arrive() -> list[Any]:
        batch = longpoll._callers_batch()
        return await asyncio.gather(*[batch.lookup(key, object())  # type: ignore[arg-type]
                                      for key in ("a", "b")], return_exceptions=True)

    with pytest.raises(RuntimeError):
        raise asyncio.run(arrive())[1]
