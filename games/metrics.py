"""The game server's metrics (Prometheus, served at ``/metrics`` by ``config.metrics``).

Counted where they happen (each a few microseconds; in multiprocess mode a write to a shared
memory-mapped file):

* ``boardpost_moves_total{game, kind}``: moves recorded, by game and by who played them
  (``player`` or ``bot``), counted once their transaction commits;
* ``boardpost_move_seconds{game}``: a player's move in the service, from asking for the
  match's lock (waiting for it included) to the commit (the whole request's time is in
  ``boardpost_http_request_seconds``);
* ``boardpost_bot_think_seconds{game, level}``: a bot's policy choosing a move;
* ``boardpost_live_waiters{kind}``: long-poll and stream requests waiting now (``longpoll``,
  ``stream``), summed over the live processes.

Read at scrape time by the collectors below (``METRICS_COLLECTORS``), each answer kept for
``METRICS_CACHE_SECONDS``, so scrapes cost at most one cheap query or Redis round trip each:

* ``boardpost_active_matches{game}``: running matches per game (one grouped count);
* ``boardpost_due_work_matches{state}``: matches waiting on work no person does (a bot's turn,
  automatic work, a rating; ``games.services.due``), ``due`` (its time has come) and
  ``overdue`` (due for longer than ``DUE_WORK_GRACE_SECONDS``: the sweep's business), with
  ``boardpost_due_work_oldest_seconds`` for the longest wait;
* ``boardpost_celery_queue_length{queue}``: messages waiting in each Celery queue (Redis list
  lengths; absent with another broker).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Min, Q
from django.utils import timezone
from prometheus_client import Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from games.catalog import engines
from games.models import Match

logger = logging.getLogger(__name__)

MOVES = Counter("boardpost_moves", "Moves recorded, by game and by who played them.",
                ["game", "kind"])
MOVE_SECONDS = Histogram(
    "boardpost_move_seconds",
    "A player's move in the service, from asking for the match's lock to the commit.",
    ["game"], buckets=(0.005, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1, 2.5))
BOT_THINK_SECONDS = Histogram(
    "boardpost_bot_think_seconds", "A bot's policy choosing one move, by game and level.",
    ["game", "level"],
    buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5))
WAITERS = Gauge("boardpost_live_waiters", "Long-poll and stream requests waiting now.",
                ["kind"], multiprocess_mode="livesum")


# --------------------------------------------------------------------------- hooks


def move_recorded(game: str, kind: str, started: float | None = None) -> None:
    """Count a move (and, for a player's, its latency from ``started``, a ``perf_counter``)
    when the transaction that records it commits: a move rolled back is not counted."""
    def count() -> None:
        MOVES.labels(game=game, kind=kind).inc()
        if started is not None:
            MOVE_SECONDS.labels(game=game).observe(time.perf_counter() - started)

    transaction.on_commit(count)


@contextmanager
def bot_thinking(game: str, level: int) -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        BOT_THINK_SECONDS.labels(game=game, level=str(level)).observe(
            time.perf_counter() - started)


class _Waiting:
    """``async with waiting("longpoll"):`` counts a live-update request while it waits."""

    __slots__ = ("_gauge",)

    def __init__(self, kind: str) -> None:
        self._gauge = WAITERS.labels(kind=kind)

    async def __aenter__(self) -> None:
        self._gauge.inc()

    async def __aexit__(self, *exc: object) -> None:
        self._gauge.dec()


_waiting = {kind: _Waiting(kind) for kind in ("longpoll", "stream")}


def waiting(kind: str) -> _Waiting:
    """The waiter count of ``kind`` (``longpoll`` or ``stream``), as an async context manager
    (shared: it keeps no state of its own)."""
    return _waiting[kind]


# --------------------------------------------------------------------------- scrape time


class _Cached:
    """A value computed at most once per ``METRICS_CACHE_SECONDS`` in this process."""

    def __init__(self, compute: Callable[[], Any]) -> None:
        self._compute = compute
        self._lock = threading.Lock()
        self._value: Any = None
        self._at = float("-inf")

    def get(self) -> Any:
        """The value, or None when it cannot be read now (the database is away): the scrape
        then answers without these series rather than not at all."""
        with self._lock:
            now = time.monotonic()
            if now - self._at >= settings.METRICS_CACHE_SECONDS:
                try:
                    self._value = self._compute()
                except Exception as exc:  # noqa: BLE001 - logged, and the scrape goes on
                    logger.warning("metrics: %s not read (%s: %s)", self._compute.__qualname__,
                                   type(exc).__name__, exc)
                    self._value = None
                self._at = now
            return self._value


class ActiveMatchesCollector(Collector):
    """Running matches per game, every registered game listed (0 when none)."""

    def __init__(self) -> None:
        self._counts = _Cached(self._read)

    @staticmethod
    def _read() -> dict[str, int]:
        counts = dict.fromkeys(engines(), 0)
        rows = (Match.objects.filter(status=Match.Status.ACTIVE).order_by()
                .values_list("game").annotate(n=Count("id")))
        for game, n in rows:
            counts[game] = n
        return counts

    def collect(self) -> Iterable[GaugeMetricFamily]:
        family = GaugeMetricFamily("boardpost_active_matches", "Running matches, by game.",
                                   labels=["game"])
        for game, n in sorted((self._counts.get() or {}).items()):
            family.add_metric([game], n)
        yield family


class DueWorkCollector(Collector):
    """Matches whose due work (``Match.work_due_at``) has come, and those past the grace."""

    def __init__(self) -> None:
        self._state = _Cached(self._read)

    @staticmethod
    def _read() -> tuple[int, int, float]:
        now = timezone.now()
        cutoff = now - timedelta(seconds=settings.DUE_WORK_GRACE_SECONDS)
        # One query through the partial index on work_due_at.
        row = Match.objects.filter(work_due_at__isnull=False, work_due_at__lte=now).aggregate(
            due=Count("id"), oldest=Min("work_due_at"),
            overdue=Count("id", filter=Q(work_due_at__lte=cutoff)))
        oldest = row["oldest"]
        age = (now - oldest).total_seconds() if oldest is not None else 0.0
        return row["due"], row["overdue"], age

    def collect(self) -> Iterable[GaugeMetricFamily]:
        state = self._state.get()
        if state is None:
            return
        due, overdue, age = state
        family = GaugeMetricFamily(
            "boardpost_due_work_matches",
            "Matches whose work (bot turn, automatic step, rating) is due, and overdue: due for "
            "longer than DUE_WORK_GRACE_SECONDS.", labels=["state"])
        family.add_metric(["due"], due)
        family.add_metric(["overdue"], overdue)
        yield family
        yield GaugeMetricFamily("boardpost_due_work_oldest_seconds",
                                "How long the longest-waiting due work has waited.", value=age)


class QueueDepthCollector(Collector):
    """Messages waiting in each Celery queue: the length of its Redis list (and of its
    priority lists, which kombu names ``<queue>\\x06\\x16<priority>``)."""

    PRIORITY_SEP = "\x06\x16"

    def __init__(self) -> None:
        self._client: Any = None
        self._lengths = _Cached(self._read)

    @staticmethod
    def queues() -> list[str]:
        from celery import current_app

        # The queues the settings declare (the default queue and each kind's: bots, steps,
        # ratings, notifications, sweeps), the deep bots' and any this process has sent to.
        names = {current_app.conf.task_default_queue,
                 str(getattr(settings, "BOTS_DEEP_QUEUE", "bots-deep"))}
        names.update(current_app.amqp.queues.keys())
        return sorted(name for name in names if name)

    def _redis(self) -> Any:
        url = settings.CELERY_BROKER_URL
        if urlsplit(url).scheme not in ("redis", "rediss"):
            return None
        if self._client is None:
            import redis

            self._client = redis.Redis.from_url(
                url, socket_connect_timeout=settings.REDIS_CONNECT_TIMEOUT,
                socket_timeout=settings.REDIS_SOCKET_TIMEOUT)
        return self._client

    def _read(self) -> dict[str, int] | None:
        client = self._redis()
        if client is None:
            return None
        names = self.queues()
        pipe = client.pipeline(transaction=False)
        for name in names:
            pipe.llen(name)
            for step in (3, 6, 9):
                pipe.llen(f"{name}{self.PRIORITY_SEP}{step}")
        try:
            lengths = pipe.execute()
        except Exception:  # noqa: BLE001 - a broker away leaves the series out, not the scrape
            return None
        return {name: sum(lengths[i * 4:(i + 1) * 4]) for i, name in enumerate(names)}

    def collect(self) -> Iterable[GaugeMetricFamily]:
        lengths = self._lengths.get()
        family = GaugeMetricFamily("boardpost_celery_queue_length",
                                   "Messages waiting in each Celery queue.", labels=["queue"])
        for name, length in sorted((lengths or {}).items()):
            family.add_metric([name], length)
        yield family
