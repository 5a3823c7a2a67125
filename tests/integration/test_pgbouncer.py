"""PgBouncer in transaction mode between the servers and PostgreSQL, as the compose file runs it
(``docker/start-pgbouncer.sh``), with the servers' one switch on (``DATABASE_POOLER=pgbouncer``).

A PostgreSQL cluster of the test's own (initdb into a temporary directory, on a free port), so
that it may be restarted, and a PgBouncer on a free port in front of it:

* why the switch: psycopg's server-side prepared statements break under transaction pooling with
  Debian's PgBouncer (1.18), and the switch turns them off;
* four server processes (two gunicorn, two uvicorn) with pools of their own hold many client
  connections to PgBouncer during a burst of 200 requests, while PostgreSQL sees no more server
  connections than PgBouncer's pool; each process runs the match lock's compiled query
  (``config.prepared``) many times over connections PgBouncer hands around;
* a PostgreSQL restart behind PgBouncer answers 503 with Retry-After and loses no acknowledged
  move, as without it (tests/integration/test_db_outage.py).
"""

from __future__ import annotations

import threading
import time
import uuid

import psycopg
import pytest

from tests.games.helpers import first_nibble_take
from tests.integration.conftest import pgbouncer_installed
from tests.integration.http import HttpClient, all_at_once, register
from tests.integration.servers import ApiServer, PgBouncer, PrivatePostgres, bouncer_backends
from tests.integration.test_db_outage import (
    SERVER_POOL,
    migrated,
    play_through_an_outage,
    private_postgres_or_skip,
)

pytestmark = pytest.mark.integration

POOL_SIZE = 4
REQUESTS = 200
MATCHES = 40
BOUNCED = {"DATABASE_POOLER": "pgbouncer"}


class Stack:
    def __init__(self, pg: PrivatePostgres, bouncer: PgBouncer, direct_url: str) -> None:
        self.pg, self.bouncer, self.direct_url = pg, bouncer, direct_url
        self.url = bouncer.url("boardpost")

    def server_connections(self) -> int:
        """PostgreSQL's backends on the application's database that serve PgBouncer's live
        server connections (``bouncer_backends``)."""
        return bouncer_backends(self.pg.dsn, "boardpost", [
            row["local_port"] for row in self.bouncer.show("SERVERS")
            if row["database"] == "boardpost"])


@pytest.fixture(scope="module")
def stack():
    if not pgbouncer_installed():
        pytest.skip("PgBouncer is not installed (Debian's pgbouncer package)")
    pg = private_postgres_or_skip()
    bouncer = None
    try:
        pg.init().start()
        direct_url = migrated(pg)
        bouncer = PgBouncer(pg.port, pool_size=POOL_SIZE, query_wait_timeout=2).start()
        yield Stack(pg, bouncer, direct_url)
    finally:
        if bouncer is not None:
            bouncer.stop()
        pg.destroy()


def test_prepared_statements_break_transaction_pooling_and_the_switch_turns_them_off(stack):
    dsn = stack.url.replace("postgres://", "postgresql://", 1)
    # psycopg names its statements per connection (_pg3_0, ...): two clients sharing PgBouncer's
    # server connections collide as soon as they prepare.
    with psycopg.connect(dsn, autocommit=True, prepare_threshold=0) as a, \
            psycopg.connect(dsn, autocommit=True, prepare_threshold=0) as b:
        with pytest.raises(psycopg.errors.DuplicatePreparedStatement):
            for value in range(5):
                a.execute("SELECT %s::int", [value])
                b.execute("SELECT %s::int", [value])
    # What DATABASE_POOLER=pgbouncer sets (prepare_threshold None): nothing is prepared.
    with psycopg.connect(dsn, autocommit=True, prepare_threshold=None) as a, \
            psycopg.connect(dsn, autocommit=True, prepare_threshold=None) as b:
        for value in range(20):
            assert a.execute("SELECT %s::int", [value]).fetchone() == (value,)
            assert b.execute("SELECT %s::int", [value]).fetchone() == (value,)


class Sampler(threading.Thread):
    """PostgreSQL's server connections and PgBouncer's clients, every few milliseconds."""

    def __init__(self, stack: Stack) -> None:
        super().__init__(daemon=True)
        self.stack = stack
        self.servers: list[int] = []
        self.clients: list[int] = []
        self.halt = threading.Event()

    def run(self) -> None:
        while not self.halt.is_set():
            self.servers.append(self.stack.server_connections())
            pool = self.stack.bouncer.pool("boardpost")
            self.clients.append(int(pool.get("cl_active", 0)) + int(pool.get("cl_waiting", 0)))
            time.sleep(0.01)

    def stop(self) -> tuple[int, int]:
        self.halt.set()
        self.join(timeout=10)
        return max(self.servers, default=0), max(self.clients, default=0)


def test_many_processes_hold_many_clients_on_few_server_connections(stack):
    servers = [ApiServer(kind, stack.url, env={**BOUNCED, "DB_POOL_MIN_SIZE": "2",
                                              "DB_POOL_MAX_SIZE": "10", "DB_POOL_TIMEOUT": "60"})
               for kind in ("gunicorn", "gunicorn", "asgi", "asgi")]
    try:
        for server in servers:
            server.start()
        suffix = uuid.uuid4().hex[:6]
        players = [register(servers[index % len(servers)].url, f"b{index}x{suffix}")
                   for index in range(2 * MATCHES)]
        calls = []
        for index in range(MATCHES):
            base = servers[index % len(servers)].url
            a, b = (HttpClient(base, players[2 * index + side].token) for side in (0, 1))
            status, created = a.post("/api/matches", {
                "game": "nibble", "config": {"first_seat": 0}, "rated": False,
                "seats": [{"kind": "me"},
                          {"kind": "user", "username": b.get("/api/me")[1]["username"]}]})
            assert status == 201, created
            assert b.post(f"/api/matches/{created['id']}/join")[0] == 200
            status, detail = a.get(f"/api/matches/{created['id']}")
            assert status == 200, detail
            calls.append((a, "POST", f"/api/matches/{created['id']}/moves",
                          {"move": first_nibble_take(detail["legal_moves"])}))
        while len(calls) < REQUESTS:
            index = len(calls)
            base = servers[index % len(servers)].url
            calls.append((HttpClient(base, players[index % len(players)].token), "GET",
                          "/api/me", None))

        sampler = Sampler(stack)
        sampler.start()
        answers = all_at_once(calls)
        time.sleep(0.5)
        most_servers, most_clients = sampler.stop()

        wrong = [(method, status, body) for method, (status, body) in answers
                 if (method, status) not in {("GET", 200), ("POST", 201)}]
        assert not wrong, wrong[:5]
        clients = sum(1 for row in stack.bouncer.show("CLIENTS")
                      if row["database"] == "boardpost")
        print(f"\n4 server processes, {REQUESTS} concurrent requests through PgBouncer: at most "
              f"{most_clients} clients busy at once and {clients} client connections held "
              f"after; PostgreSQL server connections at most {most_servers} "
              f"(PgBouncer's pool: {POOL_SIZE})")
        assert 0 < most_servers <= POOL_SIZE
        # The processes' pools together hold far more connections than PostgreSQL serves.
        assert clients > 2 * POOL_SIZE and most_clients > POOL_SIZE
        for server in servers:
            assert "prepared statement" not in server.output()
    finally:
        for server in servers:
            server.stop()


def test_a_postgresql_restart_behind_pgbouncer_answers_503_and_loses_no_move(stack):
    server = ApiServer("gunicorn", stack.url, env={**BOUNCED, **SERVER_POOL}).start()
    try:
        seen = play_through_an_outage(stack.pg, server, stack.direct_url)
        print(f"\ngunicorn through PgBouncer: {seen}")
    finally:
        server.stop()
