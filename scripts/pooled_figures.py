"""`make pooled-figures`: moves per second, long-poll wake-ups and the database connections they
use with 1, 2 and 4 web processes, every process reaching PostgreSQL through PgBouncer in
transaction mode (started here by the compose service's own script, docker/start-pgbouncer.sh,
on a free port in front of DATABASE_URL's server).

For each number of gunicorn processes, ``manage.py bench_api`` (16 clients playing Nibble) runs
through PgBouncer while a sampler counts PostgreSQL's backends on the benchmark's database and
PgBouncer's client connections; then ``manage.py bench_longpoll`` (1,000 waiting clients on one
uvicorn process, one match watched by all) does the same. Prints each benchmark's own lines and
the most connections seen on each side, with the machine's load.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/boardpost_bench \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/4 python scripts/pooled_figures.py
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import SplitResult, urlsplit

import psycopg

ROOT = Path(__file__).resolve().parent.parent
POOL_SIZE = 8
SECONDS = 20


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Bouncer:
    """PgBouncer in front of ``server``, as the postgres OS user when run as root."""

    def __init__(self, server: SplitResult) -> None:
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="bp-figures-pgbouncer-")
        as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
            as_user = ["runuser", "-u", "postgres", "--"]
        settings = {"PORT": str(self.port), "BIND_ADDRESS": "127.0.0.1",
                    "PGBOUNCER_DIR": self.dir, "POSTGRES_HOST": server.hostname or "127.0.0.1",
                    "POSTGRES_PORT": str(server.port or 5432),
                    "POSTGRES_USER": server.username or "postgres",
                    "POSTGRES_PASSWORD": server.password or "",
                    "PGBOUNCER_POOL_SIZE": str(POOL_SIZE),
                    "PATH": f"{os.environ.get('PATH', '')}:/usr/sbin"}
        self.process = subprocess.Popen(
            [*as_user, "env", *(f"{k}={v}" for k, v in settings.items()), "bash",
             str(ROOT / "docker" / "start-pgbouncer.sh")], cwd=self.dir,
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        raise SystemExit("PgBouncer did not start")

    def clients(self, user: str, database: str) -> int:
        with psycopg.connect(f"postgresql://{user}@127.0.0.1:{self.port}/pgbouncer",
                             autocommit=True) as conn:
            cursor = conn.execute("SHOW CLIENTS")
            names = [column.name for column in cursor.description or []]
            return sum(1 for row in cursor.fetchall()
                       if dict(zip(names, row, strict=True))["database"] == database)

    def stop(self) -> None:
        os.killpg(self.process.pid, 15)
        self.process.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)


class Sampler(threading.Thread):
    def __init__(self, direct: str, bouncer: Bouncer, user: str, database: str) -> None:
        super().__init__(daemon=True)
        self.direct, self.bouncer, self.user, self.database = direct, bouncer, user, database
        self.servers = self.clients = 0
        self.halt = threading.Event()

    def run(self) -> None:
        with psycopg.connect(self.direct, autocommit=True) as conn:
            while not self.halt.is_set():
                row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s "
                                   "AND pid <> pg_backend_pid()", [self.database]).fetchone()
                self.servers = max(self.servers, int(row[0]) if row else 0)
                self.clients = max(self.clients, self.bouncer.clients(self.user, self.database))
                time.sleep(0.1)


def measured(title: str, command: list[str], env: dict[str, str], direct: str,
             bouncer: Bouncer, user: str, database: str) -> None:
    sampler = Sampler(direct, bouncer, user, database)
    sampler.start()
    output = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                            check=False)
    sampler.halt.set()
    sampler.join(timeout=10)
    print(f"== {title}: load {os.getloadavg()[0]:.1f}; PostgreSQL server connections at most "
          f"{sampler.servers} (PgBouncer's pool {POOL_SIZE}), PgBouncer clients at most "
          f"{sampler.clients}")
    print(output.stdout.strip())
    if output.returncode != 0:
        raise SystemExit(output.stderr[-3000:])


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", choices=["moves", "longpoll"],
                        help="run one of the two benchmarks")
    only = parser.parse_args(argv).only
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        raise SystemExit("set DATABASE_URL to a PostgreSQL database (and CELERY_BROKER_URL)")
    server = urlsplit(url)
    database, user = server.path.lstrip("/"), server.username or "postgres"
    direct = url.replace("postgres://", "postgresql://", 1)
    bouncer = Bouncer(server)
    auth = f"{user}:{server.password}@" if server.password else f"{user}@"
    env = {**os.environ, "DATABASE_URL": f"postgres://{auth}127.0.0.1:{bouncer.port}/{database}",
           "DATABASE_POOLER": "pgbouncer", "EVENTS_REDIS_URL": os.environ.get(
               "CELERY_BROKER_URL", "")}
    manage = [sys.executable, "manage.py"]
    try:
        for workers in (1, 2, 4) if only != "longpoll" else ():
            measured(f"bench_api, {workers} gunicorn process(es) through PgBouncer",
                     [*manage, "bench_api", "--clients", "16", "--workers", str(workers),
                      "--seconds", str(SECONDS), "--rounds", "1"],
                     env, direct, bouncer, user, database)
        if only != "moves":
            measured("bench_longpoll, 1,000 clients on one uvicorn process through PgBouncer",
                     [*manage, "bench_longpoll", "--clients", "1000", "--case", "broadcast"],
                     env, direct, bouncer, user, database)
    finally:
        bouncer.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
