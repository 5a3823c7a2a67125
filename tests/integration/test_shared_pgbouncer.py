"""The integration tests' processes through the session's PgBouncer (``server_database``): while
the servers and workers of every module before this one ran (Celery workers and beat, uvicorn
and gunicorn, long-polls and streams, a Redis outage, make run's processes), PostgreSQL saw no
more server connections from PgBouncer than its pool, however many client connections they held.

PgBouncer's pool was read from its admin console (``SHOW POOLS``) every tenth of a second all
session long (``tests.integration.servers.PoolWatch``); this test runs after every other of the
integration set (``pytest_collection_modifyitems`` in the conftest) and reads what was seen.
"""

from __future__ import annotations

import pytest

from tests.integration import conftest
from tests.integration.conftest import (
    POOLER_VARIABLE,
    SHARED_POOL_SIZE,
    ServerDatabase,
    session_pooler,
)

pytestmark = pytest.mark.integration


def test_the_processes_hold_more_clients_than_postgresql_serves_connections(
        server_database: ServerDatabase):
    if not server_database.pooler:
        pytest.skip(f"the processes connect directly ({POOLER_VARIABLE}=none or no PgBouncer)")
    if not server_database.processes:
        pytest.skip("no integration test started a process before this one (it reads what "
                    "theirs did: run it with the integration set)")
    watch = server_database.watch
    pool = server_database.bouncer.pool_size
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
