"""The threads that run the live-update views' database reads, the most urgent first.

When many matches move at once, their waiters' reads queue for the few read threads (one
database connection each). A player's own feed is how the seat that must act learns it is its
turn, so feed reads go before match reads (``URGENT``), and reads of the same urgency run in the
order they were asked for. A read that its caller gave up on (a client gone, a cancelled
waiter) is skipped if it has not started.
"""

from __future__ import annotations

import asyncio
import itertools
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

T = TypeVar("T")

URGENT = 0  # a player's own feed: "your turn" travels there
NORMAL = 1  # everything else


class PriorityReads:
    """``threads`` threads running the reads handed to :meth:`run`, urgent ones first."""

    def __init__(self, threads: int, name: str) -> None:
        self._queue: queue.PriorityQueue[tuple[int, int, Future[Any], Callable[[], Any]]] = (
            queue.PriorityQueue())
        self._order = itertools.count()
        self._name = name
        self._size = threads
        self._started = 0
        self._lock = threading.Lock()

    def submit(self, priority: int, fn: Callable[[], T]) -> Future[T]:
        future: Future[T] = Future()
        self._queue.put((priority, next(self._order), future, fn))
        self._start_threads()
        return future

    async def run(self, priority: int, fn: Callable[[], T]) -> T:
        """``fn()`` in a read thread, awaited from the event loop."""
        return await asyncio.wrap_future(self.submit(priority, fn))

    def _start_threads(self) -> None:
        # One thread more each time a read is asked for, up to the size: as many threads as
        # reads ever ran at once, and no thread (nor connection) in a process that reads nothing.
        if self._started >= self._size:
            return
        with self._lock:
            if self._started < self._size and self._queue.qsize() > 0:
                self._started += 1
                threading.Thread(target=self._work, name=f"{self._name}_{self._started}",
                                 daemon=True).start()

    def _work(self) -> None:
        while True:
            _, _, future, fn = self._queue.get()
            if not future.set_running_or_notify_cancel():
                continue  # its caller gave up before it started
            try:
                result = fn()
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                future.set_exception(exc)
            else:
                future.set_result(result)
