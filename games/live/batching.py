"""Reads asked for in the same turn of the event loop, made in ONE trip to a database thread.

After a wake-up, thousands of waiters ask their questions within a few turns of the event loop:
the re-polls' token lookups, the matches that moved together, the feeds of the players woken.
Each kind of question has a function that answers many at once (``many(asks) -> answers``, one
answer per ask, in order; an answer may be an exception, raised to that asker alone);
:meth:`Batches.ask` collects the asks of one turn and runs ``many`` once for all of them,
through the ``read`` of the first asker (a function that runs a sync function in a database
thread, see ``games.live.longpoll._read``).

The feeds' trip is an urgent read (``games.live.readers``): the seats that must act hear of a
move before the matches' watchers do.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

A = TypeVar("A")
R = TypeVar("R")

Read = Callable[..., Awaitable[Any]]  # read(fn, *args): fn(*args) in a database thread
Many = Callable[[list[Any]], Sequence[Any]]


class Batches:
    """The asks waiting for the next turn of one event loop, per ``many`` function."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._pending: dict[Many, tuple[Read, list[tuple[Any, asyncio.Future[Any]]]]] = {}

    def ask(self, read: Read, many: Callable[[list[A]], Sequence[R | BaseException]],
            question: A) -> asyncio.Future[R]:
        """``many([question])[0]``, answered with every other question for ``many`` asked in
        this turn of the event loop, in one ``read``. A caller that goes away (its future
        cancelled) does not cancel the trip for the others."""
        future: asyncio.Future[R] = self.loop.create_future()
        pending = self._pending.get(many)
        if pending is None:
            pending = self._pending[many] = (read, [])
            self.loop.call_soon(self._flush, many)
        pending[1].append((question, future))
        return future

    def _flush(self, many: Many) -> None:
        read, pending = self._pending.pop(many)
        waiting = [(question, future) for question, future in pending if not future.done()]
        if not waiting:
            return
        futures = [future for _, future in waiting]
        trip = asyncio.ensure_future(read(many, [question for question, _ in waiting]))

        def deliver(done: asyncio.Future[Sequence[Any]]) -> None:
            failure = asyncio.CancelledError() if done.cancelled() else done.exception()
            answers: Sequence[Any] = (
                [failure] * len(futures) if failure is not None else done.result())
            for future, answer in zip(futures, answers, strict=True):
                if future.done():
                    continue  # its caller went away
                if isinstance(answer, BaseException):
                    future.set_exception(answer)
                else:
                    future.set_result(answer)

        trip.add_done_callback(deliver)


_batches: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Batches] = (
    weakref.WeakKeyDictionary())


def batches() -> Batches:
    """This event loop's batches."""
    loop = asyncio.get_running_loop()
    found = _batches.get(loop)
    if found is None:
        found = _batches[loop] = Batches(loop)
    return found
