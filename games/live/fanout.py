"""Work shared between the clients waiting on the same thing, so waking thousands of them
costs a few database reads, not a few per client.

When a match moves, every client waiting on it wakes at once. Instead of each reading the
match and its move log again:

* the match (its row and seats) and its moves after the waiters' cursor are read ONCE per
  wake-up for all its waiters, whatever their seat: the waiters woken by the same wake-up join
  the read already under way (``match_read``). A read is joined only while it runs and only by
  waiters woken by the same wake-up of the hub (``Hub.generation``), so no waiter ever gets a
  read that began before the change that woke it;
* the reads asked for in the same turn of the event loop (the matches that moved together
  wake together) go to a database thread in ONE trip, two queries for all of them
  (``games.live.batching``), instead of two queries per match;
* each waiter then checks in memory that it may still see the match (``match_visible``) and
  which seat it is (the viewer);
* the answer (the move log after ``after``, rendered to JSON) is built in memory once per
  (match, version, status, viewer seat or spectator, after, limit) (``events_answer``) and kept
  for a little while, so every waiter of that kind answers the same bytes, with the same headers
  (``Shared``; the ASGI handler computes them once per language). A seat's answer is redacted
  for that seat only, by ``selectors.move_log_entry``, the rule ``match_moves_for_user`` uses
  too, so the hidden-information rules are those of every other endpoint.

Feeds are per user: several clients of one user share the read under way in the same way, and
the feeds asked for in the same turn of the event loop are read in one trip, one query for all
of them (``feed_answer``).
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
from games.catalog import get_engine
from games.exceptions import MatchNotFound
from games.live import batching
from games.live import hub as events_hub
from games.models import Match, Move
from games.selectors import feeds, shapes

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


Read = batching.Read  # runs a sync function in a database thread


def generation(subscription: events_hub.Subscription | None) -> Hashable:
    """What a read must match to be shared with the waiter of ``subscription``: the count of
    wake-ups its hub has seen on the channel. Without a hub, or without a subscription (a
    request that does not wait), a read is never shared."""
    if subscription is None or subscription.hub is None:
        return object()
    return subscription.hub.generation(subscription.channel)


def viewer_of(match: Match, user: User) -> int | None:
    """The seat ``user`` sees the match from (None: a spectator); MatchNotFound when the user
    may not see it (any more)."""
    if not selectors.match_visible(match, user):
        raise MatchNotFound()
    seat = selectors.seat_of(match, user)
    return seat.index if seat is not None else None


def events_answer(match: Match, moves: list[Move], viewer: int | None,
                  after: int) -> shapes.MatchEvents:
    """``selectors.match_events`` for the seat ``viewer``, from the match and its moves after
    ``after`` as read once (``match_read``)."""
    revealed = match.status in selectors.PUBLIC_STATUSES
    private_moves = get_engine(match.game).private_moves
    entries = [selectors.move_log_entry(move, viewer, revealed=revealed,
                                        private_moves=private_moves) for move in moves]
    return {"moves": entries, "next_after": entries[-1]["seq"] if entries else after,
            "version": match.version, "status": match.status}


MatchAsk = tuple[UUID, int, int]  # a match, the cursor, the limit
MatchRead = tuple[Match | None, list[Move]]  # the match (None: missing), its moves after it


def _match_and_moves(match_id: UUID, after: int, limit: int) -> MatchRead:
    return _matches_and_moves([(match_id, after, limit)])[0]


def _matches_and_moves(asked: list[MatchAsk]) -> list[MatchRead]:
    """Each asked match with its moves after the cursor, in two queries for all of them."""
    matches = selectors.matches_loaded({match_id for match_id, _, _ in asked})
    reads = [(matches.get(match_id), after, limit) for match_id, after, limit in asked]
    moving = [(match, after, limit) for match, after, limit in reads
              if match is not None and match.version > after]
    found = iter(selectors.moves_after_many(moving))
    return [(match, next(found) if match is not None and match.version > after else [])
            for match, after, _ in reads]


async def match_read(read: Read, match_id: UUID, user: User, *, generation: Hashable,
                     after: int, limit: int,
                     render: Callable[[Any], bytes]) -> tuple[Match, Shared]:
    """The match and the answer for ``user``. The match (its row and seats) and its moves after
    ``after`` are read ONCE per wake-up for every waiter of the match asking the same question,
    whatever its seat (``generation``: see the module docstring); each waiter then checks in
    memory that it may still see the match and which seat it is, and the answer is built once
    per kind of viewer (``events_answer``) and kept."""
    shared = fanout()
    match, moves = await shared.joined(
        ("read", match_id, generation, after, limit),
        lambda: batching.batches().ask(read, _matches_and_moves, (match_id, after, limit)))
    if match is None:
        raise MatchNotFound()
    viewer = viewer_of(match, user)
    key = ("answer", match.id, match.version, match.status, viewer, after, limit)
    answer = shared.kept(key)
    if answer is None:
        body = events_answer(match, moves, viewer, after)
        answer = shared.keep(key, Shared(render(body), bool(body["moves"]),
                                         body["next_after"], body["status"]))
    return match, answer


async def feed_answer(read: Read, user: User, generation: Hashable, *, after: int, limit: int,
                      render: Callable[[Any], bytes]) -> Shared:
    """The caller's feed after ``after``, shared by the same user's clients woken together.
    The feeds asked for in the same turn of the event loop (the players a wake-up woke) are
    read in ONE trip, one query for all of them (``feeds.user_event_feeds``); ``read`` is an
    urgent one, so the seats that must act hear of it before the matches' watchers."""
    async def start() -> Shared:
        body = await batching.batches().ask(read, feeds.user_event_feeds,
                                            (user.id, after, limit))
        return Shared(render(body), bool(body["events"]), body["next_after"])

    return await fanout().joined(("feed", user.id, generation, after, limit), start)
