"""Questions asked in the same turn of the event loop (the re-polls' token lookups after a
wake-up, the matches that moved together) are answered in one trip to a database thread
(games.live.batching)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from games.live import batching


def _callers(trips: list[list[str]]) -> Any:
    def callers(asked: list[str]) -> list[Any]:
        trips.append(list(asked))
        return [ValueError("broken") if key == "bad" else
                "Invalid token." if key == "refused" else (f"user-{key}", None)
                for key in asked]
    return callers


async def _in_thread(fn: Any, *args: Any) -> Any:
    return await asyncio.to_thread(fn, *args)


def test_questions_asked_together_make_one_trip():
    trips: list[list[str]] = []
    callers = _callers(trips)

    async def arrive() -> list[Any]:
        batches = batching.batches()
        keys = ["a", "b", "refused", "bad", "c"]
        futures = [batches.ask(_in_thread, callers, key) for key in keys]
        gone = batches.ask(_in_thread, callers, "gone")
        gone.cancel()  # its client went away before the trip
        results = await asyncio.gather(*futures, return_exceptions=True)
        later = await batching.batches().ask(_in_thread, callers, "d")
        return [*results, later]

    results = asyncio.run(arrive())
    assert trips == [["a", "b", "refused", "bad", "c"], ["d"]]
    assert results[:3] == [("user-a", None), ("user-b", None), "Invalid token."]
    assert isinstance(results[3], ValueError)  # to that asker alone
    assert results[4:] == [("user-c", None), ("user-d", None)]


def test_each_kind_of_question_has_its_own_trip():
    trips: list[list[str]] = []
    first, second = _callers(trips), _callers(trips)

    async def arrive() -> list[Any]:
        batches = batching.batches()
        return await asyncio.gather(batches.ask(_in_thread, first, "a"),
                                    batches.ask(_in_thread, second, "b"),
                                    batches.ask(_in_thread, first, "c"))

    assert asyncio.run(arrive()) == [("user-a", None), ("user-b", None), ("user-c", None)]
    assert sorted(trips) == [["a", "c"], ["b"]]


def test_a_caller_that_goes_away_leaves_the_trip_to_the_others():
    trips: list[list[str]] = []
    callers = _callers(trips)

    async def arrive() -> Any:
        batches = batching.batches()
        gone = batches.ask(_in_thread, callers, "gone")
        kept = batches.ask(_in_thread, callers, "kept")
        await asyncio.sleep(0)  # the trip has started
        gone.cancel()
        return await kept

    assert asyncio.run(arrive()) == ("user-kept", None)
    assert trips == [["gone", "kept"]]


def test_a_failed_trip_fails_each_question_of_the_batch():
    def callers(asked: list[str]) -> list[Any]:
        raise RuntimeError("no database thread")

    async def arrive() -> list[Any]:
        batches = batching.batches()
        return await asyncio.gather(*[batches.ask(_in_thread, callers, key)
                                      for key in ("a", "b")], return_exceptions=True)

    results = asyncio.run(arrive())
    assert [type(result) for result in results] == [RuntimeError, RuntimeError]
    with pytest.raises(RuntimeError):
        raise results[1]

