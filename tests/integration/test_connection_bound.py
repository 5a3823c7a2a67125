"""PostgreSQL connections stay bounded under load: 200 concurrent requests (GET /api/me and
moves) at the API under uvicorn (ASGI: every synchronous request runs in a thread of its own)
and under gunicorn (WSGI), with a pool of at most 10 connections: the server never holds more
than the pool's bound, and no request fails. The server connects to PostgreSQL directly, not
through the session's PgBouncer: the bound measured is the one its own pool sets, on the
connections PostgreSQL counts."""

from __future__ import annotations

import threading
import time
import uuid

import pytest

from tests.factories import UserFactory, token_for
from tests.integration.conftest import _database_url
from tests.integration.http import HttpClient, all_at_once
from tests.integration.servers import ApiServer, backends

pytestmark = pytest.mark.integration

POOL_MAX = 10
REQUESTS = 200
MATCHES = 40  # one move each; the other requests are GET /api/me


def first_take(legal_moves: dict) -> dict:
    takeable = legal_moves["takeable"]
    colour = sorted(takeable, key=int)[0]
    return {"take": [takeable[colour][0]]}


class Sampler(threading.Thread):
    """Counts the server's PostgreSQL connections every few milliseconds until stopped."""

    def __init__(self, dsn: str, application_name: str) -> None:
        super().__init__(daemon=True)
        self.dsn = dsn
        self.application_name = application_name
        self.samples: list[int] = []
        self.halt = threading.Event()

    def run(self) -> None:
        import psycopg
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            while not self.halt.is_set():
                row = conn.execute("SELECT count(*) FROM pg_stat_activity "
                                   "WHERE application_name = %s",
                                   [self.application_name]).fetchone()
                self.samples.append(int(row[0]) if row else 0)
                time.sleep(0.01)

    def stop(self) -> int:
        self.halt.set()
        self.join(timeout=10)
        return max(self.samples, default=0)


@pytest.mark.needs_postgresql
@pytest.mark.parametrize("kind", ["asgi", "gunicorn"])
@pytest.mark.django_db(transaction=True)
def test_200_concurrent_requests_stay_within_the_pool(kind):
    name = f"bp-bound-{uuid.uuid4().hex[:8]}"
    url = f"{_database_url()}?application_name={name}"
    dsn = url.replace("postgres://", "postgresql://", 1).split("?")[0]
    users = [UserFactory() for _ in range(2 * MATCHES)]
    tokens = [token_for(user) for user in users]
    server = ApiServer(kind, url, env={"DB_POOL_MIN_SIZE": "2",
                                       "DB_POOL_MAX_SIZE": str(POOL_MAX),
                                       "DB_POOL_TIMEOUT": "60"}).start()
    try:
        base = server.url
        matches = []
        for index in range(MATCHES):
            a = HttpClient(base, tokens[2 * index])
            b = HttpClient(base, tokens[2 * index + 1])
            status, created = a.post("/api/matches", {"game": "nibble",
                                                      "config": {"first_seat": 0}})
            assert status == 201, created
            status, joined = b.post(f"/api/matches/{created['id']}/join")
            assert status == 200, joined
            status, detail = a.get(f"/api/matches/{created['id']}")
            assert status == 200, detail
            matches.append((a, created["id"], first_take(detail["legal_moves"])))

        calls = []
        for index in range(REQUESTS):
            if index % (REQUESTS // MATCHES) == 0 and matches:
                a, match_id, move = matches.pop()
                calls.append((a, "POST", f"/api/matches/{match_id}/moves", {"move": move}))
            else:
                client = HttpClient(base, tokens[index % len(tokens)])
                calls.append((client, "GET", "/api/me", None))
        assert len([c for c in calls if c[1] == "POST"]) == MATCHES

        sampler = Sampler(dsn, name)
        sampler.start()
        started = time.monotonic()
        answers = all_at_once(calls)
        elapsed = time.monotonic() - started
        time.sleep(1.0)  # and once the burst is over
        most = sampler.stop()
        after = backends(dsn, name)

        statuses = sorted({(method, status) for method, (status, _) in answers})
        assert statuses == [("GET", 200), ("POST", 201)], [
            (method, status, body) for method, (status, body) in answers
            if status not in (200, 201)][:5]
        print(f"\n{kind}: {REQUESTS} concurrent requests in {elapsed:.2f}s; PostgreSQL "
              f"connections: at most {most} during the burst (pool max {POOL_MAX}), {after} "
              "after it")
        assert 0 < most <= POOL_MAX
        assert after <= POOL_MAX
    finally:
        server.stop()
