"""Watch records (games.live.presence) are written by the process's writer thread in batches:
requests that start or stop watching never call Redis themselves, and every record arrives."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from django.conf import settings

from games.live import presence

pytestmark = pytest.mark.needs_redis("presence records live in Redis")


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


@pytest.fixture
def written(monkeypatch):
    """Every batch the writer sends to Redis: (records, looks)."""
    batches: list[tuple[dict, dict]] = []
    write = presence._write

    def spy(redis, records, looks):
        batches.append((dict(records), dict(looks)))
        return write(redis, records, looks)

    monkeypatch.setattr(presence, "_write", spy)
    return batches


def test_a_next_request_continues_the_watch_and_writes_nothing(written):
    user, match = 990_300, "match-2"
    key = f"{presence.PREFIX}{user}"
    redis = presence._client(settings.EVENTS_REDIS_URL)
    redis.delete(key, f"{presence.SEEN_PREFIX}{user}")

    async def long_poll(seconds: float) -> None:
        async with presence.watching(user, match):
            await asyncio.sleep(seconds)

    asyncio.run(long_poll(0.2))
    assert until(lambda: presence.is_watching(user, match))
    started = len(written)
    # Ten more long-polls, each right after the one before: the same watch goes on.
    for _ in range(10):
        asyncio.run(long_poll(0.05))
    ended = time.time()
    time.sleep(4 * presence.FLUSH_SECONDS)
    ours = [records for records, _ in written[started:] if any(k[0] == user for k in records)]
    # Nothing is written for them (a renewal of every watch may fall in this second: it
    # writes the watch's full time to live, never an end).
    assert len(ours) <= 1
    assert all(until >= ended + presence.TTL_SECONDS - 5 for records in ours
               for k, until in records.items() if k[0] == user)
    assert redis.zscore(key, redis.zrange(key, 0, -1)[0]) >= ended + presence.TTL_SECONDS - 5
    # No request follows: the watch ends, kept for the grace from its last request's end,
    # which is when the player last looked at the match.
    assert until(lambda: (scores := redis.zrange(key, 0, -1, withscores=True))
                 and max(score for _, score in scores)
                 <= ended + presence.GRACE_SECONDS + 0.5)
    assert presence.is_watching(user, match)
    looked = presence.seen_at(user, match)
    assert looked is not None and ended - 0.5 <= looked <= ended + 0.5


def test_two_requests_of_one_watch_end_it_only_when_both_have(written):
    user = 990_301
    key = f"{presence.PREFIX}{user}"
    redis = presence._client(settings.EVENTS_REDIS_URL)
    redis.delete(key)

    async def main() -> None:
        stream = presence.watching(user, None)
        await stream.__aenter__()
        async with presence.watching(user, None):  # a second tab, on the same feed
            await asyncio.sleep(0.1)
        await asyncio.sleep(presence.LEAVE_DELAY_SECONDS + 0.5)
        # The first still watches: the record keeps its full time to live.
        assert redis.zscore(key, redis.zrange(key, 0, -1)[0]) > (
            time.time() + presence.TTL_SECONDS - 10)
        await stream.__aexit__(None, None, None)

    asyncio.run(main())
    assert until(lambda: redis.zscore(key, redis.zrange(key, 0, -1)[0])
                 <= time.time() + presence.GRACE_SECONDS + 0.5)
