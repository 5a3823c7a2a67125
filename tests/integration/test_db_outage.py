"""PostgreSQL stops for a few seconds while clients play moves: the API answers 503
service_unavailable with Retry-After (never a 500) while it is away, recovers by itself when it
is back, and every move it acknowledged (201) is in the database.

The test runs its own PostgreSQL instance (initdb into a temporary directory, on a free port),
never the machine's shared one, and the API (uvicorn, then gunicorn) with the connection pool
against it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from typing import Any

import psycopg
import pytest

from tests.integration.conftest import ROOT, wait_until
from tests.integration.servers import ApiServer, PrivatePostgres, postgres_bin

pytestmark = pytest.mark.integration

CLIENTS = 4
OUTAGE_SECONDS = 4.0
RETRY_AFTER = 2


def call(base: str, method: str, path: str, token: str | None = None,
         body: Any = None) -> tuple[int, dict[str, str], Any]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Token {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            raw = response.read()
            return response.status, response.headers, json.loads(raw) if raw else None
    except urllib.error.HTTPError as error:
        raw = error.read()
        return error.code, error.headers, json.loads(raw) if raw else None


@dataclass(eq=False)
class Player(threading.Thread):
    """Plays Nibble matches between two accounts of its own, move after move, until stopped;
    remembers every answer and every acknowledged move."""

    base: str
    tokens: tuple[str, str]
    acknowledged: list[tuple[str, int]] = field(default_factory=list)
    answers: list[tuple[float, str, int, dict[str, str], Any]] = field(default_factory=list)
    halt: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        threading.Thread.__init__(self, daemon=True)

    def request(self, method: str, path: str, token: str, body: Any = None):
        status, headers, answer = call(self.base, method, path, token, body)
        self.answers.append((time.monotonic(), f"{method} {path}", status, headers, answer))
        if status >= 500:
            time.sleep(0.2)
        return status, answer

    def new_match(self) -> str | None:
        a, b = self.tokens
        status, created = self.request("POST", "/api/matches", a,
                                       {"game": "nibble", "config": {"first_seat": 0}})
        if status != 201:
            return None
        status, _ = self.request("POST", f"/api/matches/{created['id']}/join", b)
        return created["id"] if status == 200 else None

    def run(self) -> None:
        match_id: str | None = None
        while not self.halt.is_set():
            if match_id is None:
                match_id = self.new_match()
                continue
            detail = None
            for token in self.tokens:
                status, answer = self.request("GET", f"/api/matches/{match_id}", token)
                if status != 200:
                    break
                if answer["status"] != "active":
                    match_id = None
                    break
                if answer["is_your_turn"]:
                    detail = (token, answer)
                    break
            if detail is None:
                continue
            token, answer = detail
            takeable = answer["legal_moves"]["takeable"]
            colour = sorted(takeable, key=int)[0]
            status, moved = self.request("POST", f"/api/matches/{match_id}/moves", token, {
                "move": {"take": [takeable[colour][0]]}, "expected_version": answer["version"]})
            if status == 201:
                self.acknowledged.append((match_id, moved["seq"]))


def private_postgres_or_skip() -> PrivatePostgres:
    bindir = postgres_bin()
    if bindir is None:
        pytest.skip("no PostgreSQL server binaries (initdb) under /usr/lib/postgresql")
    if os.geteuid() == 0 and (shutil.which("runuser") is None or not _has_user("postgres")):
        pytest.skip("initdb refuses root and there is no postgres user to run it as")
    return PrivatePostgres(bindir)


def _has_user(name: str) -> bool:
    import pwd
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def server_errors(log: str) -> list[str]:
    """Each error a server logged with its traceback (JSON lines): its message and the last
    lines of the traceback."""
    found = []
    for line in log.splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict) and entry.get("exc_info"):
            found.append(f"{entry.get('message')}\n" +
                         "\n".join(str(entry["exc_info"]).splitlines()[-6:]))
    return found


def migrated(pg: PrivatePostgres, database: str = "boardpost") -> str:
    """A new database on ``pg`` with every migration applied; its URL."""
    pg.create_database(database)
    url = pg.url(database)
    migrate = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test",
             "DATABASE_URL": url, "DB_POOL": "false"},
        capture_output=True, text=True, timeout=300)
    assert migrate.returncode == 0, migrate.stderr
    return url


def play_through_an_outage(pg: PrivatePostgres, server: ApiServer, url: str) -> str:
    """CLIENTS players play on ``server`` while ``pg`` stops for OUTAGE_SECONDS and starts
    again: every answer during the outage is 503 with Retry-After (never a 500), play resumes by
    itself, and every acknowledged move is stored in the database at ``url``. Returns what was
    seen, in one line."""
    players = []
    for index in range(CLIENTS):
        tokens = []
        for side in "ab":
            status, _, body = call(server.url, "POST", "/api/auth/register", body={
                "username": f"p{index}{side}{uuid.uuid4().hex[:6]}",
                "password": "outage-test-pass-77"})
            assert status == 201, body
            tokens.append(body["token"])
        players.append(Player(server.url, (tokens[0], tokens[1])))
    for player in players:
        player.start()

    def acknowledged() -> int:
        return sum(len(player.acknowledged) for player in players)

    wait_until(lambda: acknowledged() >= 5 * CLIENTS, timeout=120,
               message="the players made no moves before the outage")
    before = acknowledged()
    down_at = time.monotonic()
    pg.stop("fast")
    time.sleep(OUTAGE_SECONDS)
    pg.start()
    up_at = time.monotonic()
    during = acknowledged()

    def first_move_after_restart() -> float | None:
        times = [answered for player in players
                 for answered, what, status, _, _ in player.answers
                 if answered > up_at and status == 201 and what.endswith("/moves")]
        return min(times) if times else None

    recovered = wait_until(first_move_after_restart, timeout=60,
                           message="no move was acknowledged after PostgreSQL came back")
    wait_until(lambda: acknowledged() >= during + 5 * CLIENTS, timeout=120,
               message="the players did not go on playing after the outage")
    for player in players:
        player.halt.set()
    for player in players:
        player.join(timeout=60)

    answers = [answer for player in players for answer in player.answers]
    errors = [(what, status, body) for _, what, status, _, body in answers
              if status >= 500 and status != 503]
    if errors:
        pytest.fail(f"answers 5xx but 503: {errors[:5]}\nthe server's errors:\n"
                    + "\n".join(server_errors(server.output())[-3:]), pytrace=False)
    unavailable = [(headers, body) for answered, _, status, headers, body in answers
                   if status == 503]
    assert unavailable, "no request noticed the outage"
    for headers, body in unavailable:
        assert headers.get("Retry-After") == str(RETRY_AFTER), headers
        assert body == {"code": "service_unavailable", "message": body["message"],
                        "extra": {"retry_after": RETRY_AFTER}}, body
    in_outage = [answered for answered, _, status, _, _ in answers
                 if down_at <= answered <= up_at]
    assert in_outage, "no request was answered during the outage"

    # No acknowledged move is lost.
    moves = [move for player in players for move in player.acknowledged]
    with psycopg.connect(url.replace("postgres://", "postgresql://", 1)) as conn:
        stored = {(str(match_id), seq) for match_id, seq in conn.execute(
            "SELECT match_id, seq FROM games_move")}
    missing = [move for move in moves if move not in stored]
    assert not missing, missing[:5]
    return (f"outage of {OUTAGE_SECONDS:.0f}s: {len(unavailable)} answers 503, none 500; "
            f"{before} moves acknowledged before, {len(moves)} in all, none lost; the first "
            f"move after PostgreSQL was back came {recovered - up_at:.2f}s after its restart")


SERVER_POOL = {"DB_POOL_MIN_SIZE": "2", "DB_POOL_MAX_SIZE": "8", "DB_POOL_TIMEOUT": "2",
               "DB_RETRY_AFTER_SECONDS": str(RETRY_AFTER)}


@pytest.mark.parametrize("kind", ["asgi", "gunicorn"])
def test_a_database_outage_answers_503_loses_no_acknowledged_move_and_recovers(kind):
    pg = private_postgres_or_skip()
    server = None
    try:
        pg.init().start()
        url = migrated(pg)
        server = ApiServer(kind, url, env=SERVER_POOL).start()
        seen = play_through_an_outage(pg, server, url)
        logged = len(re.findall("The database is unavailable", server.output()))
        print(f"\n{kind}: {seen}; the outage was logged {logged} time(s)")
        assert 1 <= logged <= 2
    finally:
        if server is not None:
            server.stop()
        pg.destroy()
