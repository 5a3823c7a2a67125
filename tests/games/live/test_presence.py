"""Watch records (games.live.presence) are written by the process's writer thread in batches:
requests that start or stop watching never call Redis themselves, and every record arrives."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from django.conf import settings

from games.live import presence

pytestmark = pytest.mark.skipif(not getattr(settings, "EVENTS_REDIS_URL", ""),
                                reason="presence records live in Redis")


@pytest.fixture
def redis_calls(monkeypatch):
    """The threads Redis is called from (through presence._call)."""
    threads: list[str] = []
    call = presence._call

    def spy(fn, default):
        threads.append(threading.current_thread().name)
        return call(fn, default)

    monkeypatch.setattr(presence, "_call", spy)
    redis = presence._client(settings.EVENTS_REDIS_URL)
    for key in redis.scan_iter(f"{presence.PREFIX}9900*"):
        redis.delete(key)
    return threads


def until(condition, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


def test_many_watchers_start_and_stop_without_calling_redis_themselves(redis_calls):
    users = range(990_000, 990_200)
    entered = asyncio.Event()

    async def watch(user_id: int, release: asyncio.Event) -> None:
        async with presence.watching(user_id, "match-1"):
            entered.set()
            await release.wait()

    async def main() -> None:
        release = asyncio.Event()
        tasks = [asyncio.ensure_future(watch(user_id, release)) for user_id in users]
        await entered.wait()
        await asyncio.sleep(0)
        assert await asyncio.to_thread(until, lambda: all(
            presence.is_watching(user_id, "match-1") for user_id in (990_000, 990_199)))
        release.set()
        await asyncio.gather(*tasks)

    writes_before = len([name for name in redis_calls if name == "presence-writer"])
    asyncio.run(main())
    own = [name for name in redis_calls if name not in ("presence-writer", "MainThread")
           and not name.startswith("asyncio")]
    assert own == []
    # Two hundred starts and stops went out in a few pipelines, not one call each.
    assert until(lambda: len([n for n in redis_calls if n == "presence-writer"])
                 - writes_before >= 2)
    assert len([n for n in redis_calls if n == "presence-writer"]) - writes_before < 40
    # Stopped: each record is kept for the grace period only.
    redis = presence._client(settings.EVENTS_REDIS_URL)
    assert until(lambda: all(
        (score := redis.zscore(f"{presence.PREFIX}{user_id}", member.decode())) is not None
        and score <= time.time() + presence.GRACE_SECONDS + 1
        for user_id in (990_000, 990_199)
        for member in redis.zrange(f"{presence.PREFIX}{user_id}", 0, -1)))
