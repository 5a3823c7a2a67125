"""Scaling out on one machine: the docker compose services, two of each, on one PostgreSQL and
one Redis, started the way their containers start them.

Each process runs the image's entry point and the service's ``command`` as named in
``docker/compose.yaml`` (``/usr/local/bin/X`` is ``docker/X`` here, which the Dockerfile copies
there), with the image's environment (the Dockerfile's ``ENV``, so the production settings) and
the service's ``environment`` from the compose file, interpolated as compose would. Only what
this machine differs in is changed: the host names of PostgreSQL and Redis, a database of the
test's own, one Redis database for the broker, the cache and the wake-ups, free ports on
127.0.0.1, one process per server, and throttles out of the way of many clients on one address.
The compose ``migrate`` service runs once; then two ``web`` (gunicorn), two ``events`` (Granian)
and two ``worker`` (Celery) processes start side by side and must pass the compose health checks.

Clients are spread over the servers, and the guarantees hold across them: moves made through
either web server wake long-polls and streams on either events server; racing clients on both
web servers leave every move log numbered 1..n without a gap; each Nimalia round is scored once,
by whichever worker took the task; both workers play bots. Metrics are collected as the compose
file wires them: each "container" has a multiprocess directory of its own, a web server's
``/metrics`` (behind ``METRICS_TOKEN``) adds up its two gunicorn workers, and each Celery worker
answers for its task series on ``CELERY_METRICS_PORT``.

``SCALE_OUT_MATCHES`` (default 4) sets how many matches race at once and how many bot matches are
played (``make scale-out`` runs the same test with more).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest
import yaml
from django.conf import settings
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.parser import text_string_to_metric_families

from config.celery_app import app as celery_app
from tests.conftest import skip_unless
from tests.games.helpers import first_nibble_take
from tests.integration.conftest import (
    ROOT,
    holds_for,
    pgbouncer_installed,
    queue_env,
    wait_until,
)
from tests.integration.http import HttpClient, register
from tests.integration.servers import bouncer_backends, free_port, show
from tests.integration.test_bots_worker import human_move
from tests.integration.test_longpoll import Waiter
from tests.integration.test_streams import Stream

DOCKER = ROOT / "docker"
COMPOSE_FILE = DOCKER / "compose.yaml"
DOCKERFILE = DOCKER / "Dockerfile"
MATCHES = int(os.environ.get("SCALE_OUT_MATCHES", "4"))
# PgBouncer's server connections for the run's database, whatever the processes hold.
BOUNCER_POOL = 6


# =========================================================================== the compose file

def compose() -> dict[str, Any]:
    with COMPOSE_FILE.open() as stream:
        return yaml.safe_load(stream)


_VARIABLE = re.compile(r"\$(?:\$|\{(?P<name>\w+)(?:(?P<op>:?[-?])(?P<arg>[^}]*))?\})")


def interpolate(value: str, env: dict[str, str]) -> str:
    """A compose value with ``${NAME}``, ``${NAME:-default}``, ``${NAME-default}``,
    ``${NAME:?message}`` and ``$$`` resolved against ``env``, as compose does."""

    def resolve(match: re.Match[str]) -> str:
        if match.group(0) == "$$":
            return "$"
        name, op, arg = match.group("name"), match.group("op"), match.group("arg")
        present = env.get(name)
        if op in (":-", ":?") and not present:
            present = None
        if present is not None:
            return present
        if op in (":?", "?"):
            raise AssertionError(f"compose needs {name}: {arg}")
        return arg or ""

    return _VARIABLE.sub(resolve, value)


def image_environment() -> dict[str, str]:
    """The Dockerfile's ``ENV`` instructions."""
    text = DOCKERFILE.read_text().replace("\\\n", " ")
    env: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("ENV "):
            for pair in shlex.split(line[4:]):
                name, _, value = pair.partition("=")
                env[name] = value
    return env


def image_entrypoint() -> list[str]:
    (line,) = [line for line in DOCKERFILE.read_text().splitlines()
               if line.startswith("ENTRYPOINT ")]
    return json.loads(line[len("ENTRYPOINT "):])


def local_script(path: str) -> Path:
    """The file of this checkout that the image holds at ``path`` (``/usr/local/bin/X``)."""
    name = Path(path).name
    copied = DOCKERFILE.read_text().replace("\\\n", " ")
    assert f"docker/{name}" in copied and "/usr/local/bin/" in copied, (
        f"{path}: the Dockerfile does not copy docker/{name} into the image")
    script = DOCKER / name
    assert script.exists(), script
    return script


def service_argv(service: str) -> list[str]:
    """What the container of ``service`` runs: the image's entry point, then its command."""
    command = compose()["services"][service]["command"]
    parts = command if isinstance(command, list) else shlex.split(command)
    return [str(local_script(part)) if part.startswith("/usr/local/bin/") else part
            for part in [*image_entrypoint(), *parts]]


def service_environment(service: str, env: dict[str, str]) -> dict[str, str]:
    """The service's ``environment``, interpolated against ``env`` (the shell compose runs in)."""
    raw = compose()["services"][service].get("environment", {})
    return {name: interpolate(str(value), env) for name, value in raw.items()}


# --------------------------------------------------------------------------- linted

def _tool(name: str) -> str:
    path = Path(sys.executable).with_name(name)
    if not path.exists():
        pytest.skip(f"{name} is not installed (pip install -e '.[test]')")
    return str(path)


def compose_lint(path: Path) -> subprocess.CompletedProcess:
    """The Compose Specification's JSON schema (vendored by check-jsonschema) against ``path``."""
    return subprocess.run([_tool("check-jsonschema"), "--builtin-schema", "vendor.compose-spec",
                           str(path)], capture_output=True, text=True, timeout=120)


def test_the_compose_file_follows_the_compose_specification(tmp_path):
    checked = compose_lint(COMPOSE_FILE)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    # The check is live: a file that breaks the specification fails it.
    broken = tmp_path / "compose.yaml"
    for wrong, right in [("condition: service_completed_successfully", "condition: completed"),
                         ("command: /usr/local/bin/start-web.sh", "cmd: start-web.sh")]:
        broken.write_text(COMPOSE_FILE.read_text().replace(wrong, right))
        checked = compose_lint(broken)
        assert checked.returncode != 0, (right, checked.stdout)
        assert right.split(":")[0 if right.startswith("cmd") else 1].strip() in checked.stdout


def test_every_service_runs_a_start_script_of_this_tree_that_the_scale_test_runs():
    services = compose()["services"]
    # What compose resolves: every dependency is a service; the secret key must be given.
    for name, spec in services.items():
        assert set(spec.get("depends_on", {})) <= set(services), name
    with pytest.raises(AssertionError, match="DJANGO_SECRET_KEY"):
        service_environment("web", {})
    assert service_environment("web", {"DJANGO_SECRET_KEY": "k"})["DJANGO_SECRET_KEY"] == "k"
    # The long-running services wait for the one-shot migrations, which nothing else runs.
    assert services["migrate"]["restart"] == "no"
    commands = {name: service_argv(name) for name, spec in services.items() if "command" in spec}
    assert {"migrate", "web", "events", "worker", "beat"} <= set(commands)
    for name in set(commands) - {"migrate", "pgbouncer"}:
        assert services[name]["depends_on"]["migrate"] == {
            "condition": "service_completed_successfully"}, name
        # Every process but the migrations reaches PostgreSQL through PgBouncer.
        assert set(services[name]["depends_on"]) >= {"pgbouncer"}, name
        assert service_environment(name, {"DJANGO_SECRET_KEY": "k"})["DATABASE_POOLER"] == (
            "pgbouncer"), name
    assert services["pgbouncer"]["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    assert service_environment("migrate", {"DJANGO_SECRET_KEY": "k"})["DATABASE_POOLER"] == ""
    for argv in commands.values():
        assert argv[0] == str(DOCKER / "entrypoint.sh")
        for script in argv[:2]:
            assert os.access(script, os.X_OK), f"{script} is not executable"
    scripts = sorted(str(path) for path in DOCKER.glob("*.sh"))
    assert scripts == sorted({part for argv in commands.values() for part in argv[:2]})
    # The scripts the postgres image runs, mounted from docker/postgres/ (the replica's).
    mounted = [COMPOSE_FILE.parent / volume.split(":")[0] for spec in services.values()
               for volume in spec.get("volumes", []) if volume.startswith("./")]
    assert mounted and all(path.exists() and os.access(path, os.X_OK) for path in mounted)
    linted = subprocess.run([_tool("shellcheck"), *scripts, *map(str, mounted)],
                            capture_output=True, text=True, timeout=120)
    assert linted.returncode == 0, linted.stdout
    # The scale test starts each of its processes with this same argv (ServiceProcess).
    assert ServiceProcess("web", "web", {"PORT": "1"}).argv == commands["web"]
    assert "migrate" not in (DOCKER / "start-web.sh").read_text().replace(
        "start-migrate.sh", "")


# =========================================================================== the processes

def _redis_url() -> str:
    return str(settings.CELERY_BROKER_URL)


def settings_host() -> str:
    return str(settings.DATABASES["default"].get("HOST") or "127.0.0.1")


def settings_port() -> str:
    return str(settings.DATABASES["default"].get("PORT") or 5432)


def settings_user() -> str:
    return str(settings.DATABASES["default"].get("USER") or "postgres")


def _server_url(database: str) -> str:
    params = settings.DATABASES["default"]
    auth = params.get("USER") or "postgres"
    if params.get("PASSWORD"):
        auth += f":{params['PASSWORD']}"
    return (f"postgres://{auth}@{params.get('HOST') or '127.0.0.1'}:"
            f"{params.get('PORT') or 5432}/{database}")


class ServiceProcess:
    """One container of a compose service, as a process of this machine."""

    def __init__(self, service: str, name: str, env: dict[str, str]) -> None:
        self.service, self.name = service, name
        self.argv = service_argv(service)
        if service == "pgbouncer" and os.geteuid() == 0:
            # The image runs as a user of its own; PgBouncer refuses to run as root.
            self.argv = ["runuser", "-u", "postgres", "--", *self.argv]
        self.env = env
        self.port = int(env["PORT"]) if "PORT" in env else 0
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = ROOT / "var" / f"scale-{name}-{uuid.uuid4().hex[:6]}.log"
        self.process: subprocess.Popen | None = None
        self.last_check = ""

    def start(self) -> ServiceProcess:
        self.log.parent.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(self.argv, cwd=ROOT, env=self.env,
                                        stdout=self.log.open("w"), stderr=subprocess.STDOUT,
                                        start_new_session=True)
        return self

    def run(self, timeout: float = 600) -> None:
        """Run to the end (a one-shot service); fail with its output unless it exits 0."""
        self.start()
        assert self.process is not None
        try:
            code = self.process.wait(timeout=timeout)
        finally:
            self.stop()
        assert code == 0, f"{self.name} exited {code}:\n{self.output()}"

    def healthy(self) -> bool:
        """The compose health check of the service, run as the container runs it."""
        assert self.process is not None
        if self.process.poll() is not None:
            raise RuntimeError(f"{self.name} exited:\n{self.output()}")
        test = compose()["services"][self.service]["healthcheck"]["test"]
        if test[0] == "CMD-SHELL":
            argv = ["/bin/sh", "-c", test[1].replace("$$", "$")]
        else:
            argv = [str(local_script(part)) if part.startswith("/usr/local/bin/")
                    else re.sub(r"//127\.0\.0\.1:\d+/", f"//127.0.0.1:{self.port}/", part)
                    for part in test[1:]]
        try:
            checked = subprocess.run(argv, cwd=ROOT, env=self.env, capture_output=True,
                                     text=True, timeout=30)
        except subprocess.TimeoutExpired:
            self.last_check = "the health check timed out"
            return False
        self.last_check = (checked.stdout + checked.stderr)[-2000:]
        return checked.returncode == 0

    def wait_healthy(self, timeout: float = 180) -> None:
        try:
            wait_until(self.healthy, timeout=timeout, interval=1)
        except AssertionError:
            raise AssertionError(
                f"{self.name} never passed its compose health check: {self.last_check}\n"
                f"its output ends:\n{self.output()[-3000:]}") from None

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def stop(self) -> None:
        """SIGTERM to the process the script exec'd, as ``docker stop`` sends it: gunicorn,
        Granian and Celery then finish what they are doing (a signal to the whole group would
        kill a Celery pool process mid-task); the whole group is killed if that takes long."""
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)


@dataclass
class Cluster:
    database_url: str
    web: list[ServiceProcess]
    events: list[ServiceProcess]
    workers: list[ServiceProcess]
    steps: list[ServiceProcess]
    bouncer: ServiceProcess
    serial: list[int] = field(default_factory=lambda: [0])

    def database(self) -> str:
        return self.database_url.rsplit("/", 1)[1]

    def server_connections(self) -> int:
        """PostgreSQL's backends serving the cluster's PgBouncer on the run's database: those
        whose client port is one of PgBouncer's server connections (the test session's other
        connections to the same database, its own PgBouncer's among them, are not the
        cluster's)."""
        return bouncer_backends(
            self.database_url.replace("postgres://", "postgresql://", 1), self.database(),
            [row["local_port"] for row in self._bouncer_show("SERVERS")])

    def bouncer_clients(self) -> int:
        """Client connections PgBouncer holds for the run's database."""
        return len(self._bouncer_show("CLIENTS"))

    def _bouncer_show(self, what: str) -> list[dict]:
        """PgBouncer's SHOW ``what`` rows for the run's database."""
        with psycopg.connect(f"postgresql://{settings_user()}@127.0.0.1:{self.bouncer.port}/"
                             "pgbouncer", autocommit=True) as conn:
            rows = show(conn, what)
        return [row for row in rows if row["database"] == self.database()]

    def players(self, count: int, prefix: str) -> list[list[HttpClient]]:
        """``count`` new accounts, registered through alternate web servers; for each, one
        client per web server (the same token)."""
        self.serial[0] += 1
        players = []
        for index in range(count):
            server = self.web[index % len(self.web)]
            registered = register(server.url, f"{prefix}{self.serial[0]}x{index}")
            players.append([HttpClient(web.url, registered.token) for web in self.web])
        return players

    def sql(self, query: str, *params: Any) -> list[tuple]:
        with psycopg.connect(self.database_url.replace("postgres://", "postgresql://", 1),
                             autocommit=True) as conn:
            return conn.execute(query, params).fetchall()

    def move_logs(self, match_ids: list[str]) -> dict[str, list[int]]:
        rows = self.sql("SELECT match_id::text, array_agg(seq ORDER BY seq) FROM games_move "
                        "WHERE match_id::text = ANY(%s) GROUP BY match_id", match_ids)
        return {match_id: list(seqs) for match_id, seqs in rows}

    def assert_gap_free(self, match_ids: list[str]) -> dict[str, list[int]]:
        """Every match's log is numbered 1..n, n its version, with no gap and no repeat."""
        logs = self.move_logs(match_ids)
        versions = dict(self.sql("SELECT id::text, version FROM games_match "
                                 "WHERE id::text = ANY(%s)", match_ids))
        for match_id in match_ids:
            seqs = logs.get(match_id, [])
            assert seqs == list(range(1, len(seqs) + 1)), (match_id, seqs)
            assert versions[match_id] == len(seqs), (match_id, versions[match_id], len(seqs))
        return logs

    def tasks_run(self, worker: ServiceProcess) -> Counter[str]:
        """The tasks ``worker`` ran, by name (Celery's remote-control ``stats``)."""
        name = worker.env["WORKER_NAME"]
        replies = celery_app.control.inspect(destination=[name], timeout=5).stats() or {}
        return Counter(replies.get(name, {}).get("total", {}))


def _needs_services() -> None:
    skip_unless(postgresql=True, redis=True)
    for tool in ("bash", "pg_isready"):
        if subprocess.run(["which", tool], capture_output=True).returncode != 0:
            pytest.skip(f"the compose start scripts need {tool}")
    if not pgbouncer_installed():
        pytest.skip("the compose file's pgbouncer service needs PgBouncer (Debian's pgbouncer "
                    "package)")


@pytest.fixture(scope="module")
def cluster():
    _needs_services()
    database = f"bp_scale_{uuid.uuid4().hex[:10]}"
    admin_url = _server_url("postgres").replace("postgres://", "postgresql://", 1)
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{database}"')
    database_url = _server_url(database)
    queue = f"scale-{uuid.uuid4().hex[:8]}"
    queues = queue_env(queue)
    shell = {"DJANGO_SECRET_KEY": f"scale-out-{uuid.uuid4().hex}",
             # compose passes it from the shell (or .env) to every service.
             "METRICS_TOKEN": f"metrics-{uuid.uuid4().hex}"}
    local = {
        # This machine instead of the compose network: one PostgreSQL database of the test's
        # own, and one Redis database for the broker, the throttle cache and the wake-ups.
        "CELERY_BROKER_URL": _redis_url(),
        # No read replica here (tests/integration/test_replica.py runs one).
        "DATABASE_REPLICA_URL": "",
        "CACHE_URL": _redis_url(), "EVENTS_REDIS_URL": _redis_url(),
        # Tasks of this run only (other runs share the Redis database): queues of every kind
        # named after the run's.
        **queues,
        "BIND_ADDRESS": "127.0.0.1",
        # The image installs the application; here it is this checkout.
        "PYTHONPATH": str(ROOT),
        # Many clients come from one address here.
        "THROTTLE_USER": "1000000/min", "THROTTLE_ANON": "1000000/min",
        "THROTTLE_REGISTER": "1000000/min", "THROTTLE_LONGPOLL": "1000000/min",
        "MAX_ACTIVE_BOT_MATCHES": "1000",
        # One process per server (two servers of each kind stand for the processes; the web
        # servers get two, for their metrics), and a small pool each: the PostgreSQL of this
        # machine is shared.
        "WEB_CONCURRENCY": "1", "WEB_THREADS": "8", "EVENTS_WORKERS": "1",
        "WORKER_CONCURRENCY": "1", "EVENTS_OPEN_FILES": "4096",
        "DB_POOL_MIN_SIZE": "1",
    }
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    base = {**os.environ, **image_environment(), "PATH": path, **shell}

    metrics_dirs: list[Path] = []

    def env_of(service: str, **extra: str) -> dict[str, str]:
        # A metrics directory per process group, as each container has its own /tmp (the
        # compose value names the same path for every container).
        metrics_dirs.append(ROOT / "var" / f"scale-metrics-{queue}-{len(metrics_dirs)}")
        return {**base, **service_environment(service, shell), **local,
                "PROMETHEUS_MULTIPROC_DIR": str(metrics_dirs[-1]), **extra}

    # PgBouncer as the compose service runs it, in front of this machine's PostgreSQL; the
    # migrations go straight to PostgreSQL, everything else through PgBouncer.
    bouncer_port = free_port()
    bouncer_dir = tempfile.mkdtemp(prefix="bp-scale-pgbouncer-")
    if os.geteuid() == 0:
        shutil.chown(bouncer_dir, "postgres", "postgres")
    bouncer = ServiceProcess("pgbouncer", "pgbouncer", {
        **base, **service_environment("pgbouncer", shell), "PORT": str(bouncer_port),
        "BIND_ADDRESS": "127.0.0.1", "POSTGRES_HOST": settings_host(),
        "POSTGRES_PORT": settings_port(), "POSTGRES_USER": settings_user(),
        "POSTGRES_PASSWORD": str(settings.DATABASES["default"].get("PASSWORD") or ""),
        "PGBOUNCER_POOL_SIZE": str(BOUNCER_POOL),
        "PGBOUNCER_DIR": bouncer_dir})
    local["DATABASE_URL"] = (f"postgres://{settings_user()}@127.0.0.1:{bouncer_port}/"
                             f"{database}")
    migrate = ServiceProcess("migrate", "migrate", {**env_of("migrate"),
                                                    "DATABASE_URL": database_url})

    def worker(service: str, index: int) -> ServiceProcess:
        # The compose service's queues, named as this run's (queue_env); each worker's metrics
        # port, on this one machine a free one each.
        wanted = service_environment(service, shell)["WORKER_QUEUES"].split(",")
        names = {"celery": queue, "bots-deep": queues["BOTS_DEEP_QUEUE"]}
        return ServiceProcess(service, f"{service}{index}", env_of(
            service, WORKER_NAME=f"{service}{index}@{queue}",
            WORKER_QUEUES=",".join(names.get(name, f"{queue}.{name}") for name in wanted),
            CELERY_METRICS_PORT=str(free_port())))

    # Two bot workers and two step workers (each Nimalia round scored by either), one of each
    # other kind.
    workers = [worker("worker", 0), worker("worker", 1)]
    steps = [worker("worker-steps", 0), worker("worker-steps", 1)]
    others = [worker(service, 0) for service in
              ("worker-ratings", "worker-notifications", "worker-sweeps")]
    # Two gunicorn workers per web server, whose requests its /metrics adds up.
    web = [ServiceProcess("web", f"web{index}", env_of("web", PORT=str(free_port()),
                                                        WEB_CONCURRENCY="2"))
           for index in range(2)]
    events = [ServiceProcess("events", f"events{index}",
                             env_of("events", PORT=str(free_port()), DB_POOL_MAX_SIZE="4"))
              for index in range(2)]
    everything = [*workers, *steps, *others, *web, *events]
    started = False
    try:
        bouncer.start()
        bouncer.wait_healthy()
        migrate.run()
        for process in everything:
            process.start()
        for process in everything:
            process.wait_healthy()
        started = True
        yield Cluster(database_url, web, events, workers, steps, bouncer)
    finally:
        for process in everything:
            process.stop()
        bouncer.stop()
        shutil.rmtree(bouncer_dir, ignore_errors=True)
        everything.append(migrate)
        failures = [process.name for process in everything if "Traceback" in process.output()]
        for process in everything:
            if process.name not in failures:
                process.log.unlink(missing_ok=True)
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        for directory in metrics_dirs:
            shutil.rmtree(directory, ignore_errors=True)
        # A process that failed to start has failed the test already, with its output.
        assert not (started and failures), f"tracebacks in {failures} (logs in var/scale-*.log)"


# =========================================================================== helpers

def nibble_between(host: HttpClient, guest: HttpClient, guest_name: str) -> str:
    status, created = host.post("/api/matches", {
        "game": "nibble", "config": {"first_seat": 0}, "rated": False,
        "seats": [{"kind": "me"}, {"kind": "user", "username": guest_name}]})
    assert status == 201, created
    status, joined = guest.post(f"/api/matches/{created['id']}/join")
    assert status == 200 and joined["status"] == "active", joined
    return created["id"]


def username(client: HttpClient) -> str:
    status, me = client.get("/api/me")
    assert status == 200, me
    return me["username"]


def move_if_my_turn(client: HttpClient, match_id: str) -> tuple[str, int | None]:
    """Read the match through ``client``'s server and, on the player's turn, send a move with
    the version read; ("finished", None), ("waiting", None) or ("sent", status)."""
    status, detail = client.get(f"/api/matches/{match_id}")
    assert status == 200, detail
    if detail["status"] != "active":
        return "finished", None
    if not detail["is_your_turn"] or detail["legal_moves"] is None:
        return "waiting", None
    move = (first_nibble_take(detail["legal_moves"]) if detail["game"] == "nibble"
            else human_move(detail["game"], detail["legal_moves"]))
    if move is None:
        return "waiting", None
    status, body = client.post(f"/api/matches/{match_id}/moves",
                               {"move": move, "expected_version": detail["version"]})
    # A client racing its twin on the other server finds the version gone, or the match ended by
    # the twin's move: a coded 409.
    assert status == 201 or (status == 409 and body["code"] in {"stale_version", "game_over"}), (
        status, body)
    return "sent", status


# =========================================================================== the tests

@pytest.mark.integration
def test_moves_through_either_web_server_reach_waiters_on_either_events_server(cluster):
    (alice, bob) = cluster.players(2, "live")
    match_id = nibble_between(alice[0], bob[1], username(bob[0]))
    # Bob streams the match from events server A, alice from B.
    streams = {"bob": Stream(cluster.events[0], bob[0].token, f"/api/matches/{match_id}/stream"),
               "alice": Stream(cluster.events[1], alice[0].token,
                               f"/api/matches/{match_id}/stream")}
    try:
        for stream in streams.values():
            assert stream.status == 200
            assert stream.next_message()["id"] == "0"
        for seq in range(1, 5):
            # Seat 0 (alice) moves on odd numbers through web A, bob on even ones through B.
            mover = alice[0] if seq % 2 else bob[1]
            waiters = [Waiter(HttpClient(events.url, player[0].token),
                              f"/api/matches/{match_id}/events?after={seq - 1}&wait=30")
                       for events in cluster.events for player in (alice, bob)]
            for waiter in waiters:
                waiter.start()
            assert holds_for(lambda ws=waiters: all(w.is_alive() for w in ws), 0.5), (
                "a long-poll answered before the move")
            assert move_if_my_turn(mover, match_id) == ("sent", 201)
            for waiter in waiters:
                status, body = waiter.answer()
                assert status == 200 and [m["seq"] for m in body["moves"]] == [seq], body
            for stream in streams.values():
                message = stream.next_message()
                assert message is not None and message["id"] == str(seq), message
                assert [m["seq"] for m in message["data"]["moves"]] == [seq]
    finally:
        for stream in streams.values():
            stream.close()
    # The feed of the player to act wakes on either events server too.
    cursor = bob[0].get("/api/me/events")[1]["next_after"]
    feed = [Waiter(HttpClient(events.url, bob[0].token), f"/api/me/events?after={cursor}&wait=30")
            for events in cluster.events]
    for waiter in feed:
        waiter.start()
    assert holds_for(lambda: all(w.is_alive() for w in feed), 0.5)
    assert move_if_my_turn(alice[1], match_id) == ("sent", 201)
    for waiter in feed:
        status, body = waiter.answer()
        assert status == 200 and body["events"], body
        assert {event["match"] for event in body["events"]} == {match_id}
    cluster.assert_gap_free([match_id])


@pytest.mark.integration
def test_the_processes_hold_many_connections_to_pgbouncer_and_postgresql_serves_few(cluster):
    """Every web, events and worker process has its own pool of connections to PgBouncer; a
    burst of requests over all the servers keeps PostgreSQL's server connections within
    PgBouncer's pool while PgBouncer holds many more client connections."""
    players = cluster.players(8, "burst")
    # The web servers: as many clients at once as each has pooled connections (two gunicorn
    # workers, 4 each), so that none waits for its own pool. The events servers' pools are
    # their long-poll threads' (LONG_POLL_DB_THREADS), and hold their connections to PgBouncer
    # all along.
    servers = cluster.web
    clients = [HttpClient(server.url, player[0].token) for server in servers
               for player in players]
    servers_seen: list[int] = []
    clients_seen: list[int] = []
    halt = threading.Event()

    def sample() -> None:
        while not halt.is_set():
            servers_seen.append(cluster.server_connections())
            clients_seen.append(cluster.bouncer_clients())
            time.sleep(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    with ThreadPoolExecutor(len(clients)) as pool:
        answers = list(pool.map(lambda client: [client.get("/api/me")[0] for _ in range(10)],
                                clients))
    halt.set()
    sampler.join(timeout=10)
    assert {status for statuses in answers for status in statuses} == {200}
    print(f"\n{len(servers) + len(cluster.events)} servers and "
          f"{len(cluster.workers) + len(cluster.steps) + 3} "
          f"workers: PgBouncer held up to {max(clients_seen)} client connections, PostgreSQL "
          f"served up to {max(servers_seen)} (PgBouncer's pool: {BOUNCER_POOL})")
    assert 0 < max(servers_seen) <= BOUNCER_POOL
    assert max(clients_seen) > 2 * BOUNCER_POOL


@pytest.mark.integration
def test_racing_clients_on_both_web_servers_leave_gap_free_logs(cluster):
    """Each player plays from two clients at once, one per web server, each sending a move as
    soon as it sees the player's turn: the twins race for every move."""
    pairs = [cluster.players(2, "race") for _ in range(MATCHES)]
    matches = [nibble_between(host[index % 2], guest[(index + 1) % 2], username(guest[0]))
               for index, (host, guest) in enumerate(pairs)]
    created: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    errors: list[BaseException] = []
    lock = threading.Lock()

    def play(client: HttpClient, match_id: str) -> None:
        try:
            while True:
                state, status = move_if_my_turn(client, match_id)
                if state == "finished":
                    return
                if state == "sent":
                    with lock:
                        (created if status == 201 else refused)[match_id] += 1
                else:
                    time.sleep(0.01)
        except BaseException as error:  # noqa: BLE001 - reported by the test
            errors.append(error)

    threads = [threading.Thread(target=play, args=(client, match_id), daemon=True)
               for match_id, (host, guest) in zip(matches, pairs, strict=True)
               for client in (*host, *guest)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not errors, errors[0]
    assert not any(thread.is_alive() for thread in threads), "a match did not finish"
    logs = cluster.assert_gap_free(matches)
    for match_id in matches:
        # Every 201 is one move of the log and every move of the log one 201.
        assert len(logs[match_id]) == created[match_id]
    assert sum(refused.values()) > 0, "the twins never raced (no 409): nothing was shown"
    # The log reads the same through either web server.
    host = pairs[0][0]
    answers = [client.get(f"/api/matches/{matches[0]}/moves?limit=500")[1] for client in host]
    assert answers[0] == answers[1]


@pytest.mark.integration
def test_each_nimalia_round_is_scored_once_by_either_worker(cluster):
    players = cluster.players(2, "nim")
    names = [username(player[0]) for player in players]
    status, created = players[0][0].post("/api/matches", {
        "game": "nimalia", "config": {"objectives": "first_game"},
        "seats": [{"kind": "me"}, {"kind": "user", "username": names[1]}]})
    assert status == 201, created
    match_id = created["id"]
    assert players[1][1].post(f"/api/matches/{match_id}/join")[0] == 200
    before = [cluster.tasks_run(worker)["games.match_system_step_run"]
              for worker in cluster.steps]

    def step() -> bool:
        """Each seat to act moves through its own web server (seat 0 on A, seat 1 on B), then
        tries the other one; True once the match is finished."""
        states = set()
        for seat, player in enumerate(players):
            for client in (player[seat], player[1 - seat]):
                states.add(move_if_my_turn(client, match_id)[0])
        return states == {"finished"}

    wait_until(step, timeout=300, interval=0.05, message="the Nimalia match did not finish")
    cluster.assert_gap_free([match_id])
    rounds = cluster.sql("SELECT seq, events FROM games_move WHERE match_id::text = %s "
                         "AND kind = 'system' ORDER BY seq", match_id)
    assert len(rounds) == 5, rounds  # five rounds, each scored by one system move
    assert all(events[0]["type"] == "round_scored" for _, events in rounds)
    after = [cluster.tasks_run(worker)["games.match_system_step_run"]
             for worker in cluster.steps]
    assert sum(after) - sum(before) >= 5, (before, after)


@pytest.mark.integration
def test_both_workers_play_bots_and_the_logs_stay_gap_free(cluster):
    hosts = cluster.players(2, "bots")
    matches = []
    for index in range(2 * MATCHES):
        host = hosts[index % 2][index % 2]  # created through web A and web B in turn
        status, created = host.post("/api/matches", {
            "game": "nibble", "config": {}, "rated": False,
            "seats": [{"kind": "bot", "level": 1 + index % 2}, {"kind": "bot", "level": 2}]})
        assert status == 201, created
        matches.append(created["id"])
    # A person against a bot too, each move through the other web server.
    (person,) = cluster.players(1, "human")
    status, created = person[0].post("/api/matches", {
        "game": "nibble", "config": {}, "seats": [{"kind": "me"}, {"kind": "bot", "level": 2}]})
    assert status == 201, created
    matches.append(created["id"])
    turn = [0]

    def person_moves() -> bool:
        turn[0] += 1
        return move_if_my_turn(person[turn[0] % 2], created["id"])[0] == "finished"

    wait_until(person_moves, timeout=300, interval=0.05, message="the person's match hung")
    wait_until(lambda: cluster.sql("SELECT count(*) FROM games_match WHERE id::text = ANY(%s) "
                                   "AND status = 'finished'", matches)[0][0] == len(matches),
               timeout=300, interval=0.5, message="the bots' matches hung")
    cluster.assert_gap_free(matches)
    played = [cluster.tasks_run(worker)["games.match_bot_move_play"]
              for worker in cluster.workers]
    assert all(count > 0 for count in played), f"bot moves per worker: {played}"


# --------------------------------------------------------------------------- metrics

def scrape(url: str, token: str | None = None) -> dict[tuple[str, frozenset], float]:
    request = urllib.request.Request(url)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as response:
        text = response.read().decode()
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def metric(samples: dict, name: str, **labels: str) -> float:
    return sum(value for (got, have), value in samples.items()
               if got == name and set(labels.items()) <= have)


def per_process(directory: Path, name: str, **labels: str) -> dict[int, float]:
    """``name`` as each process of a server wrote it to the server's multiprocess directory."""
    counts = {}
    for path in directory.glob("counter_*.db"):
        families = MultiProcessCollector.merge([str(path)])
        samples = {(sample.name, frozenset(sample.labels.items())): sample.value
                   for family in families for sample in family.samples}
        counts[int(path.stem.rpartition("_")[2])] = metric(samples, name, **labels)
    return counts


@pytest.mark.integration
def test_metrics_add_up_a_servers_workers_and_each_worker_answers_for_its_tasks(cluster):
    web = cluster.web[0]
    token = web.env["METRICS_TOKEN"]
    assert token and web.env["WEB_CONCURRENCY"] == "2"
    # Production settings: no address is allowed, the token is needed.
    try:
        urllib.request.urlopen(web.url + "/metrics", timeout=30)
        raise AssertionError("/metrics answered without the token")
    except urllib.error.HTTPError as refused:
        assert refused.code == 401
        assert json.loads(refused.read())["code"] == "not_authenticated"
    counted = {"view": "health-live", "method": "GET", "status": "200"}
    before = metric(scrape(web.url + "/metrics", token), "boardpost_http_requests_total",
                    **counted)
    directory = Path(web.env["PROMETHEUS_MULTIPROC_DIR"])
    sent = [0]

    def live(_: int) -> None:
        with urllib.request.urlopen(web.url + "/health/live", timeout=30) as response:
            assert response.status == 200

    def both_workers_counted() -> bool:
        # Requests at once on fresh connections, which gunicorn's two workers share.
        with ThreadPoolExecutor(16) as pool:
            list(pool.map(live, range(32)))
        sent[0] += 32
        counts = per_process(directory, "boardpost_http_requests_total", **counted)
        return sum(1 for count in counts.values() if count > 0) >= 2

    wait_until(both_workers_counted, timeout=180, interval=0,
               message="one gunicorn worker took every request")
    samples = scrape(web.url + "/metrics", token)
    counts = per_process(directory, "boardpost_http_requests_total", **counted)
    # One scrape through either worker answers for both: every request counted once.
    assert metric(samples, "boardpost_http_requests_total", **counted) - before == sent[0]
    assert metric(samples, "boardpost_http_requests_total", **counted) == sum(counts.values())
    assert len(counts) == 2, counts  # the two workers; the master writes nothing
    # What the web server reads at scrape time about Celery: its queue's depth.
    queue = ("queue", web.env["CELERY_TASK_DEFAULT_QUEUE"])
    assert any(name == "boardpost_celery_queue_length" and queue in labels
               for name, labels in samples)

    # The task series live in the workers: a bot match, then each worker's own scrape.
    host = cluster.players(1, "metrics")[0][0]
    status, created = host.post("/api/matches", {
        "game": "nibble", "config": {}, "rated": False,
        "seats": [{"kind": "bot", "level": 1}, {"kind": "bot", "level": 1}]})
    assert status == 201, created
    wait_until(lambda: cluster.sql("SELECT status FROM games_match WHERE id::text = %s",
                                   created["id"])[0][0] == "finished",
               timeout=300, interval=0.5, message="the bots' match hung")
    bot_moves = cluster.sql("SELECT count(*) FROM games_move WHERE match_id::text = %s "
                            "AND kind = 'move'", created["id"])[0][0]  # all the bots'
    task = "games.match_bot_move_play"

    def workers_agree() -> list[tuple[float, float, float]] | None:
        """Each worker's metrics port counts the bot tasks its pool ran as Celery does."""
        counts = []
        for worker in cluster.workers:
            port = worker.env["CELERY_METRICS_PORT"]
            samples = scrape(f"http://127.0.0.1:{port}/metrics")
            counted = metric(samples, "boardpost_celery_tasks_total", task=task)
            if counted != cluster.tasks_run(worker)[task]:
                return None
            assert metric(samples, "boardpost_celery_task_seconds_count", task=task) == counted
            counts.append((counted, metric(samples, "boardpost_moves_total", game="nibble",
                                           kind="bot"),
                           metric(samples, "boardpost_bot_think_seconds_count", game="nibble",
                                  level="1")))
        return counts

    per_worker = wait_until(workers_agree, timeout=60,
                            message="a worker's metrics disagree with Celery's own count")
    tasks, moves, thoughts = (sum(column) for column in zip(*per_worker, strict=True))
    # This match's bot moves are among those counted (the earlier tests' bots' too).
    assert tasks >= moves >= bot_moves > 0 and thoughts >= bot_moves, (per_worker, bot_moves)
