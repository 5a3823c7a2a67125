"""The live-update views' read threads (games.live.readers): a player's own feed is read before
the matches waiting with it, reads of one urgency run in order, and a read given up on before it
starts never runs."""

from __future__ import annotations

import asyncio
import threading

from games.live.readers import NORMAL, URGENT, PriorityReads


def test_urgent_reads_go_first_and_the_others_in_order():
    reads = PriorityReads(1, "test-reads")
    release = threading.Event()
    ran: list[str] = []
    busy = reads.submit(NORMAL, release.wait)  # the only thread is busy
    futures = [reads.submit(NORMAL, lambda: ran.append("match 1")),
               reads.submit(NORMAL, lambda: ran.append("match 2")),
               reads.submit(URGENT, lambda: ran.append("feed 1")),
               reads.submit(NORMAL, lambda: ran.append("match 3")),
               reads.submit(URGENT, lambda: ran.append("feed 2"))]
    release.set()
    busy.result(5)
    for future in futures:
        future.result(5)
    assert ran == ["feed 1", "feed 2", "match 1", "match 2", "match 3"]


def test_a_read_given_up_on_does_not_run_and_failures_reach_the_caller():
    reads = PriorityReads(1, "test-reads")
    release = threading.Event()
    ran: list[str] = []
    busy = reads.submit(NORMAL, release.wait)
    gone = reads.submit(NORMAL, lambda: ran.append("gone"))
    assert gone.cancel()
    failing = reads.submit(NORMAL, lambda: 1 / 0)
    release.set()
    busy.result(5)
    assert isinstance(failing.exception(5), ZeroDivisionError)
    assert ran == []


def test_reads_awaited_from_the_event_loop_run_in_the_read_threads():
    reads = PriorityReads(2, "test-reads")

    async def main() -> list[str]:
        return await asyncio.gather(*(reads.run(URGENT if n % 2 else NORMAL,
                                                lambda: threading.current_thread().name)
                                      for n in range(8)))

    names = asyncio.run(main())
    assert set(names) <= {"test-reads_1", "test-reads_2"}
