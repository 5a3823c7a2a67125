"""Real parts for the integration tests: a Celery worker process on Redis, against the same
PostgreSQL test database the test writes to (transactional tests, so the worker sees commits).

The servers and workers these tests start (and the browser tests' worker) reach the test
database through a PgBouncer in transaction mode that the session starts (``server_database``),
as every process but the migrations reaches PostgreSQL in the compose file: with the same switch
(``DATABASE_POOLER=pgbouncer``) and each with its own pool of connections to PgBouncer. The test
process itself, which writes the fixtures, connects directly. That happens wherever PgBouncer is
installed (Debian's ``pgbouncer``, which ``scripts/system-packages.sh`` installs);
``TEST_DATABASE_POOLER=none`` connects the processes directly instead, and
``TEST_DATABASE_POOLER=pgbouncer`` makes a missing PgBouncer an error. The tests whose subject is
a direct connection (a process's own pool bounding its PostgreSQL connections, an outage of a
PostgreSQL of their own) give their processes the URL of their database instead."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from config.celery_app import app as celery_app
from tests.conftest import skip_unless

ROOT = Path(__file__).resolve().parents[2]


def _needs_real_services() -> None:
    skip_unless(postgresql=True, redis=True)


def queue_env(queue: str) -> dict[str, str]:
    """The settings that send a process's tasks to queues of the test's own, named after
    ``queue``: the default queue, each kind's queue (``<queue>.bots``, ...) and the deep bots'."""
    return {"CELERY_TASK_DEFAULT_QUEUE": queue, "CELERY_QUEUE_PREFIX": f"{queue}.",
            "BOTS_DEEP_QUEUE": f"{queue}-deep"}


def queues_of(queue: str) -> str:
    """Every queue of :func:`queue_env`, as a worker's ``-Q`` list."""
    kinds = ("bots", "steps", "ratings", "notifications", "sweeps")
    return ",".join([queue, f"{queue}-deep", *(f"{queue}.{kind}" for kind in kinds)])


@dataclass
class ServerDatabase:
    """How the processes a test starts reach the test database: ``url`` (their
    ``DATABASE_URL``), through ``pooler`` (their ``DATABASE_POOLER``: "pgbouncer", or "" when
    they connect directly). ``bouncer`` and ``watch`` are the session's PgBouncer and the
    reading of its pool (``tests.integration.servers.PoolWatch``) when there is one;
    ``processes`` counts the environments handed out (:meth:`env`)."""

    url: str
    pooler: str = ""
    bouncer: Any = None
    watch: Any = None
    processes: int = field(default=0, compare=False)

    def env(self) -> dict[str, str]:
        """The variables that point a process at the database. Through PgBouncer the process
        keeps a pool of connections of its own (``DB_POOL``), now to PgBouncer, as the compose
        file's processes do; directly it runs with the test settings' default (no pool)."""
        self.processes += 1
        pooled = {"DB_POOL": "true"} if self.pooler else {}
        return {"DATABASE_URL": self.url, "DATABASE_POOLER": self.pooler, **pooled}


def database_env(database: ServerDatabase | str) -> dict[str, str]:
    """The variables that point a process at ``database``: the session's way to the test
    database (:class:`ServerDatabase`), or a URL it connects to directly."""
    if isinstance(database, ServerDatabase):
        return database.env()
    return {"DATABASE_URL": database, "DATABASE_POOLER": ""}


class Worker:
    """A Celery worker subprocess bound to queues of its own (:func:`queue_env`), on
    ``database`` (:func:`database_env`)."""

    def __init__(self, queue: str, database: ServerDatabase | str, concurrency: int = 2,
                 app: str = "config.celery_app", env: dict[str, str] | None = None,
                 queues: str | None = None) -> None:
        self.queue = queue
        # The queues consumed: the test's queues of every kind and its level-4 bots', unless told.
        self.queues = queues or queues_of(queue)
        self.database = database
        self.concurrency = concurrency
        self.app = app
        self.extra_env = env or {}
        self.process: subprocess.Popen | None = None
        self.log = ROOT / "var" / f"worker-{queue}-{uuid.uuid4().hex[:6]}.log"

    def start(self) -> None:
        process = self.spawn()
        wait_until(lambda: "ready." in self.output() or process.poll() is not None,
                   timeout=60, message=f"the Celery worker did not start (log: {self.log})")
        if "ready." not in self.output():
            raise RuntimeError(f"the Celery worker did not start:\n{self.output()}")

    def spawn(self) -> subprocess.Popen:
        """Start the worker's process without waiting for it to be ready."""
        self.log.parent.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test",
               **database_env(self.database), "BOARDPOST_CELERY_EAGER": "false",
               **queue_env(self.queue), **self.extra_env}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", self.app, "worker",
             "--loglevel=INFO", "-Q", self.queues, "--pool=prefork",
             f"--concurrency={self.concurrency}", "--without-gossip", "--without-mingle",
             "--without-heartbeat", "-n", f"{self.queue}@%h"],
            cwd=ROOT, env=env, stdout=self.log.open("w"), stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        return self.process

    def kill(self) -> None:
        """SIGKILL the whole worker (main process and children), as a crash would."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()

    def output(self) -> str:
        return self.log.read_text() if self.log.exists() else ""


def stop_group(process: subprocess.Popen | None, timeout: float = 10) -> None:
    """SIGTERM to the process group of ``process`` (started with ``start_new_session``), and
    SIGKILL if it has not ended within ``timeout`` seconds."""
    if process is None or process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


def _database_url() -> str:
    """The test database's URL, for a process that connects to it directly."""
    params = connection.settings_dict
    host = params.get("HOST") or "127.0.0.1"
    port = params.get("PORT") or 5432
    user = params.get("USER") or "postgres"
    password = params.get("PASSWORD") or ""
    auth = f"{user}:{password}@" if password else f"{user}@"
    return f"postgres://{auth}{host}:{port}/{params['NAME']}"


@contextmanager
def _tasks_routed_to(queue: str) -> Iterator[str]:
    """Tasks sent from this process go to ``queue`` on Redis instead of running eagerly."""
    saved = (celery_app.conf.task_always_eager, celery_app.conf.task_default_queue)
    saved_deep, saved_prefix = settings.BOTS_DEEP_QUEUE, settings.CELERY_QUEUE_PREFIX
    celery_app.conf.task_always_eager = False
    celery_app.conf.task_default_queue = queue
    # Each kind of task goes to the test's queue of that kind, level-4 moves to its deep queue,
    # all of which its worker consumes (queue_env).
    settings.BOTS_DEEP_QUEUE = queue_env(queue)["BOTS_DEEP_QUEUE"]
    settings.CELERY_QUEUE_PREFIX = queue_env(queue)["CELERY_QUEUE_PREFIX"]
    try:
        yield queue
    finally:
        celery_app.conf.task_always_eager, celery_app.conf.task_default_queue = saved
        settings.BOTS_DEEP_QUEUE, settings.CELERY_QUEUE_PREFIX = saved_deep, saved_prefix


# ------------------------------------------------------------------ the session's PgBouncer

# TEST_DATABASE_POOLER: "pgbouncer" (the default wherever PgBouncer is installed) or "none".
POOLER_VARIABLE = "TEST_DATABASE_POOLER"
# PgBouncer's server connections to the test database, however many clients the processes hold.
SHARED_POOL_SIZE = 4


def pgbouncer_installed() -> bool:
    return shutil.which("pgbouncer", path=f"{os.environ.get('PATH', '')}:/usr/sbin") is not None


def session_pooler() -> str:
    """What the processes the tests start go through to the test database: "pgbouncer" or
    "" (directly), from TEST_DATABASE_POOLER and whether PgBouncer is installed."""
    asked = os.environ.get(POOLER_VARIABLE, "").strip().lower()
    if asked in ("none", "off", "direct"):
        return ""
    if asked not in ("", "pgbouncer"):
        raise pytest.UsageError(f"{POOLER_VARIABLE}={asked!r}: expected 'pgbouncer' or 'none'")
    if pgbouncer_installed():
        return "pgbouncer"
    if asked:
        raise pytest.UsageError(f"{POOLER_VARIABLE}=pgbouncer, and PgBouncer is not installed "
                                "(Debian's pgbouncer package: make system-packages)")
    return ""


@pytest.fixture(scope="session")
def server_database(django_db_setup, django_db_blocker) -> Iterator[ServerDatabase]:
    """The way the servers and workers the tests start reach the test database: through a
    PgBouncer in transaction mode in front of it (a pool of ``SHARED_POOL_SIZE`` server
    connections), started once a test process and stopped before the test database is dropped,
    with its pool read all along (``PoolWatch``); or directly (:func:`session_pooler`)."""
    with django_db_blocker.unblock():
        url = _database_url()
        params = dict(connection.settings_dict)
        postgresql = connection.vendor == "postgresql"
    if not postgresql or not session_pooler():
        yield ServerDatabase(url)
        return
    from tests.integration.servers import PgBouncer, PoolWatch

    bouncer = PgBouncer(int(params.get("PORT") or 5432), pool_size=SHARED_POOL_SIZE,
                        query_wait_timeout=10, server_host=params.get("HOST") or "127.0.0.1",
                        user=params.get("USER") or "postgres",
                        password=params.get("PASSWORD") or "")
    bouncer.start()
    watch = PoolWatch(bouncer, params["NAME"])
    watch.start()
    try:
        yield ServerDatabase(bouncer.url(params["NAME"]), "pgbouncer", bouncer, watch)
    finally:
        watch.stop()
        bouncer.stop()


# The check of what went through the session's PgBouncer, which reads what every other test of
# the integration set did.
SESSION_CHECK = Path(__file__).parent / "test_shared_pgbouncer.py"


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The check of the session's PgBouncer after every other test (after
    ``tests.xdist_workers`` ordered them, within the integration modules' lane)."""
    last = [item for item in items if item.path == SESSION_CHECK]
    if last:
        items[:] = [item for item in items if item.path != SESSION_CHECK] + last


@pytest.fixture
def celery_queue(transactional_db):
    """Route this test's tasks to a fresh Redis queue instead of running them eagerly."""
    _needs_real_services()
    with _tasks_routed_to(f"test-{uuid.uuid4().hex[:12]}") as queue:
        yield queue


@pytest.fixture
def celery_worker_process(celery_queue, server_database):
    """A running worker process consuming the test's queue (for the tests that read its log
    or kill it: one of the test's own)."""
    worker = Worker(celery_queue, server_database)
    worker.start()
    try:
        yield worker
    finally:
        worker.stop()


@pytest.fixture(scope="session")
def session_worker(django_db_setup, django_db_blocker, server_database):
    """One worker process for all the tests of a test process that only need their tasks run
    (the browser tests' bots), not a worker to look at, on a queue of its own; started once,
    not once a module (each start imports Django in three processes). Every test flushes the
    database after it, so no test sees another's matches; a task a test left behind finds its
    match gone."""
    with django_db_blocker.unblock():
        _needs_real_services()
    worker = Worker(f"session-{uuid.uuid4().hex[:12]}", server_database)
    worker.start()
    try:
        yield worker
    finally:
        worker.stop()


@pytest.fixture
def shared_worker(session_worker, transactional_db):
    """The process's worker, with this test's tasks routed to its queue."""
    with _tasks_routed_to(session_worker.queue):
        yield session_worker


@pytest.fixture
def make_worker(celery_queue, server_database):
    """``make_worker()`` starts another worker on the test's queue (for kill-and-restart)."""
    workers: list[Worker] = []

    def make(concurrency: int = 2, app: str = "config.celery_app",
             env: dict[str, str] | None = None) -> Worker:
        worker = Worker(celery_queue, server_database, concurrency=concurrency, app=app,
                        env=env)
        worker.start()
        workers.append(worker)
        return worker

    yield make
    for worker in workers:
        worker.stop()


# --------------------------------------------------------------------------- waiting
# Tests wait for conditions, never for a fixed time: each helper re-checks its predicate until a
# deadline and returns as soon as the answer is known.


def wait_until(predicate, timeout: float = 60.0, interval: float = 0.2, message: str = ""):
    """Re-check ``predicate`` every ``interval`` seconds until it returns something true, and
    return that; after ``timeout`` seconds fail the test with ``message``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = predicate()
        if result:
            return result
        time.sleep(interval)
    result = predicate()
    if result:
        return result
    raise AssertionError(f"timed out after {timeout}s: {message}")


def holds_for(predicate, seconds: float, interval: float = 0.05) -> bool:
    """Whether ``predicate`` stays true for ``seconds``: returns False as soon as it is not.

    For the assertions whose subject is that nothing happens for a while (a long-poll with
    nothing new stays unanswered); a failure shows at once instead of after the whole time."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not predicate():
            return False
        time.sleep(interval)
    return bool(predicate())


async def await_until(predicate, timeout: float, interval: float = 0.02) -> bool:
    """:func:`wait_until` for code running in an event loop: whether ``predicate`` became true
    within ``timeout`` seconds, sleeping without blocking the loop in between."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        await asyncio.sleep(interval)
    return bool(predicate())
