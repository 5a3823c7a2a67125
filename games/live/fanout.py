"""Work shared between the clients waiting on the same thing, so waking thousands of them
costs a few database reads, not a few per client.

When a match moves, every client waiting on it wakes at once. Instead of each reading the
match and its move log again:

* the match (its row and seats, one query) is read ONCE per wake-up: the waiters woken by the
  same wake-up join the read already under way (``match_state``). A read is joined only while it
  runs and only by waiters woken by the same wake-up of the hub (``Hub.generation``), so no
  waiter ever gets a read that began before the change that woke it;
* each waiter then checks in memory that it may still see the match (``match_visible``) and
  which seat it is (the viewer);
* the answer (the move log after ``after``, rendered to JSON) is built once per (match,
  version, status, viewer seat or spectator, after, limit) (``match_answer``) and kept for a
  little while, so every waiter of that kind answers the same bytes, with the same headers
  (``Shared``; the ASGI handler computes them once). A seat's answer is built from that seat's
  view only: it is exactly what ``selectors.match_events`` answers any user in that seat, so the
  hidden-information rules are those of every other endpoint.

Feeds are per user: several clients of one user share the read under way in the same way.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar
from uuid import UUID

from accounts.models import User
from games import selectors
from games.exceptions import MatchNotFound
from games.live import hub as events_hub
from games.models import Match

T = TypeVar("T")

# The attribute of a response whose body is a ``Shared`` answer (the ASGI handler then shares
# the headers as well).
SHARED_ATTR = "boardpost_shared"
# Rendered answers kept per process, most recently used last.
ANSWERS_KEPT = 4096


@dataclass(eq=False)
class Shared:
    """One rendered answer handed to many waiters, and the response headers prepared for it
    (per URL scheme) by the first of them to be answered."""

    body: bytes
    ready: bool  # something new is there for a waiter asking this
    cursor: int  # the answer's next_after
    status: str = ""  # a match answer's match status
    headers: dict[str, Any] = field(default_factory=dict)


class Fanout:
    """The reads under way and the answers kept, for one event loop."""

    def __init__(self) -> None:
        self._running: dict[Hashable, asyncio.Future[Any]] = {}
        self._answers: OrderedDict[Hashable, Shared] = OrderedDict()

    async def joined(self, key: Hashable, start: Callable[[], Awaitable[T]]) -> T:
        """``start()``'s result, sharing the call under way for the same key if there is one.
        A waiter that goes away does not cancel the read for the others."""
        future = self._running.get(key)
        if future is None:
            future = asyncio.ensure_future(start())
            self._running[key] = future
            future.add_done_callback(lambda done: self._finished(key, done))
        return await asyncio.shield(future)

    def _finished(self, key: Hashable, future: asyncio.Future[Any]) -> None:
        if self._running.get(key) is future:
            del self._running[key]
        if not future.cancelled():
            future.exception()  # retrieved: a failure is raised to each waiter, logged by none

    def kept(self, key: Hashable) -> Shared | None:
        answer = self._answers.get(key)
        if answer is not None:
            self._answers.move_to_end(key)
        return answer

    def keep(self, key: Hashable, answer: Shared) -> Shared:
        self._answers[key] = answer
        self._answers.move_to_end(key)
        while len(self._answers) > ANSWERS_KEPT:
            self._answers.popitem(last=False)
        return answer

    def running(self) -> int:
        return len(self._running)


_fanouts: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Fanout] = (
    weakref.WeakKeyDictionary())
_last: tuple[asyncio.AbstractEventLoop | None, Fanout | None] = (None, None)


def fanout() -> Fanout:
    """This event loop's shared reads."""
    global _last
    loop = asyncio.get_running_loop()
    if _last[0] is loop:
        return _last[1]  # type: ignore[return-value]
    shared = _fanouts.get(loop)
    if shared is None:
        shared = _fanouts[loop] = Fanout()
    _last = (loop, shared)
    return shared


Read = Callable[..., Awaitable[Any]]  # runs a sync function in a database thread


def generation(subscription: events_hub.Subscription | None) -> Hashable:
    """What a read must match to be shared with the waiter of ``subscription``: the count of
    wake-ups its hub has seen on the channel. Without a hub, or without a subscription (a
    request that does not wait), a read is never shared."""
    if subscription is None or subscription.hub is None:
        return object()
    return subscription.hub.generation(subscription.channel)


async def match_state(read: Read, match_id: UUID, generation: Hashable) -> Match | None:
    """The match with its seats, read once per wake-up for every waiter of the match."""
    key = ("match", match_id, generation)
    return await fanout().joined(key, lambda: read(selectors.match_loaded, match_id))


def viewer_of(match: Match, user: User) -> int | None:
    """The seat ``user`` sees the match from (None: a spectator); MatchNotFound when the user
    may not see it (any more)."""
    if not selectors.match_visible(match, user):
        raise MatchNotFound()
    seat = selectors.seat_of(match, user)
    return seat.index if seat is not None else None


async def match_answer(read: Read, match: Match, user: User, *, after: int, limit: int,
                       render: Callable[[Any], bytes]) -> Shared:
    """The long-poll answer about ``match`` for ``user``'s seat, built once per kind of viewer.

    ``user`` stands for every user in the same seat (or every spectator): the answer depends on
    the viewer's seat only (``selectors.match_events``)."""
    viewer = viewer_of(match, user)
    key = ("answer", match.id, match.version, match.status, viewer, after, limit)
    shared = fanout()
    answer = shared.kept(key)
    if answer is not None:
        return answer

    def build() -> Shared:
        body = selectors.match_events(match=match, user=user, after=after, limit=limit)
        return Shared(render(body), bool(body["moves"]), body["next_after"], body["status"])

    async def start() -> Shared:
        return shared.keep(key, await read(build))

    return await shared.joined(key, start)


async def match_read(read: Read, match_id: UUID, user: User, *, generation: Hashable,
                     viewer: int | None, after: int, limit: int,
                     render: Callable[[Any], bytes]) -> tuple[Match, Shared]:
    """The match and the answer for ``user``, in ONE read shared by every waiter woken by the
    same wake-up who sits in the same seat ``viewer`` (the seat the caller's previous read found:
    no seat changes hands while a match runs) and asks the same question. Each waiter checks the
    match in memory: it must still see it, from the seat the shared answer was built for;
    otherwise (and for a first read) ``match_state`` and ``match_answer`` are used."""
    key = ("read", match_id, generation, viewer, after, limit)
    shared = fanout()

    def load() -> tuple[Match | None, Shared | None, int | None]:
        match = selectors.match_loaded(match_id)
        if match is None or not selectors.match_visible(match, user):
            return match, None, None
        seat = selectors.seat_of(match, user)
        body = selectors.match_events(match=match, user=user, after=after, limit=limit)
        answer = Shared(render(body), bool(body["moves"]), body["next_after"], body["status"])
        return match, answer, seat.index if seat is not None else None

    async def start() -> tuple[Match | None, Shared | None, int | None]:
        match, answer, built_for = await read(load)
        if match is not None and answer is not None:
            shared.keep(("answer", match.id, match.version, match.status, built_for, after,
                         limit), answer)
        return match, answer, built_for

    match, answer, built_for = await shared.joined(key, start)
    if match is None:
        raise MatchNotFound()
    if answer is not None and viewer_of(match, user) == built_for:
        return match, answer
    # Built for another seat (or not built): this caller's own kind of answer.
    return match, await match_answer(read, match, user, after=after, limit=limit, render=render)


async def feed_answer(read: Read, user: User, generation: Hashable, query: Hashable,
                      build: Callable[[], Shared]) -> Shared:
    """The caller's feed answer to ``query``, shared by the same user's clients woken
    together."""
    key = ("feed", user.id, generation, query)
    return await fanout().joined(key, lambda: read(build))
