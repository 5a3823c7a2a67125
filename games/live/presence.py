"""Who is watching live, and when a player last looked at a match (Redis, when configured).

A waiting long-poll or an open stream on a match (or on the player's own feed, which the web
client keeps open while it is on screen) counts as watching: the notifications
(``games.notify``) send nothing about a match its player is watching. While such a request
waits, a record ``(scope, token) -> expiry`` sits in a sorted set per user; it is refreshed
every REFRESH_SECONDS and, when the request ends, kept GRACE_SECONDS more (a client between two
long-polls is still watching). A record whose process died expires after TTL_SECONDS.

Looking at a match (reading it, or waiting on it) is recorded too: the "your turn" limit of the
notifications is lifted once the player has looked at the match since the last one.

Redis is EVENTS_REDIS_URL, as for the wake-ups (``games.live.hub``). Without it, or while it is
away (a circuit breaker of its own), nobody counts as watching and looks are not recorded:
notifications then go out as if the player were away. Nothing here ever fails a request.
Requests do the Redis calls in a thread of the event loop's executor, never on the loop.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from functools import lru_cache
from typing import Any, TypeVar

from django.conf import settings

from config.outages import Breaker, reconnect_once

logger = logging.getLogger(__name__)

T = TypeVar("T")

PREFIX = "boardpost:presence:"
SEEN_PREFIX = "boardpost:seen:"
FEED = "*"  # the scope of the player's own feed: every match
TTL_SECONDS = 90.0
REFRESH_SECONDS = 30.0
GRACE_SECONDS = 10.0
SEEN_KEEP_SECONDS = 30 * 86400


@lru_cache(maxsize=4)
def _breaker(url: str) -> Breaker:
    return Breaker(f"presence Redis at {url.rsplit('@', 1)[-1]}", logger=logger,
                   fallback="nobody counts as watching live")


@lru_cache(maxsize=4)
def _client(url: str) -> Any:
    import redis

    return redis.Redis.from_url(
        url, socket_timeout=float(getattr(settings, "REDIS_SOCKET_TIMEOUT", 0.25)),
        socket_connect_timeout=float(getattr(settings, "REDIS_CONNECT_TIMEOUT", 0.25)),
        retry=reconnect_once())


def _call(fn: Any, default: T) -> T:
    """``fn(redis)`` through the breaker; ``default`` without Redis or when it fails."""
    url = getattr(settings, "EVENTS_REDIS_URL", "")
    if not url:
        return default
    guard = _breaker(url)
    if not guard.allow():
        return default
    try:
        result = fn(_client(url))
    except Exception as exc:  # noqa: BLE001 - Redis being away must not fail anything
        guard.failed(exc)
        return default
    guard.succeeded()
    return result  # type: ignore[no-any-return]


def _scope(match_id: object | None) -> str:
    return FEED if match_id is None else str(match_id)


def _set(user_id: int, member: str, until: float, seen: str | None = None) -> None:
    def run(redis: Any) -> None:
        key = f"{PREFIX}{user_id}"
        now = time.time()
        with redis.pipeline(transaction=False) as pipe:
            pipe.zremrangebyscore(key, "-inf", now)
            pipe.zadd(key, {member: until})
            pipe.expire(key, int(TTL_SECONDS) + 5)
            if seen is not None:
                pipe.hset(f"{SEEN_PREFIX}{user_id}", seen, repr(now))
                pipe.expire(f"{SEEN_PREFIX}{user_id}", SEEN_KEEP_SECONDS)
            pipe.execute()

    _call(run, None)


def is_watching(user_id: int, match_id: object | None) -> bool:
    """Whether a request of the player waits on this match (None: any) or on the player's
    feed now."""

    def run(redis: Any) -> bool:
        members = redis.zrangebyscore(f"{PREFIX}{user_id}", time.time(), "+inf")
        scopes = {member.decode().split("|", 1)[0] for member in members}
        return FEED in scopes or (match_id is not None and str(match_id) in scopes)

    return _call(run, False)


def mark_seen(user_id: int, match_id: object) -> None:
    """The player looked at the match now."""

    def run(redis: Any) -> None:
        key = f"{SEEN_PREFIX}{user_id}"
        with redis.pipeline(transaction=False) as pipe:
            pipe.hset(key, str(match_id), repr(time.time()))
            pipe.expire(key, SEEN_KEEP_SECONDS)
            pipe.execute()

    _call(run, None)


def seen_at(user_id: int, match_id: object) -> float | None:
    """When the player last looked at the match (seconds since the epoch), if known."""
    value = _call(lambda redis: redis.hget(f"{SEEN_PREFIX}{user_id}", str(match_id)), None)
    return float(value) if value is not None else None


@asynccontextmanager
async def watching(user_id: int, match_id: object | None) -> AsyncIterator[None]:
    """The player watches the match (``None``: their feed) for as long as this lasts."""
    loop = asyncio.get_running_loop()
    member = f"{_scope(match_id)}|{secrets.token_hex(6)}"
    seen = None if match_id is None else str(match_id)

    def mark(until: float, look: str | None = None) -> Awaitable[None]:
        return loop.run_in_executor(None, _set, user_id, member, until, look)

    started = mark(time.time() + TTL_SECONDS, seen)  # runs while the request goes on

    async def refresh() -> None:
        while True:
            await asyncio.sleep(REFRESH_SECONDS)
            await mark(time.time() + TTL_SECONDS)

    refresher = asyncio.ensure_future(refresh())
    try:
        yield
    finally:
        refresher.cancel()
        await asyncio.shield(_end(started, mark))


async def _end(started: Awaitable[None], mark: Any) -> None:
    try:
        await started
        await mark(time.time() + GRACE_SECONDS)
    except Exception:  # noqa: BLE001 - never fail the request on its way out
        logger.debug("presence not updated", exc_info=True)


async def while_watching(user_id: int, match_id: object | None, answer: Awaitable[T]) -> T:
    """``await answer`` (a long-poll), the player counting as watching meanwhile."""
    async with watching(user_id, match_id):
        return await answer


async def watched(user_id: int, match_id: object | None,
                  messages: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    """A stream's messages, the player counting as watching while it is open."""
    async with watching(user_id, match_id):
        async for chunk in messages:
            yield chunk
