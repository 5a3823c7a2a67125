"""Wake-ups for long-polling clients: after a commit, writers publish on a channel per match
and per user; waiting requests listen and then read what is new from the database.

Only "something changed" travels through the hub, never game data: what a client receives is
always read again through the selectors, redacted for that client. With Redis configured
(EVENTS_REDIS_URL, or a redis:// CELERY_BROKER_URL) messages go through Redis pub/sub, so any
process may wake any waiting client; without it waiting clients poll the database.

Waiting side: an ASGI server process keeps ONE Redis connection, pattern-subscribed to every
channel (``shared_hub``), and wakes the coroutines waiting on the channel a message names; a
waiting request costs an ``asyncio.Event``, not a thread. ``listen(channel)`` is the entry
point for views.

Redis may go away (refuse, or hang) at any time; a request never waits for it longer than the
short REDIS_CONNECT_TIMEOUT / REDIS_SOCKET_TIMEOUT. Each process keeps one circuit breaker per
Redis URL (config.outages): after a failure, publishing is skipped for REDIS_RETRY_SECONDS
(one try per interval), and waiting requests poll the database every EVENTS_POLL_SECONDS until
the hub is subscribed again AND Redis has answered for REDIS_RETRY_SECONDS, long enough for
every process to publish again (until then a process may still be skipping its publishes).
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import weakref
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager, suppress
from functools import lru_cache
from typing import Any

from django.conf import settings

from config.outages import Breaker, reconnect_once, redis_retry_seconds

logger = logging.getLogger(__name__)

PREFIX = "boardpost:"


USER_PREFIX = f"{PREFIX}user:"


def match_channel(match_id: object) -> str:
    return f"{PREFIX}match:{match_id}"


def user_channel(user_id: object) -> str:
    return f"{USER_PREFIX}{user_id}"


def _connect_timeout() -> float:
    return float(getattr(settings, "REDIS_CONNECT_TIMEOUT", 0.25))


def _socket_timeout() -> float:
    return float(getattr(settings, "REDIS_SOCKET_TIMEOUT", 0.25))


@lru_cache(maxsize=8)
def breaker(url: str) -> Breaker:
    """This process's circuit breaker for the events Redis at ``url``."""
    return Breaker(f"events Redis at {url.rsplit('@', 1)[-1]}", logger=logger,
                   fallback="wake-ups are not sent and waiting clients poll the database")


@lru_cache(maxsize=8)
def _redis(url: str):
    import redis

    return redis.Redis.from_url(url, socket_timeout=_socket_timeout(),
                                socket_connect_timeout=_connect_timeout(), retry=reconnect_once())


def publish(*channels: str) -> None:
    """Tell waiting clients of these channels that something changed. Never raises, and
    while Redis is away does not even try (see the module docstring): a lost wake-up only
    delays a client until its next poll of the database or the end of its wait."""
    url = settings.EVENTS_REDIS_URL
    if not url or not channels:
        return
    guard = breaker(url)
    if not guard.allow():
        return
    try:
        _send_publishes(url, publish_order(channels))
    except Exception as exc:  # noqa: BLE001 - Redis being away must not fail a move
        guard.failed(exc)
    else:
        guard.succeeded()


def _send_publishes(url: str, channels: list[str]) -> None:
    """One PUBLISH per channel, sent together on this thread's publishing connection
    (``_publisher``) and their answers read: one round trip, without a pipeline's or a pool's
    bookkeeping (they cost the move path twice the CPU). A connection Redis closed is replaced
    and the whole tried once more (``config.outages.reconnect_once``, as for every command); a
    connection that failed otherwise is closed, and the next publish connects again."""
    connection = _publisher(url)
    packed = connection.pack_commands([("PUBLISH", channel, b"1") for channel in channels])

    def send() -> None:
        connection.send_packed_command(packed)
        for _ in channels:
            connection.read_response()

    try:
        connection.retry.call_with_retry(send, lambda _error: connection.disconnect())
    except BaseException:
        connection.disconnect()
        raise


# Each thread's connection for publishing, by Redis URL, with the process that made it (a
# forked child makes its own).
_publishers = threading.local()


def _publisher(url: str) -> Any:
    """This thread's connection for publishing to ``url``: made like the client's (its
    timeouts and retry policy), kept for the thread's life, connected on first use."""
    held: dict[str, tuple[int, Any]] | None = getattr(_publishers, "held", None)
    if held is None:
        held = _publishers.held = {}
    entry = held.get(url)
    if entry is None or entry[0] != os.getpid():
        pool = _redis(url).connection_pool
        entry = held[url] = (os.getpid(), pool.connection_class(**pool.connection_kwargs))
    return entry[1]


def publish_order(channels: Iterable[str]) -> list[str]:
    """Users' channels before matches': the feed of the seat that must act next carries its
    ``your_turn``, and a hub wakes the waiters of a user's channel first (the match's watchers
    once those have answered, ``Hub._dispatch``), so the player who must act is told first,
    before everybody watching the match."""
    return sorted(set(channels), key=lambda channel: (not channel.startswith(USER_PREFIX),
                                                      channel))


# --------------------------------------------------------------------------- the waiting side

# Silence on the pub/sub connection for this long sends a PING; no answer at all for three
# times as long counts as a dead connection (a half-open TCP connection never errors by itself).
HEARTBEAT_SECONDS = 10.0
HUB_PING = b"boardpost-hub"
# How long the wake-up of a match's watchers may wait for the players woken first (their own
# feed) to be answered.
FIRST_SECONDS = 0.05
# Channels whose wake-ups a hub counts before it starts counting afresh (a new epoch).
MAX_GENERATIONS = 100_000


class Subscription:
    """One waiting request's interest in one channel. ``rearm()`` before each read of the
    database, then ``wait()``: a wake-up that arrives while the read runs is not lost."""

    def __init__(self, hub: Hub | None, channel: str) -> None:
        self.hub = hub
        self.channel = channel
        self._event = asyncio.Event()

    def rearm(self) -> None:
        self._event.clear()

    def wake(self) -> None:
        self._event.set()

    async def wait(self, timeout: float) -> bool:
        """Until a wake-up for the channel or ``timeout`` seconds, whichever comes first; True
        when woken. Unless the hub can be trusted with every wake-up (no Redis configured, its
        connection is down, or Redis was away only moments ago) the wait lasts at most
        EVENTS_POLL_SECONDS, so the caller polls the database instead."""
        if self.hub is not None:
            self.hub.served(self)
        if self.hub is None or not self.hub.trusted():
            timeout = min(timeout, settings.EVENTS_POLL_SECONDS)
        if self._event.is_set():
            return True
        if timeout <= 0:
            return False
        try:
            async with asyncio.timeout(timeout):
                await self._event.wait()
        except TimeoutError:
            return False
        return True


class Hub:
    """Redis pub/sub wake-ups dispatched to the requests waiting in one event loop.

    A hub holds ONE Redis connection, subscribed to ``patterns`` (the shared hub of a server
    process: every ``boardpost:*`` channel) or to ``channels`` (a private hub for one request),
    and wakes the subscriptions registered for the channel a message names. It starts lazily,
    reconnects with back-off when Redis fails, and wakes every waiter whenever its connection is
    lost or (re)subscribed, because wake-ups may have been missed in between: a waiter then reads
    the database again and, while the hub is down, polls it."""

    def __init__(self, url: str, *, patterns: Iterable[str] = (), channels: Iterable[str] = ()):
        self.url = url
        self.patterns = tuple(patterns)
        self.channels = tuple(channels)
        if not (self.patterns or self.channels):
            raise ValueError("a hub needs patterns or channels")
        self.live = False
        self.breaker = breaker(url)
        self.connects = 0  # successful (re)subscriptions, for tests and diagnostics
        self._failures = 0  # consecutive failed connections, for the back-off
        self._waiters: dict[str, set[Subscription]] = {}
        self._task: asyncio.Task | None = None
        # Wake-ups seen per channel, and for every channel at once: waiters that read after
        # the same count may share one read (games.live.fanout).
        self._generations: dict[str, int] = {}
        self._epoch = 0
        # Players woken first (their feed), and the channels whose wake-up waits for them.
        self._first: set[Subscription] = set()
        self._deferred: set[str] = set()
        self._flush: asyncio.TimerHandle | None = None

    # -- waiters

    @contextmanager
    def subscription(self, channel: str) -> Iterator[Subscription]:
        self.start()
        subscription = Subscription(self, channel)
        self._waiters.setdefault(channel, set()).add(subscription)
        try:
            yield subscription
        finally:
            waiters = self._waiters.get(channel)
            if waiters is not None:
                waiters.discard(subscription)
                if not waiters:
                    del self._waiters[channel]
            self.served(subscription)

    def trusted(self) -> bool:
        """Whether no wake-up can be missed: subscribed, and Redis steadily answering."""
        return self.live and self.breaker.steady_for(redis_retry_seconds())

    def waiting(self) -> int:
        return sum(len(waiters) for waiters in self._waiters.values())

    def generation(self, channel: str) -> tuple[int, int]:
        """Changes when a wake-up for ``channel`` (or for every channel) arrives: two reads
        begun under the same generation both begun after the same last wake-up."""
        return self._epoch, self._generations.get(channel, 0)

    def _dispatch(self, channel: bytes | str) -> None:
        if isinstance(channel, bytes):
            channel = channel.decode("utf-8", "replace")
        if len(self._generations) >= MAX_GENERATIONS:
            self._epoch += 1  # a new epoch: no read begun before is shared any more
            self._generations.clear()
        self._generations[channel] = self._generations.get(channel, 0) + 1
        waiters = self._waiters.get(channel)
        if not waiters:
            return
        if channel.startswith(USER_PREFIX):
            # A player's own feed (``your_turn``) goes first: the matches' waiters are woken
            # once these have answered, or after FIRST_SECONDS at most.
            self._first.update(waiters)
            if self._flush is None:
                self._flush = asyncio.get_running_loop().call_later(FIRST_SECONDS,
                                                                    self._wake_deferred)
        elif self._first:
            self._deferred.add(channel)
            return
        for subscription in waiters:
            subscription.wake()

    def served(self, subscription: Subscription) -> None:
        """``subscription``'s request has read after its wake-up (it waits again, or is done):
        once no player woken first is still reading, the deferred wake-ups go out."""
        if subscription in self._first:
            self._first.discard(subscription)
            if not self._first:
                self._wake_deferred()

    def _wake_deferred(self) -> None:
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
        self._first.clear()
        deferred, self._deferred = self._deferred, set()
        for channel in deferred:
            for subscription in self._waiters.get(channel, ()):
                subscription.wake()

    def _wake_all(self) -> None:
        self._epoch += 1
        self._generations.clear()
        self._first.clear()
        self._deferred.clear()
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
        for waiters in self._waiters.values():
            for subscription in waiters:
                subscription.wake()

    def _set_live(self, live: bool) -> None:
        changed = live != self.live
        self.live = live
        if changed or live:
            self._wake_all()

    # -- the connection

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(),
                                                                name="boardpost-events-hub")

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            with suppress(asyncio.CancelledError):
                await task
        self._set_live(False)

    async def __aenter__(self) -> Hub:
        self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _run(self) -> None:
        while True:
            try:
                await self._listen()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - any failure: wait, then reconnect
                self.breaker.failed(exc)  # logs the outage once per process, not per hub
                self._failures += 1
            finally:
                self._set_live(False)
            await asyncio.sleep(min(0.1 * 2 ** max(self._failures - 1, 0), 5.0))

    async def _listen(self) -> None:
        import redis.asyncio as aioredis

        loop = asyncio.get_running_loop()
        client = aioredis.Redis.from_url(self.url, socket_connect_timeout=_connect_timeout(),
                                         socket_timeout=_socket_timeout(), socket_keepalive=True)
        pubsub = client.pubsub()
        try:
            if self.patterns:
                await pubsub.psubscribe(*self.patterns)
            if self.channels:
                await pubsub.subscribe(*self.channels)
            last_seen = last_ping = loop.time()
            while True:
                message = await pubsub.get_message(timeout=1.0)
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    # redis-py's read can swallow a cancellation; honour it here, or closing
                    # the listener would wait forever.
                    raise asyncio.CancelledError
                now = loop.time()
                if message is None:
                    if now - last_seen > 3 * HEARTBEAT_SECONDS:
                        raise ConnectionError("no answer from Redis")
                    if now - max(last_seen, last_ping) > HEARTBEAT_SECONDS:
                        last_ping = now
                        await pubsub.ping(HUB_PING)
                    continue
                last_seen = now
                kind = message["type"]
                if kind in ("pmessage", "message"):
                    self._dispatch(message["channel"])
                elif kind in ("psubscribe", "subscribe"):
                    # The first confirmation, or a resubscription after redis-py reconnected
                    # on its own: either way wake-ups may have been missed before it.
                    self.breaker.succeeded()
                    self.connects += 1
                    self._failures = 0
                    self._set_live(True)
        finally:
            with suppress(Exception):
                await pubsub.aclose()
            with suppress(Exception):
                await client.aclose()


# Each event loop gets its own shared hub (a server process runs one loop).
_shared_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = (
    weakref.WeakKeyDictionary())


def shared_hub() -> Hub | None:
    """This event loop's hub over every channel, or None without Redis (waiters poll)."""
    url = settings.EVENTS_REDIS_URL
    if not url:
        return None
    loop = asyncio.get_running_loop()
    hub = _shared_hubs.get(loop)
    if hub is None or hub.url != url:
        hub = _shared_hubs[loop] = Hub(url, patterns=[PREFIX + "*"])
    hub.start()
    return hub


@asynccontextmanager
async def listen(channel: str, *, shared: bool = True) -> AsyncIterator[Subscription]:
    """Wake-ups for ``channel`` while the block runs.

    ``shared``: through the process's hub; an ASGI server's long-lived event loop. Otherwise
    (an async view under WSGI runs in an event loop of its own per request) through a private
    hub subscribed to this channel alone and closed at the end."""
    url = settings.EVENTS_REDIS_URL
    if not url:
        yield Subscription(None, channel)
    elif shared:
        hub = shared_hub()
        assert hub is not None
        with hub.subscription(channel) as subscription:
            yield subscription
    else:
        async with Hub(url, channels=[channel]) as hub:
            with hub.subscription(channel) as subscription:
                yield subscription
