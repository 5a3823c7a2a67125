"""Real servers for the integration tests: the API under uvicorn (ASGI) or gunicorn (WSGI) as a
subprocess, the live-update server of the long-poll and stream tests, a private PostgreSQL
instance a test may stop and start, PgBouncer and a reading of its pool all along, and a count of
the PostgreSQL connections a server holds.

The live-update server is Granian, as the events process is deployed (set up as the benchmarks
run it, ``games.benchmarks.servers``), or uvicorn with ``BOARDPOST_LIVE_SERVER=uvicorn``, so that
every live test can be run under either."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import psycopg
from django.conf import settings
from prometheus_client.parser import text_string_to_metric_families

from games.benchmarks.servers import ASGI_SERVERS, asgi_command, worker_pid
from tests.integration.conftest import (
    ROOT,
    ServerDatabase,
    database_env,
    stop_group,
    wait_until,
)

LIVE_SERVER = os.environ.get("BOARDPOST_LIVE_SERVER", "granian")
if LIVE_SERVER not in ASGI_SERVERS:
    raise ValueError(f"BOARDPOST_LIVE_SERVER must be one of {ASGI_SERVERS}, not {LIVE_SERVER}")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def asgi_server_command(port: int, backlog: int = 2048) -> list[str]:
    """``config.asgi:application`` on 127.0.0.1:``port`` under the live tests' ASGI server."""
    if LIVE_SERVER == "uvicorn":
        return [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host",
                "127.0.0.1", "--port", str(port), "--no-access-log", "--log-level", "warning",
                "--backlog", str(backlog)]
    return asgi_command(LIVE_SERVER, "config.asgi:application", host="127.0.0.1", port=port,
                        backlog=backlog, concurrency=backlog)


class LiveServer:
    """The live-update server of the long-poll and stream tests: ``config.asgi:application``
    under the live tests' ASGI server on the test database (``database``: the session's way to
    it, or a URL), with Redis pub/sub as configured, the settings of ``settings_module``."""

    def __init__(self, database: ServerDatabase | str,
                 settings_module: str = "config.settings.test") -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = ROOT / "var" / f"{LIVE_SERVER}-live-{uuid.uuid4().hex[:6]}.log"
        self.log.parent.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": settings_module,
               **database_env(database), "EVENTS_REDIS_URL": settings.EVENTS_REDIS_URL,
               "THROTTLE_USER": "100000/min", "THROTTLE_ANON": "100000/min"}
        self.process = subprocess.Popen(asgi_server_command(self.port), cwd=ROOT, env=env,
                                        stdout=self.log.open("w"), stderr=subprocess.STDOUT)
        wait_until(self._accepts, timeout=60, interval=0.1,
                   message=f"{LIVE_SERVER} did not start")

    def _accepts(self) -> bool:
        if self.process.poll() is not None:
            raise RuntimeError(f"{LIVE_SERVER} exited:\n{self.log.read_text()}")
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
        except OSError:
            return False
        return worker_pid(self.process.pid, LIVE_SERVER) is not None

    def waiting(self, kind: str) -> float:
        """The live-update requests of ``kind`` (``longpoll``, ``stream``) waiting now in the
        server, as its ``/metrics`` counts them."""
        with urllib.request.urlopen(self.url + "/metrics", timeout=10) as response:
            text = response.read().decode()
        return sum(sample.value for family in text_string_to_metric_families(text)
                   for sample in family.samples
                   if sample.name == "boardpost_live_waiters"
                   and sample.labels.get("kind") == kind)

    def threads(self) -> int:
        """The threads of the process that serves (Granian's worker, not its master)."""
        pid = worker_pid(self.process.pid, LIVE_SERVER)
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("Threads:"):
                    return int(line.split()[1])
        raise AssertionError("no Threads line")

    def assert_lets_go(self, kind: str, connect: Callable[[], Any], count: int = 3) -> None:
        """``count`` clients opened by ``connect`` (anything with a ``close``) wait on the
        server as ``kind`` (``longpoll``, ``stream``), then go away: the server must count
        them waiting, then let them go within seconds, well before their wait would end."""
        before = self.waiting(kind)
        clients = [connect() for _ in range(count)]
        wait_until(lambda: self.waiting(kind) == before + count, timeout=10,
                   message=f"the {kind} clients never waited")
        for client in clients:
            client.close()
        wait_until(lambda: self.waiting(kind) == before, timeout=10,
                   message="the server did not see its clients go away")

    def stop(self) -> None:
        stop_process(self.process, self.log)


class ApiServer:
    """``config.asgi:application`` under the live tests' ASGI server (``kind`` "asgi": Granian,
    or uvicorn with BOARDPOST_LIVE_SERVER=uvicorn), or ``config.wsgi:application`` under
    gunicorn, on a free port of 127.0.0.1, on ``database`` (the session's way to the test
    database, or a URL), with the environment given (on top of the test settings with the
    connection pool on, Celery eager and throttles out of the way)."""

    def __init__(self, kind: str, database: ServerDatabase | str,
                 env: dict[str, str] | None = None, gunicorn_threads: int = 8) -> None:
        self.kind = kind
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = ROOT / "var" / f"{kind}-{uuid.uuid4().hex[:6]}.log"
        self.log.parent.mkdir(parents=True, exist_ok=True)
        self.env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test",
                    **database_env(database), "DB_POOL": "true",
                    "BOARDPOST_CELERY_EAGER": "true", "THROTTLE_USER": "1000000/min",
                    "THROTTLE_ANON": "1000000/min", "THROTTLE_REGISTER": "1000000/min",
                    "EVENTS_REDIS_URL": "", **(env or {})}
        if kind == "asgi":
            self.command = asgi_server_command(self.port, backlog=1024)
        elif kind == "gunicorn":
            self.command = [sys.executable, "-m", "gunicorn", "config.wsgi:application",
                            "--bind", f"127.0.0.1:{self.port}", "--workers", "1",
                            "--threads", str(gunicorn_threads), "--timeout", "60",
                            "--backlog", "1024"]
        else:
            raise ValueError(kind)
        self.process: subprocess.Popen | None = None

    def start(self) -> ApiServer:
        self.process = subprocess.Popen(self.command, cwd=ROOT, env=self.env,
                                        stdout=self.log.open("w"), stderr=subprocess.STDOUT)
        wait_until(self._live, timeout=60, interval=0.1, message=f"{self.kind} did not start")
        return self

    def _live(self) -> bool:
        assert self.process is not None
        if self.process.poll() is not None:
            raise RuntimeError(f"{self.kind} exited:\n{self.output()}")
        try:
            with urllib.request.urlopen(self.url + "/health/live", timeout=2) as response:
                return response.status == 200
        except OSError:
            return False

    def output(self) -> str:
        return self.log.read_text() if self.log.exists() else ""

    def stop(self) -> None:
        if self.process:
            stop_process(self.process, self.log)


def stop_process(process: subprocess.Popen, log: Path) -> None:
    """Stop a server (killed when it has not stopped 20 s after being told to) and drop its
    log."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    log.unlink(missing_ok=True)


def backends(dsn: str, application_name: str) -> int:
    """The PostgreSQL connections open under ``application_name`` (the server's)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
                           [application_name]).fetchone()
    return int(row[0]) if row else 0


def bouncer_backends(dsn: str, database: str, ports: list[int]) -> int:
    """PostgreSQL's backends on ``database`` that serve a PgBouncer's server connections: those
    whose client port is one of ``ports`` (the ``local_port`` of PgBouncer's ``SHOW SERVERS``).
    Other connections to the same database are not counted, nor one PgBouncer has just closed
    that PostgreSQL still lists for an instant while its replacement is up."""
    if not ports:
        return 0
    with psycopg.connect(dsn, autocommit=True) as conn:
        row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s "
                           "AND client_port = ANY(%s)", [database, ports]).fetchone()
    return int(row[0]) if row else 0


# --------------------------------------------------------------------------- private PostgreSQL

def postgres_bin() -> Path | None:
    """The newest PostgreSQL server binaries installed, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda path: int(Path(path).parent.parent.name)
                   if Path(path).parent.parent.name.isdigit() else 0)
    return Path(found[-1]).parent if found else None


class PrivatePostgres:
    """A PostgreSQL instance of the test's own, in a temporary directory, on a free port, with
    trust authentication: a test may stop and start it without disturbing anyone. Run as the
    ``postgres`` OS user when the test runs as root (initdb refuses root)."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="bp-pg-"))
        self.data = self.root / "data"
        self.logfile = self.root / "postgres.log"
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]

    @property
    def dsn(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run([*self.as_user, *args], capture_output=True, text=True,
                              timeout=120, check=check)

    def init(self) -> PrivatePostgres:
        self._run(str(self.bindir / "initdb"), "-D", str(self.data), "-U", "postgres",
                  "--auth=trust", "--no-sync", "-E", "UTF8")
        return self

    def replica_of(self, primary: PrivatePostgres) -> PrivatePostgres:
        """Make this instance a streaming replica of ``primary``: a base backup taken with
        ``pg_basebackup -R`` (which writes the standby's connection settings), started as a hot
        standby that replays what the primary streams."""
        self._run(str(self.bindir / "pg_basebackup"), "-D", str(self.data), "-h", "127.0.0.1",
                  "-p", str(primary.port), "-U", "postgres", "-X", "stream", "-R",
                  "--checkpoint=fast", "--no-sync")
        return self

    def sql(self, query: str, database: str = "postgres") -> list[tuple]:
        with psycopg.connect(self.url(database).replace("postgres://", "postgresql://", 1),
                             autocommit=True) as conn:
            cursor = conn.execute(query)
            return cursor.fetchall() if cursor.description else []

    def start(self) -> None:
        options = (f"-p {self.port} -c listen_addresses=127.0.0.1 "
                   f"-c unix_socket_directories={self.root} -c max_connections=50 "
                   "-c fsync=off")
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-l", str(self.logfile),
                  "-o", options, "-w", "-t", "60", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w",
                  "stop", check=False)

    def create_database(self, name: str) -> None:
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')

    def destroy(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)

    def log(self) -> str:
        return self.logfile.read_text() if self.logfile.exists() else ""


def wait_for_port(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"nothing listens on port {port}")


# --------------------------------------------------------------------------- PgBouncer

class PgBouncer:
    """PgBouncer in transaction mode, started by the compose service's own script
    (``docker/start-pgbouncer.sh``) on a free port of 127.0.0.1, in front of the PostgreSQL at
    ``server_port``; as the ``postgres`` OS user when the test runs as root (PgBouncer refuses
    root). Its admin console answers ``SHOW POOLS`` and the like (:meth:`show`)."""

    SCRIPT = ROOT / "docker" / "start-pgbouncer.sh"

    def __init__(self, server_port: int, pool_size: int = 4, query_wait_timeout: int = 5,
                 env: dict[str, str] | None = None, server_host: str = "127.0.0.1",
                 user: str = "postgres", password: str = "") -> None:
        self.port = free_port()
        self.pool_size = pool_size
        self.user, self.password = user, password
        self.root = Path(tempfile.mkdtemp(prefix="bp-pgbouncer-"))
        self.logfile = self.root / "pgbouncer.log"
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.env = {"PATH": f"{os.environ.get('PATH', '/usr/bin:/bin')}:/usr/sbin",
                    "PORT": str(self.port),
                    "BIND_ADDRESS": "127.0.0.1", "PGBOUNCER_DIR": str(self.root),
                    "POSTGRES_HOST": server_host, "POSTGRES_PORT": str(server_port),
                    "POSTGRES_USER": user, "POSTGRES_PASSWORD": password,
                    "PGBOUNCER_POOL_SIZE": str(pool_size),
                    "PGBOUNCER_MAX_CLIENT_CONN": "1000",
                    "PGBOUNCER_QUERY_WAIT_TIMEOUT": str(query_wait_timeout), **(env or {})}
        self.process: subprocess.Popen | None = None

    def url(self, database: str) -> str:
        auth = f"{quote(self.user)}:{quote(self.password)}" if self.password else quote(self.user)
        return f"postgres://{auth}@127.0.0.1:{self.port}/{database}"

    def start(self) -> PgBouncer:
        self.process = subprocess.Popen(
            [*self.as_user, "env", *(f"{k}={v}" for k, v in self.env.items()), "bash",
             str(self.SCRIPT)], cwd=self.root, stdout=self.logfile.open("w"),
            stderr=subprocess.STDOUT, start_new_session=True)
        wait_for_port(self.port)
        return self

    def show(self, what: str) -> list[dict]:
        """``SHOW <what>`` on the admin console, one dict a row."""
        with self.console() as conn:
            return show(conn, what)

    def console(self) -> psycopg.Connection:
        """A connection to the admin console (the ``pgbouncer`` database), which takes no
        prepared statement: a query run many times on it stays unprepared."""
        return psycopg.connect(self.url("pgbouncer").replace("postgres://", "postgresql://", 1),
                               autocommit=True, prepare_threshold=None)

    def pool(self, database: str) -> dict:
        """The pool of ``database``: its clients (``cl_*``) and server connections (``sv_*``)."""
        for row in self.show("POOLS"):
            if row["database"] == database:
                return row
        return {}

    def log(self) -> str:
        return self.logfile.read_text() if self.logfile.exists() else ""

    def stop(self) -> None:
        stop_group(self.process)
        shutil.rmtree(self.root, ignore_errors=True)


def show(conn: psycopg.Connection, what: str) -> list[dict]:
    """``SHOW <what>`` on a connection to PgBouncer's admin console, one dict a row."""
    cursor = conn.execute(f"SHOW {what}")
    names = [column.name for column in cursor.description or []]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


# SHOW POOLS's columns: the client connections a pool holds (linked to a server connection, or
# idle, or waiting for one) and its server connections to PostgreSQL, in every state.
CLIENT_STATES = ("cl_active", "cl_waiting")
SERVER_STATES = ("sv_active", "sv_idle", "sv_used", "sv_tested", "sv_login")


class PoolWatch(threading.Thread):
    """The pool of ``database`` on a PgBouncer, read from its admin console (``SHOW POOLS``)
    every ``interval`` seconds until stopped: the most client connections the processes held at
    once, the most server connections PgBouncer had open to PostgreSQL, and every reading with
    more server connections than the pool's size."""

    def __init__(self, bouncer: PgBouncer, database: str, interval: float = 0.1) -> None:
        super().__init__(daemon=True, name="pgbouncer-pool-watch")
        self.bouncer, self.database, self.interval = bouncer, database, interval
        self.readings = 0
        self.most_clients = 0
        self.servers_at_most_clients = 0
        self.most_servers = 0
        self.longest_wait = 0.0  # seconds a client waited for a server connection
        self.over_the_pool: list[tuple[int, int]] = []  # (clients, servers)
        self.errors: list[str] = []
        self.halt = threading.Event()

    def run(self) -> None:
        conn: psycopg.Connection | None = None
        while not self.halt.wait(self.interval):
            try:
                if conn is None or conn.closed:
                    conn = self.bouncer.console()
                self.record(show(conn, "POOLS"))
            except psycopg.Error as error:
                self.errors.append(str(error).strip())
                conn = None
        if conn is not None:
            conn.close()

    def record(self, pools: list[dict]) -> None:
        row = next((row for row in pools if row["database"] == self.database), None)
        if row is None:
            return
        clients = sum(int(row[name]) for name in CLIENT_STATES)
        servers = sum(int(row[name]) for name in SERVER_STATES)
        self.readings += 1
        if clients > self.most_clients:
            self.most_clients, self.servers_at_most_clients = clients, servers
        self.most_servers = max(self.most_servers, servers)
        self.longest_wait = max(self.longest_wait,
                                int(row["maxwait"]) + int(row.get("maxwait_us", 0)) / 1e6)
        if servers > self.bouncer.pool_size:
            self.over_the_pool.append((clients, servers))

    def stop(self) -> None:
        self.halt.set()
        self.join(timeout=10)
