"""The integration tests' processes through the session's PgBouncer (``server_database``): while
the servers and workers of every module before this one ran (Celery workers and beat, uvicorn
and gunicorn, long-polls and streams, a Redis outage, make run's processes), PostgreSQL saw no
more server connections from PgBouncer than its pool, however many client connections they held.

PgBouncer's pool was read from its admin console (``SHOW POOLS``) every tenth of a second all
session long (``tests.integration.servers.PoolWatch``); this test runs after every other of the
integration set (``pytest_collection_modifyitems`` in the conftest) and reads what was seen.
Where the modules before it happened to hold no more client connections at once than the pool
(a process of the suite may go through only some of them, or the file runs alone), it starts
processes of its own that each keep a pool of connections to PgBouncer, so the claim is always
put to the test.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.integration import conftest
from tests.integration.conftest import (
    POOLER_VARIABLE,
    ROOT,
    SHARED_POOL_SIZE,
    ServerDatabase,
    session_pooler,
    stop_group,
    wait_until,
)

pytestmark = pytest.mark.integration

# A process of the project that opens its pool of connections (DB_POOL_MIN_SIZE of them, to
# PgBouncer) and keeps it until stopped.
HOLDER = ("import time, django; django.setup(); from django.db import connection; "
          "connection.ensure_connection(); print('ready', flush=True); time.sleep(120)")


def _hold_connections(database: ServerDatabase, processes: int, each: int
                      ) -> list[subprocess.Popen]:
    started = [subprocess.Popen([sys.executable, "-c", HOLDER], cwd=ROOT,
                                env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test",
                                     **database.env(), "DB_POOL_MIN_SIZE": str(each)},
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                start_new_session=True)
               for _ in range(processes)]
    for process in started:
        assert process.stdout is not None
        said = []  # its log lines, then "ready" once its pool is open
        while (line := process.stdout.readline()) and line.strip() != "ready":
            said.append(line)
        if not line:
            for other in started:
                stop_group(other)
            raise AssertionError("a process did not open its pool:\n" + "".join(said)[-2000:])
    return started


# The test database is set up before the session's PgBouncer is pointed at it.
@pytest.mark.django_db(transaction=True)
def test_the_processes_hold_more_clients_than_postgresql_serves_connections(
        server_database: ServerDatabase):
    if not server_database.pooler:
        pytest.skip(f"the processes connect directly ({POOLER_VARIABLE}=none or no PgBouncer)")
    watch = server_database.watch
    pool = server_database.bouncer.pool_size
    if watch.most_clients <= pool:
        holders = _hold_connections(server_database, processes=3, each=pool)
        try:
            wait_until(lambda: watch.most_clients > pool, timeout=30,
                       message=f"the pool never saw more than {watch.most_clients} clients")
        finally:
            for process in holders:
                stop_group(process)
    print(f"\n{server_database.processes} processes pointed at PgBouncer; {watch.readings} "
          f"readings of its pool: up to {watch.most_clients} client connections at once (with "
          f"{watch.servers_at_most_clients} server connections then), up to "
          f"{watch.most_servers} server connections (the pool: {pool}); the longest wait for "
          f"one {watch.longest_wait:.3f} s")
    assert pool == SHARED_POOL_SIZE
    assert not watch.errors, watch.errors[:3]
    assert watch.readings > 0
    # PostgreSQL never served more connections than the pool...
    assert not watch.over_the_pool, watch.over_the_pool[:5]
    assert 0 < watch.most_servers <= pool
    # ...while the processes held more connections to PgBouncer than that, at one time.
    assert watch.most_clients > pool, (
        f"the processes ({server_database.processes} started) held at most "
        f"{watch.most_clients} client connections at once, no more than the pool ({pool})")
    assert watch.servers_at_most_clients <= pool


@pytest.mark.parametrize(("asked", "installed", "pooler"), [
    ("", True, "pgbouncer"), ("", False, ""), ("pgbouncer", True, "pgbouncer"),
    ("none", True, ""), ("none", False, ""), ("PgBouncer", True, "pgbouncer")])
def test_the_switch_goes_through_pgbouncer_wherever_it_is_installed(monkeypatch, asked,
                                                                   installed, pooler):
    monkeypatch.setenv(POOLER_VARIABLE, asked)
    monkeypatch.setattr(conftest, "pgbouncer_installed", lambda: installed)
    assert session_pooler() == pooler


@pytest.mark.parametrize(("asked", "installed"), [("pgbouncer", False), ("pgpool", True)])
def test_a_missing_pgbouncer_asked_for_or_an_unknown_pooler_is_an_error(monkeypatch, asked,
                                                                        installed):
    monkeypatch.setenv(POOLER_VARIABLE, asked)
    monkeypatch.setattr(conftest, "pgbouncer_installed", lambda: installed)
    with pytest.raises(pytest.UsageError, match=POOLER_VARIABLE):
        session_pooler()
