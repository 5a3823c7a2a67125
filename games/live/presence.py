"""Who is watching live, and when a player last looked at a match (Redis, when configured).

A waiting long-poll or an open stream on a match (or on the player's own feed, which the web
client keeps open while it is on screen) counts as watching: the notifications
(``games.notify``) send nothing about a match its player is watching. While such a request
waits, a record ``(scope, token) -> expiry`` sits in a sorted set per user; it is refreshed
every REFRESH_SECONDS and, when the watch ends, kept GRACE_SECONDS more. A client's next
long-poll continues its watch (``_Writer``). A record whose process died expires after
TTL_SECONDS.

Looking at a match (reading it, or waiting on it) is recorded too: the "your turn" limit of the
notifications is lifted once the player has looked at the match since the last one.

Redis is EVENTS_REDIS_URL, as for the wake-ups (``games.live.hub``). Without it, or while it is
away (a circuit breaker of its own), nobody counts as watching and looks are not recorded:
notifications then go out as if the player were away. Nothing here ever fails a request.
Waiting requests never call Redis themselves: a thread per process writes their records in
batches (``_Writer``), so answering thousands of them at once costs no Redis round trip each.
"""

from __future__ import annotations

import logging
import os
import queue
import secrets
import threading
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
LEAVE_DELAY_SECONDS = 2.0
FLUSH_SECONDS = 0.05
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


class _Writer:
    """The watch records of this process, written to Redis in batches by a thread of their own.

    A request that starts or stops watching only puts a note on a queue (no Redis call, no
    thread hop on its way in or out): when thousands of waiting long-polls are answered at
    once, their answers do not wait for their records. The thread gathers what arrives within
    FLUSH_SECONDS into one pipeline, and every REFRESH_SECONDS renews the records of the
    watches still going. A record thus appears up to FLUSH_SECONDS after its request began.

    A watch is one player's watching of one scope (a match, or their feed) from this process,
    whatever number of requests it spans: its record's member is the scope and the process's
    own token. When its last request ends, the watch ends only if no request of it follows
    within LEAVE_DELAY_SECONDS: a client's next long-poll (or a stream reconnecting) continues
    the watch, so answering and re-polling thousands of clients writes nothing to Redis. A watch
    that ends is kept GRACE_SECONDS from the moment its last request ended, and counts as a look
    at its match at that moment (it has been looked at all along).
    """

    def __init__(self) -> None:
        self.queue: queue.SimpleQueue[tuple[int, str, bool, str | None]] = queue.SimpleQueue()
        self.pid = os.getpid()
        self.token = secrets.token_hex(6)
        # In the thread only, keyed by (user id, member): the requests of each watch going on,
        # and the watches whose last request ended (monotonic and wall time), oldest first.
        self.requests: dict[tuple[int, str], int] = {}
        self.leaving: dict[tuple[int, str], tuple[float, float]] = {}
        thread = threading.Thread(target=self._run, name="presence-writer", daemon=True)
        thread.start()

    def member(self, match_id: object | None) -> str:
        return f"{_scope(match_id)}|{self.token}"

    def note(self, user_id: int, member: str, entering: bool, look: str | None) -> None:
        """A request of the watch ``(user_id, member)`` starts (``entering``) or ends;
        ``look``: the match it looks at, if any."""
        self.queue.put((user_id, member, entering, look))

    def _run(self) -> None:
        renew_at = time.monotonic() + REFRESH_SECONDS
        while True:
            wake_at = renew_at
            if self.leaving:
                wake_at = min(wake_at, next(iter(self.leaving.values()))[0]
                              + LEAVE_DELAY_SECONDS)
            try:
                notes = [self.queue.get(timeout=max(0.0, wake_at - time.monotonic()))]
            except queue.Empty:
                notes = []
            if notes:
                time.sleep(FLUSH_SECONDS)  # let the notes arriving together go together
            while True:
                try:
                    notes.append(self.queue.get_nowait())
                except queue.Empty:
                    break
            records: dict[tuple[int, str], float] = {}
            looks: dict[tuple[int, str], float] = {}
            self._apply(notes, records, looks)
            if time.monotonic() >= renew_at:
                renew_at = time.monotonic() + REFRESH_SECONDS
                until = time.time() + TTL_SECONDS
                for key in (*self.requests, *self.leaving):
                    records[key] = until
            self._end_watches(records, looks)
            if records or looks:
                _call(lambda redis, r=records, seen=looks: _write(redis, r, seen), None)

    def _apply(self, notes: list[tuple[int, str, bool, str | None]],
               records: dict[tuple[int, str], float],
               looks: dict[tuple[int, str], float]) -> None:
        now = time.time()
        for user_id, member, entering, look in notes:
            key = (user_id, member)
            if entering:
                count = self.requests.get(key, 0)
                self.requests[key] = count + 1
                if count == 0 and self.leaving.pop(key, None) is None:
                    # A new watch (not the next request of one going on).
                    records[key] = now + TTL_SECONDS
                    if look is not None:
                        looks[(user_id, look)] = now
            elif self.requests.get(key, 0) > 1:
                self.requests[key] -= 1
            elif self.requests.pop(key, None) is not None:
                self.leaving[key] = (time.monotonic(), now)

    def _end_watches(self, records: dict[tuple[int, str], float],
                     looks: dict[tuple[int, str], float]) -> None:
        """The watches whose last request ended LEAVE_DELAY_SECONDS ago with none since."""
        due = time.monotonic() - LEAVE_DELAY_SECONDS
        while self.leaving:
            key, (ended, ended_at) = next(iter(self.leaving.items()))
            if ended > due:
                break
            del self.leaving[key]
            records[key] = ended_at + GRACE_SECONDS
            scope = key[1].split("|", 1)[0]
            if scope != FEED:
                looks[(key[0], scope)] = ended_at


def _write(redis: Any, records: dict[tuple[int, str], float],
           looks: dict[tuple[int, str], float]) -> None:
    now = time.time()
    with redis.pipeline(transaction=False) as pipe:
        for user_id in {user_id for user_id, _ in records}:
            pipe.zremrangebyscore(f"{PREFIX}{user_id}", "-inf", now)
        for (user_id, member), until in records.items():
            pipe.zadd(f"{PREFIX}{user_id}", {member: until})
        for user_id in {user_id for user_id, _ in records}:
            pipe.expire(f"{PREFIX}{user_id}", int(TTL_SECONDS) + 5)
        for (user_id, match_id), at in looks.items():
            pipe.hset(f"{SEEN_PREFIX}{user_id}", match_id, repr(at))
            pipe.expire(f"{SEEN_PREFIX}{user_id}", SEEN_KEEP_SECONDS)
        pipe.execute()


_writer_lock = threading.Lock()
_writer: _Writer | None = None


def _writer_here() -> _Writer:
    """This process's writer (a forked process starts its own)."""
    global _writer
    writer = _writer
    if writer is None or writer.pid != os.getpid():
        with _writer_lock:
            writer = _writer
            if writer is None or writer.pid != os.getpid():
                writer = _writer = _Writer()
    return writer


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
    if not getattr(settings, "EVENTS_REDIS_URL", ""):
        yield
        return
    writer = _writer_here()
    member = writer.member(match_id)
    writer.note(user_id, member, True, None if match_id is None else str(match_id))
    try:
        yield
    finally:
        writer.note(user_id, member, False, None)


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
