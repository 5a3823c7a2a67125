"""A real streaming read replica: a primary cluster of the test's own (initdb on a free port) and
a replica made from it with ``pg_basebackup -R`` on another port, both under a temporary
directory; the API under gunicorn with ``DATABASE_URL`` on the primary and
``DATABASE_REPLICA_URL`` on the replica.

The replica's replay is paused to make it lag on purpose (``pg_wal_replay_pause``):

* lists are read from the replica (a match created while replay is paused is missing from
  another player's list until the replica catches up), yet the caller who created it sees it
  in their own list at once (read-your-writes);
* with a small lag bound, a lagging replica serves nothing: the reads go to the primary and
  ``boardpost_replica_reads_total{reason="lagging"}`` counts them;
* a replica that is down is the same: reads on the primary (``reason="down"``), no error, and
  back on the replica once it answers again.
"""

from __future__ import annotations

import shutil
import time
import urllib.request
import uuid

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.integration.conftest import wait_until
from tests.integration.http import HttpClient, register
from tests.integration.servers import ApiServer, PrivatePostgres, postgres_bin
from tests.integration.test_db_outage import migrated, private_postgres_or_skip

pytestmark = pytest.mark.integration

PIN_SECONDS = 2.0


class Replicated:
    def __init__(self, primary: PrivatePostgres, replica: PrivatePostgres, url: str) -> None:
        self.primary, self.replica, self.url = primary, replica, url

    def server(self, max_lag: float) -> ApiServer:
        return ApiServer("gunicorn", self.url, env={
            "DATABASE_REPLICA_URL": self.replica.url("boardpost"),
            "REPLICA_MAX_LAG_SECONDS": str(max_lag), "REPLICA_CHECK_SECONDS": "0.2",
            "REPLICA_PIN_SECONDS": str(PIN_SECONDS), "REDIS_RETRY_SECONDS": "1",
            "DB_POOL_MIN_SIZE": "1", "DB_POOL_MAX_SIZE": "4"}).start()

    def replay(self, on: bool) -> None:
        self.replica.sql("SELECT pg_wal_replay_resume()" if on else "SELECT pg_wal_replay_pause()")

    def caught_up(self) -> bool:
        (row,) = self.replica.sql("SELECT pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn()")
        return bool(row[0])


@pytest.fixture(scope="module")
def replicated():
    if postgres_bin() is None or not (postgres_bin() / "pg_basebackup").exists():
        pytest.skip("no PostgreSQL server binaries (pg_basebackup)")
    primary = private_postgres_or_skip()
    replica = PrivatePostgres(primary.bindir)
    try:
        primary.init().start()
        url = migrated(primary)
        replica.replica_of(primary).start()
        (row,) = replica.sql("SELECT pg_is_in_recovery()")
        assert row[0] is True
        yield Replicated(primary, replica, url)
    finally:
        replica.destroy()
        primary.destroy()
        shutil.rmtree(replica.root, ignore_errors=True)


def replica_reads(server: ApiServer, database: str, reason: str) -> float:
    with urllib.request.urlopen(server.url + "/metrics", timeout=30) as response:
        text = response.read().decode()
    return sum(sample.value for family in text_string_to_metric_families(text)
               for sample in family.samples
               if sample.name == "boardpost_replica_reads_total"
               and sample.labels == {"database": database, "reason": reason})


def open_ids(client: HttpClient, scope: str) -> set[str]:
    status, page = client.get(f"/api/matches?scope={scope}")
    assert status == 200, page
    return {match["id"] for match in page["results"]}


def players(server: ApiServer) -> tuple[HttpClient, HttpClient]:
    suffix = uuid.uuid4().hex[:6]
    return register(server.url, f"host{suffix}"), register(server.url, f"look{suffix}")


def settle(replicated: Replicated) -> None:
    """The players' own writes no longer pin them, and the replica has what the primary has."""
    wait_until(replicated.caught_up, timeout=30, message="the replica did not catch up")
    time.sleep(PIN_SECONDS + 0.5)


def test_lists_read_the_replica_and_the_caller_reads_their_own_write(replicated):
    server = replicated.server(max_lag=600)
    try:
        host, looker = players(server)
        settle(replicated)
        before = replica_reads(server, "replica", "ok")
        replicated.replay(False)
        try:
            status, created = host.post("/api/matches", {"game": "nibble", "config": {}})
            assert status == 201, created
            # The creator's own list, on the primary: the match at once.
            assert created["id"] in open_ids(host, "mine")
            assert replica_reads(server, "default", "pinned") >= 1
            # Another player's list of open matches, on the replica that has not replayed it.
            assert created["id"] not in open_ids(looker, "open")
            assert replica_reads(server, "replica", "ok") > before
        finally:
            replicated.replay(True)
        wait_until(lambda: created["id"] in open_ids(looker, "open"), timeout=30,
                   message="the replica never showed the new match")
        # Leaderboards and player pages read from the replica too.
        read = replica_reads(server, "replica", "ok")
        assert looker.get("/api/leaderboards/nibble")[0] == 200
        assert looker.get(f"/api/players/{host.get('/api/me')[1]['username']}")[0] == 200
        assert replica_reads(server, "replica", "ok") >= read + 2
    finally:
        server.stop()


def reads_fall_back(replicated: Replicated, server: ApiServer, reason: str, break_replica,
                    mend_replica) -> None:
    """With the replica broken (``break_replica``), another player's list still shows a match
    just created (the read went to the primary) and the metric counts it under ``reason``."""
    host, looker = players(server)
    settle(replicated)
    break_replica()
    try:
        status, created = host.post("/api/matches", {"game": "nibble", "config": {}})
        assert status == 201, created
        wait_until(lambda: created["id"] in open_ids(looker, "open"), timeout=30,
                   message=f"the reads stayed on the replica ({reason})")
        assert replica_reads(server, "default", reason) >= 1
    finally:
        mend_replica()
    wait_until(replicated.caught_up, timeout=30, message="the replica did not catch up")
    # Once it is back, the replica serves again.
    read = replica_reads(server, "replica", "ok")
    wait_until(lambda: open_ids(looker, "open") is not None
               and replica_reads(server, "replica", "ok") > read, timeout=30,
               message="the reads never went back to the replica")


def test_a_lagging_replica_serves_nothing_and_the_metric_says_so(replicated):
    # Once the replica is more than a second behind, the others read the primary.
    server = replicated.server(max_lag=1)
    try:
        reads_fall_back(replicated, server, "lagging", lambda: replicated.replay(False),
                        lambda: replicated.replay(True))
    finally:
        server.stop()


def test_a_replica_that_is_down_leaves_the_reads_to_the_primary(replicated):
    server = replicated.server(max_lag=600)
    try:
        reads_fall_back(replicated, server, "down", replicated.replica.stop,
                        replicated.replica.start)
    finally:
        server.stop()
