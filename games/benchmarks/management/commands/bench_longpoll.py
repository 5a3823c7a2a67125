"""Live-update load test: thousands of clients wait at once on ONE uvicorn process, then moves
wake them.

The command starts one uvicorn process (``config.asgi:application``) per run, on a free port,
against the configured database and Redis (DATABASE_URL, EVENTS_REDIS_URL or a redis://
CELERY_BROKER_URL), opens the waiting clients over raw HTTP/1.1 sockets, waits until the server
has read every request and gone idle, then moves and measures. Two cases:

* ``broadcast``: one Nibble match watched by every client;
* ``matches``: ``--matches`` Nibble matches (default 100), the clients spread evenly over them,
  and every match moved at once (one connection per move, all sent together).

The moves go to a web server of their own (``--moves-to other``, default: a deployment's web
server takes the moves, its events server the waiting clients) or to the waiting clients' own
process (``--moves-to same``). That web server is, as deployed (``--web-server gunicorn``,
default), gunicorn with the web service's settings (``docker/gunicorn.conf.py``: 4 workers of 2
threads, ``WEB_CONCURRENCY`` and ``WEB_THREADS`` change them), Granian's WSGI interface with as
many workers and blocking threads and an access log too (``--web-server granian``), or one
uvicorn process (``--web-server uvicorn``), which runs Django's views one at a time in its one
thread for sync code.

In both, each match has one client of the seat that must act next waiting on its own feed
(``/api/me/events`` or ``/api/me/stream``): the "actor", woken by its ``your_turn`` entry. The
others wait on the match (``/api/matches/{id}/events`` or ``.../stream``), half as each player.
``--transport longpoll`` (default) or ``sse`` picks the endpoints.

A client's latency runs from the moment the answer to ITS match's move (the 201) has arrived to
the moment it has the new move (or entry) in hand, so it can be negative when the wake-up beats
the mover's answer; it is also counted from the moment the moves were sent. Every run prints
wake p50/p95/p99/max (all clients, match clients, actors), how many clients got the move, the
moves' own time to their 201, the server's RSS idle / all waiting / after (and per client), its
threads and its CPU time for the wake-ups, and the load average before the run.

With ``--floor`` each run is preceded by one against the bare ASGI floor
(``games.benchmarks.bare.longpoll``): the same endpoints (long-polls and streams) and answer
shapes with everything in memory, on one uvicorn process with the same options, driven by the
same clients (it takes its moves itself). Both are then printed side by side, with
Boardpost's p99 over the floor's.

``--server granian`` runs the waiting clients' process (and the floor) under Granian's ASGI
interface instead, set up as the uvicorn is (``games.benchmarks.servers``); ``--server both``
runs each combination under both, the first server alternating from one combination to the
next, and prints every run side by side with its ratios to uvicorn's (floor, with ``--floor``).
The moves' web server is the same whatever ``--server`` says.

``--clients`` and ``--case`` take several values; every combination is run, each with a fresh
server. The server needs an open-file limit above the number of clients (one socket each, plus
its own files and connections): the command raises its own soft limit (the server inherits it)
to clients + 512 and fails when the hard limit is lower.
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import shutil
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, connections

from accounts.models import User
from accounts.services import tokens_create_bulk
from games.benchmarks import longpoll_floor
from games.benchmarks.queues import purge_task_queues
from games.benchmarks.sampling import Sampler, profiling_available
from games.benchmarks.servers import ASGI_SERVERS, asgi_command, worker_pid, wsgi_command
from games.management.progress import ProgressBar
from games.models import UserEvent
from games.services import SeatSpec, match_create, match_join

ROOT = Path(settings.BASE_DIR)
HOST = "127.0.0.1"
USER_PREFIX = "lpbench-"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def _raise_open_files(needed: int) -> int:
    """Raise RLIMIT_NOFILE (the server process inherits it) to at least ``needed``."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= needed:
        return soft
    try:
        if hard == resource.RLIM_INFINITY or hard >= needed:
            resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
        else:
            resource.setrlimit(resource.RLIMIT_NOFILE, (needed, needed))  # root only
    except (ValueError, OSError):
        raise CommandError(f"{needed} open files are needed and the hard limit is {hard}; "
                           f"raise it (ulimit -Hn) or use fewer --clients") from None
    return needed


class ServerProcess:
    """One ASGI server process (uvicorn or Granian) and what /proc says about the process that
    serves (Granian's worker, once ``wait_ready`` has found it)."""

    def __init__(self, port: int, log: Path, app: str = "config.asgi:application",
                 extra_env: dict[str, str] | None = None, server: str = "uvicorn",
                 concurrency: int = 0) -> None:
        self.port = port
        self.log = log
        self.server = server
        env = {**os.environ, "DJANGO_DEBUG": "false", "THROTTLE_USER": "1000000/min",
               "THROTTLE_ANON": "1000000/min", "THROTTLE_LONGPOLL": "1000000/min",
               **(extra_env or {})}
        log.parent.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            asgi_command(server, app, host=HOST, port=port, backlog=4096,
                         concurrency=concurrency),
            cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT)
        self.pid = self.process.pid

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise CommandError(f"{self.server} exited:\n{self.log.read_text()[-3000:]}")
            try:
                socket.create_connection((HOST, self.port), timeout=1).close()
                pid = worker_pid(self.process.pid, self.server)
                if pid is not None:
                    self.pid = pid
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise CommandError(f"{self.server} did not start")

    def status(self) -> dict[str, int]:
        """VmRSS and VmHWM in KiB, and Threads, from /proc/<pid>/status."""
        values = {}
        with open(f"/proc/{self.pid}/status") as status:
            for line in status:
                key, _, rest = line.partition(":")
                if key in ("VmRSS", "VmHWM", "Threads"):
                    values[key] = int(rest.split()[0])
        return values

    def cpu_seconds(self) -> float:
        with open(f"/proc/{self.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def sockets(self) -> int:
        count = 0
        for fd in os.listdir(f"/proc/{self.pid}/fd"):
            try:
                count += os.readlink(f"/proc/{self.pid}/fd/{fd}").startswith("socket:")
            except OSError:
                pass
        return count

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class WebServerProcess(ServerProcess):
    """The deployment's web service: gunicorn with ``docker/gunicorn.conf.py`` (or Granian with
    as many workers and threads), its access log written to the log file as the service writes
    it to its output."""

    def __init__(self, port: int, log: Path, server: str = "gunicorn") -> None:  # WSGI
        self.port = port
        self.log = log
        self.server = server
        metrics = ROOT / "var" / f"bench-longpoll-metrics-{port}"
        shutil.rmtree(metrics, ignore_errors=True)
        metrics.mkdir(parents=True)
        env = {**os.environ, "DJANGO_DEBUG": "false", "THROTTLE_USER": "1000000/min",
               "THROTTLE_ANON": "1000000/min", "BIND_ADDRESS": HOST, "PORT": str(port),
               "PROMETHEUS_MULTIPROC_DIR": str(metrics)}
        log.parent.mkdir(parents=True, exist_ok=True)
        command = [sys.executable, "-m", "gunicorn", "--config", "docker/gunicorn.conf.py",
                   "config.wsgi:application"]
        if server == "granian":
            command = wsgi_command(
                server, "config.wsgi:application", host=HOST, port=port,
                workers=int(os.environ.get("WEB_CONCURRENCY", "4")),
                threads=int(os.environ.get("WEB_THREADS", "2")), access_log=True)
        self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log.open("w"),
                                        stderr=subprocess.STDOUT)
        self.pid = self.process.pid


@dataclass
class Answer:
    match: int = 0  # index of the match the client is about
    actor: bool = False  # waiting on the feed of the seat that must act
    status: int = 0
    woken: bool = False
    sent_at: float = 0.0
    done_at: float = 0.0
    error: str = ""


def _request(method: str, path: str, token: str, body: dict | None = None,
             accept: str = "application/json", keep_alive: bool = False) -> bytes:
    payload = json.dumps(body).encode() if body is not None else b""
    head = (f"{method} {path} HTTP/1.1\r\nHost: {HOST}\r\nAuthorization: Token {token}\r\n"
            f"Accept: {accept}\r\nConnection: {'keep-alive' if keep_alive else 'close'}\r\n")
    if body is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n"
    return (head + "\r\n").encode() + payload


def _parse(raw: bytes) -> tuple[int, dict | None]:
    head, _, body = raw.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
    try:
        return status, json.loads(body) if body else None
    except ValueError:
        return status, None


def _fetch(port: int, method: str, path: str, token: str,
           body: dict | None = None) -> tuple[int, dict | None]:
    with socket.create_connection((HOST, port), timeout=30) as sock:
        sock.sendall(_request(method, path, token, body))
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return _parse(b"".join(chunks))


def _run_loop(coroutine):
    """The clients run on uvloop when it is there: a slower client would add its own delay."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coroutine)
    return uvloop.run(coroutine)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


@dataclass
class BenchMatch:
    id: str
    version: int
    mover: str  # seat 0's token: it moves
    other: str  # seat 1's token: it must act after the move
    move: dict
    sent_at: float = 0.0
    answered_at: float = 0.0
    status: int = 0


@dataclass
class Setup:
    matches: list[BenchMatch] = field(default_factory=list)
    feed_after: int = 0


def _players(count: int) -> tuple[list[User], list[str]]:
    names = [f"{USER_PREFIX}{n}" for n in range(count)]
    existing = set(User.objects.filter(username__in=names).values_list("username", flat=True))
    missing = [User(username=name) for name in names if name not in existing]
    for user in missing:
        user.set_unusable_password()
    User.objects.bulk_create(missing, batch_size=500)
    users = {user.username: user for user in User.objects.filter(username__in=names)}
    ordered = [users[name] for name in names]
    keys = tokens_create_bulk(ordered, "bench")
    return ordered, [keys[name] for name in names]


def _prepare(port: int, count: int) -> Setup:
    """``count`` running Nibble matches, seat 0 to move in each; their first legal moves."""
    users, tokens = _players(2 * count)
    setup = Setup(feed_after=UserEvent.objects.order_by("-id").values_list(
        "id", flat=True).first() or 0)
    for n in range(count):
        first, second = users[2 * n], users[2 * n + 1]
        match = match_create(user=first, game="nibble", config={"first_seat": 0}, rated=False,
                             seats=[SeatSpec("me"), SeatSpec("user", username=second.username)])
        match = match_join(user=second, match_id=match.id)
        status, detail = _fetch(port, "GET", f"/api/matches/{match.id}", tokens[2 * n])
        if status != 200 or detail is None or 0 not in detail["to_act"]:
            raise CommandError(f"could not read a bench match: {status} {detail}")
        takeable = detail["legal_moves"]["takeable"]
        cells = takeable[sorted(takeable)[0]]
        setup.matches.append(BenchMatch(
            id=str(match.id), version=detail["version"], mover=tokens[2 * n],
            other=tokens[2 * n + 1],
            move={"move": {"take": [cells[0]]}, "expected_version": detail["version"]}))
    setup.feed_after = UserEvent.objects.order_by("-id").values_list(
        "id", flat=True).first() or 0
    # Warm the waiting paths (imports, first database connections) before measuring.
    warm = setup.matches[0]
    _fetch(port, "GET", f"/api/matches/{warm.id}/events?wait=0", warm.mover)
    _fetch(port, "GET", "/api/me/events?wait=0", warm.other)
    return setup


def _warm(port: int, setup: Setup, requests: int = 64, at_once: int = 16) -> None:
    """Warm the web server that takes the moves, as a running deployment's is: every worker and
    thread has imported its views and holds its database connections (reads of the matches'
    details, ``at_once`` at a time, so that they spread over the workers)."""
    def read(n: int) -> None:
        match = setup.matches[n % len(setup.matches)]
        status, _ = _fetch(port, "GET", f"/api/matches/{match.id}", match.mover)
        if status != 200:
            raise CommandError(f"the web server answered {status} while warming up")

    with ThreadPoolExecutor(max_workers=at_once) as pool:
        list(pool.map(read, range(requests)))


class Command(BaseCommand):
    help = ("Live-update load: waiting clients under one uvicorn (or Granian) process woken by "
            "moves; prints wake-up latency after each move's answer, server memory and CPU.")

    def add_arguments(self, parser) -> None:
        parser.add_argument("--clients", type=int, nargs="+", default=[1000, 2000, 5000])
        parser.add_argument("--case", choices=["broadcast", "matches"], nargs="+",
                            default=["broadcast", "matches"])
        parser.add_argument("--matches", type=int, default=100,
                            help="matches in the 'matches' case")
        parser.add_argument("--transport", choices=["longpoll", "sse"], default="longpoll")
        parser.add_argument("--server", choices=[*ASGI_SERVERS, "both"], default="uvicorn",
                            help="the ASGI server of the waiting clients and of the floor, or "
                                 "both, each combination under each")
        parser.add_argument("--moves-to", choices=["same", "other"], default="other",
                            help="send the moves to the waiting clients' server, or to a web "
                                 "server of their own as a deployment's web service takes them")
        parser.add_argument("--web-server", choices=["gunicorn", "granian", "uvicorn"],
                            default="gunicorn",
                            help="with --moves-to other: the web service as deployed (gunicorn, "
                                 "docker/gunicorn.conf.py), Granian set up alike, or one "
                                 "uvicorn process")
        parser.add_argument("--connection", choices=["keep-alive", "close"],
                            default="keep-alive",
                            help="the long-polls' Connection header: keep-alive as browsers "
                                 "and apps send it, or close (the server then closes each "
                                 "connection after its answer)")
        parser.add_argument("--wait", type=int, default=settings.LONG_POLL_MAX_SECONDS,
                            help="the long-polls' wait= (seconds)")
        parser.add_argument("--connect-concurrency", type=int, default=200,
                            help="connections opened at once while the clients start")
        parser.add_argument("--floor", action="store_true",
                            help="run the bare ASGI floor (games.benchmarks.bare.longpoll) "
                                 "before each run and print both side by side")
        parser.add_argument("--profile", action="store_true",
                            help="sample the server with py-spy (the test extra installs it) "
                                 "from the moves to the last answer, and print where its time "
                                 "went (own and cumulative samples of the top functions)")

    def handle(self, *args, **options) -> None:
        if min(options["clients"]) < 2:
            raise CommandError("--clients must be at least 2")
        if not 1 <= options["wait"] <= settings.LONG_POLL_MAX_SECONDS:
            raise CommandError(f"--wait must be 1 to {settings.LONG_POLL_MAX_SECONDS}")
        if options["profile"] and not profiling_available():
            raise CommandError("--profile needs py-spy (pip install -e '.[test]')")
        if connection.vendor != "postgresql":
            self.stderr.write("warning: not on PostgreSQL; set DATABASE_URL for real figures")
        if not settings.EVENTS_REDIS_URL:
            self.stderr.write("warning: no EVENTS_REDIS_URL / redis:// CELERY_BROKER_URL; "
                              "waiting clients poll the database")
        self.open_files = _raise_open_files(max(options["clients"]) + 512)
        self.servers = (list(ASGI_SERVERS) if options["server"] == "both"
                        else [options["server"]])
        summary: list[str] = []
        for case in options["case"]:
            for clients in options["clients"]:
                # With both servers, the one that goes first alternates.
                first = len(summary) // len(self.servers) % len(self.servers)
                summary += self._one(case, clients, options,
                                     self.servers[first:] + self.servers[:first])
        if len(summary) > 1:
            self.stdout.write("\nsummary (latency after each move's 201; load average before "
                              "the run)")
            for line in summary:
                self.stdout.write("  " + line)

    def _one(self, case: str, clients: int, options, servers: list[str]) -> list[str]:
        """One combination under each server in turn: its summary lines."""
        matches = 1 if case == "broadcast" else min(options["matches"], clients // 2)
        lines = []
        runs: dict[str, tuple[longpoll_floor.Figures | None, longpoll_floor.Figures]] = {}
        for server in servers:
            floor = self._floor(clients, matches, options, server) if options["floor"] else None
            line, mine = self._boardpost(case, clients, matches, options, server)
            runs[server] = (floor, mine)
            if floor is None:
                lines.append(line)
                continue
            if len(self.servers) == 1:
                self.stdout.write("\n".join(longpoll_floor.comparison_lines(floor, mine)))
            lines.append(f"{line}; {longpoll_floor.summary(floor, mine)}")
        if len(self.servers) > 1:
            self.stdout.write("\n".join(longpoll_floor.servers_lines(
                [runs[server] for server in self.servers])))
        return lines

    def _label(self, name: str, server: str) -> str:
        """A run's name in the tables, with its server's unless the run is uvicorn's alone."""
        return name if self.servers == ["uvicorn"] else f"{name}, {server}"

    def _boardpost(self, case: str, clients: int, matches: int, options, server: str
                   ) -> tuple[str, longpoll_floor.Figures]:
        """One run against Boardpost under ``server``: its summary line and figures."""
        with open("/proc/loadavg") as loadavg:
            load = " ".join(loadavg.read().split()[:3])
        port = _free_port()
        log = ROOT / "var" / f"bench-longpoll-{server}.log"
        events = ServerProcess(port, log, server=server, concurrency=self.open_files)
        mover = events
        try:
            if options["moves_to"] == "other":
                web_log = ROOT / "var" / "bench-longpoll-web.log"
                mover = (ServerProcess(_free_port(), web_log)
                         if options["web_server"] == "uvicorn"
                         else WebServerProcess(_free_port(), web_log, options["web_server"]))
                mover.wait_ready()
            events.wait_ready()
            setup = _prepare(port, matches)
            if mover is not events:
                _warm(mover.port, setup)
            idle = events.status()
            result = _run_loop(self._run(events, mover, setup, clients, options))
            after = events.status()
        finally:
            events.stop()
            mover.stop()
            connections.close_all()
            purge_task_queues()
        line = self._report(case, clients, options, setup, load, idle, after, result, server)
        return line, _figures(self._label("Boardpost", server), setup, result)

    def _floor(self, clients: int, matches: int, options, server: str
               ) -> longpoll_floor.Figures:
        """One run against the bare ASGI floor under ``server``, seeded with ``matches``
        matches of its own."""
        seed = longpoll_floor.floor_seed(matches)
        path = longpoll_floor.write_seed(seed, ROOT / "var" / "bench-longpoll-floor-seed.json")
        floor = ServerProcess(_free_port(), ROOT / "var" / "bench-longpoll-floor.log",
                              app=longpoll_floor.FLOOR_APP,
                              extra_env={"BARE_LONGPOLL_SEED": str(path)}, server=server,
                              concurrency=self.open_files)
        setup = Setup(feed_after=seed["feed_after"], matches=[
            BenchMatch(id=entry["id"], version=entry["version"], mover=entry["tokens"][0],
                       other=entry["tokens"][1],
                       move={"move": {"take": [[0, 0]]}, "expected_version": entry["version"]})
            for entry in seed["matches"]])
        try:
            floor.wait_ready()
            result = _run_loop(self._run(floor, floor, setup, clients, options))
        finally:
            floor.stop()
        return _figures(self._label("bare ASGI floor", server), setup, result)

    # ---------------------------------------------------------------------------------- run

    def _wait_request(self, setup: Setup, answer: Answer, index: int, options) -> bytes:
        match = setup.matches[answer.match]
        wait, sse = options["wait"], options["transport"] == "sse"
        keep = options["connection"] == "keep-alive"
        if answer.actor:
            if sse:
                return _request("GET", f"/api/me/stream?after={setup.feed_after}", match.other,
                                accept="text/event-stream")
            return _request("GET", f"/api/me/events?after={setup.feed_after}&wait={wait}",
                            match.other, keep_alive=keep)
        token = match.mover if index % 2 == 0 else match.other
        if sse:
            return _request("GET", f"/api/matches/{match.id}/stream?after={match.version}",
                            token, accept="text/event-stream")
        return _request("GET", f"/api/matches/{match.id}/events?after={match.version}"
                               f"&wait={wait}", token, keep_alive=keep)

    def _is_wake(self, setup: Setup, answer: Answer, body: dict | None) -> bool:
        if not body:
            return False
        if answer.actor:
            return any(event["type"] == UserEvent.Type.YOUR_TURN
                       for event in body.get("events", ()))
        moves = body.get("moves") or []
        return bool(moves) and moves[0]["seq"] == setup.matches[answer.match].version + 1

    async def _read_answer(self, setup: Setup, answer: Answer, reader, sse: bool) -> None:
        if not sse:
            # One answer: its head, then Content-Length bytes (the connection may stay open).
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            raw = head + await reader.readexactly(length)
            answer.done_at = time.perf_counter()
            answer.status, body = _parse(raw)
            answer.woken = answer.status == 200 and self._is_wake(setup, answer, body)
            return
        head = await reader.readuntil(b"\r\n\r\n")
        answer.status = int(head.split(b" ", 2)[1])
        if answer.status != 200:
            answer.done_at = time.perf_counter()
            return
        while True:  # server-sent events: until one carries the change
            line = await reader.readline()
            if not line:
                answer.done_at = time.perf_counter()
                return
            if line.startswith(b"data:"):
                try:
                    body = json.loads(line[5:])
                except ValueError:
                    continue
                if self._is_wake(setup, answer, body):
                    answer.done_at = time.perf_counter()
                    answer.woken = True
                    return

    async def _run(self, server: ServerProcess, mover: ServerProcess, setup: Setup,
                   clients: int, options) -> dict:
        count = len(setup.matches)
        answers = [Answer(match=index % count) for index in range(clients)]
        for index in range(count):
            answers[index].actor = True  # the first client of each match
        tasks = await self._connect(server, setup, answers, options)
        connected = sum(1 for answer in answers if not answer.error)

        # Every request is sent; the server is done reading them once its CPU goes quiet. It
        # may take up to half the clients' wait (a slow machine needs 5 ms a client or more):
        # the other half leaves the wake-ups time before any wait ends.
        settle_started = time.perf_counter()
        settled = await self._settle(server, limit=max(5.0, options["wait"] / 2))
        settle_seconds = time.perf_counter() - settle_started
        waiting = server.status()
        sockets = server.sockets()
        early = sum(1 for answer in answers if answer.done_at)

        self.move_error = ""
        sampler = Sampler([server.pid], ROOT / "var" / "bench-longpoll-profile.txt") \
            if options["profile"] else None
        cpu_before = server.cpu_seconds()
        trigger_at = time.perf_counter()
        await asyncio.gather(*(self._move(mover.port, match) for match in setup.matches))
        moves_seconds = time.perf_counter() - trigger_at
        await self._wake_up(tasks, options["wait"])
        cpu = server.cpu_seconds() - cpu_before
        profile = sampler.stop() if sampler is not None else []
        return {"cpu": cpu, "answers": answers, "connected": connected, "early": early,
                "waiting": waiting, "sockets": sockets, "settle": settle_seconds,
                "settled": settled,
                "trigger_at": trigger_at, "moves_seconds": moves_seconds, "profile": profile}

    async def _connect(self, server: ServerProcess, setup: Setup, answers: list[Answer],
                       options) -> list[asyncio.Task]:
        """Open every client's connection and send its wait, ``--connect-concurrency`` at
        once; returns, once every request is sent, the tasks that read the answers."""
        clients = len(answers)
        sse = options["transport"] == "sse"
        gate = asyncio.Semaphore(options["connect_concurrency"])
        sent = asyncio.Event()
        sent_count = 0

        with ProgressBar(clients, "connect", stream=self.stderr) as bar:
            async def client(index: int) -> None:
                nonlocal sent_count
                answer = answers[index]
                try:
                    async with gate:
                        reader, writer = await asyncio.open_connection(HOST, server.port,
                                                                       limit=2**20)
                        writer.write(self._wait_request(setup, answer, index, options))
                        await writer.drain()
                    answer.sent_at = time.perf_counter()
                except OSError as exc:
                    answer.error = f"connect: {exc.__class__.__name__}"
                    answer.done_at = time.perf_counter()
                    return
                finally:
                    sent_count += 1
                    bar.advance()
                    if sent_count == clients:
                        sent.set()
                try:
                    await self._read_answer(setup, answer, reader, sse)
                except (OSError, asyncio.IncompleteReadError) as exc:
                    answer.done_at = time.perf_counter()
                    answer.error = f"read: {exc.__class__.__name__}"
                finally:
                    writer.close()

            tasks = [asyncio.create_task(client(index)) for index in range(clients)]
            await sent.wait()
        return tasks

    async def _wake_up(self, tasks: list[asyncio.Task], wait: int) -> None:
        """Until every client has its answer, or the long-polls' wait and 30 s more."""
        with ProgressBar(len(tasks), "wake-up", stream=self.stderr) as bar:
            pending = set(tasks)
            deadline = time.monotonic() + wait + 30
            while pending and time.monotonic() < deadline:
                done, pending = await asyncio.wait(pending, timeout=0.5)
                bar.advance(len(done))
            for task in pending:
                task.cancel()

    async def _move(self, port: int, match: BenchMatch) -> None:
        match.sent_at = time.perf_counter()
        reader, writer = await asyncio.open_connection(HOST, port)
        writer.write(_request("POST", f"/api/matches/{match.id}/moves", match.mover,
                              match.move))
        await writer.drain()
        raw = await reader.read()
        match.answered_at = time.perf_counter()
        match.status, body = _parse(raw)
        writer.close()
        if match.status != 201 and not self.move_error:
            self.move_error = f"{match.status} {body}"

    async def _settle(self, server: ServerProcess, limit: float, quiet: float = 0.03) -> bool:
        """Until the server used less than ``quiet`` of a CPU over two 0.5 s windows; whether
        it did within ``limit`` seconds."""
        started = time.monotonic()
        calm = 0
        last = server.cpu_seconds()
        with ProgressBar(int(2 * limit), "settle (half-seconds)", stream=self.stderr) as bar:
            while calm < 2 and time.monotonic() - started < limit:
                await asyncio.sleep(0.5)
                bar.advance()
                now = server.cpu_seconds()
                calm = calm + 1 if now - last < quiet * 0.5 else 0
                last = now
        return calm >= 2

    # ------------------------------------------------------------------------------- report

    def _report(self, case: str, clients: int, options, setup: Setup, load: str, idle: dict,
                after: dict, result: dict, server: str) -> str:
        answers: list[Answer] = result["answers"]
        woken = [answer for answer in answers if answer.woken]
        everyone = [_latency(setup, a) for a in woken]
        watchers = [_latency(setup, a) for a in woken if not a.actor]
        actors = [_latency(setup, a) for a in woken if a.actor]
        errors = _errors(answers)
        moves: dict[int, int] = {}
        for match in setup.matches:
            moves[match.status] = moves.get(match.status, 0) + 1
        missing = sum(1 for answer in answers if not answer.done_at)
        moves_own = [match.answered_at - match.sent_at for match in setup.matches
                     if match.status == 201]
        not_woken = len(answers) - len(woken)
        waiting = result["waiting"]
        per_client = (waiting["VmRSS"] - idle["VmRSS"]) / max(result["connected"], 1)
        title = (f"server={server} case={case} clients={clients} matches={len(setup.matches)} "
                 f"transport={options['transport']} moves-to={options['moves_to']} "
                 + (f"web-server={options['web_server']} " if options["moves_to"] == "other"
                    else "")
                 + 
                 f"connection={options['connection']}")
        lines = [
            "",
            title,
            f"  server: {server}, 1 process; database={connection.vendor}; "
            f"hub={'redis pub/sub' if settings.EVENTS_REDIS_URL else 'none (polling)'}; "
            f"RLIMIT_NOFILE={self.open_files}; load average before: {load}",
            _waiting_line(result),
            f"  moves: {len(setup.matches)} sent at once, answers {moves}, all answered within "
            f"{1000 * result['moves_seconds']:.1f} ms"
            + (f"; the first refused: {self.move_error[:300]}" if self.move_error else ""),
            f"  got the change: {len(woken)} of {clients}   without it: {not_woken}   "
            f"unanswered: {missing}   errors: {errors or 'none'}",
            f"  latency after the move's 201, all:    {_spread(everyone)}",
            f"  latency after the move's 201, match:  {_spread(watchers)}",
            f"  latency after the move's 201, actors: {_spread(actors)}",
            f"  latency after the moves were sent:    "
            f"{_spread([a.done_at - result['trigger_at'] for a in woken])}",
            f"  the moves' own, send to 201:          {_spread(moves_own)}",
            f"  server RSS idle {_mib(idle['VmRSS'])}, all waiting {_mib(waiting['VmRSS'])} "
            f"(+{per_client:.1f} KiB per client), after {_mib(after['VmRSS'])} "
            f"(peak {_mib(after['VmHWM'])})",
            f"  server threads: idle {idle['Threads']}, all waiting {waiting['Threads']}, "
            f"after {after['Threads']}",
            f"  server CPU for the moves and wake-ups: {result['cpu']:.2f} s "
            f"({1000 * result['cpu'] / max(len(woken), 1):.3f} ms per woken client)",
        ]
        self.stdout.write("\n".join(lines + result["profile"]))
        if not everyone:
            return f"{title}: nobody woken"
        return (f"{title}: got it {len(woken)}/{clients}; p50 {1000 * percentile(everyone, .5):.0f}"
                f" ms, p99 {1000 * percentile(everyone, .99):.0f} ms (actors p50 "
                f"{1000 * percentile(actors, .5):.0f} ms); RSS +{per_client:.1f} KiB/client; "
                f"CPU {result['cpu']:.2f} s; load {load}"
                + ("" if result["settled"] else "; NOT SETTLED"))


def _waiting_line(result: dict) -> str:
    """How the clients stood when the moves went out, and whether the server had settled."""
    return (f"  waiting: {result['connected']} connected, {result['sockets']} sockets open in "
            f"the server, {result['early']} answered early (settled in {result['settle']:.1f}s)"
            + ("" if result["settled"] else
               "; NOT SETTLED: the moves went out while the server was still reading its "
               "clients' requests, so this run measures that too"))


def _figures(label: str, setup: Setup, result: dict) -> longpoll_floor.Figures:
    """A run's wake-ups and moves, for the comparison with the floor."""
    woken = [answer for answer in result["answers"] if answer.woken]
    answered = [match for match in setup.matches if match.status == 201]
    return longpoll_floor.Figures(
        label=label, clients=len(result["answers"]), woken=len(woken),
        from_send=[answer.done_at - result["trigger_at"] for answer in woken],
        from_201=[_latency(setup, answer) for answer in woken],
        moves=[match.answered_at - match.sent_at for match in answered],
        refused=len(setup.matches) - len(answered))


def _latency(setup: Setup, answer: Answer) -> float:
    """From the answer to the client's match's move to the client's own answer."""
    return answer.done_at - setup.matches[answer.match].answered_at


def _errors(answers: list[Answer]) -> dict[str, int]:
    """Clients that failed or got another status than 200, by what happened."""
    errors: dict[str, int] = {}
    for answer in answers:
        if answer.error or (answer.status and answer.status != 200):
            key = answer.error or f"HTTP {answer.status}"
            errors[key] = errors.get(key, 0) + 1
    return errors


def _ms(value: float) -> str:
    return f"{1000 * value:7.1f} ms"


def _mib(kib: int) -> str:
    return f"{kib / 1024:7.1f} MiB"


def _spread(values: list[float]) -> str:
    if not values:
        return "none"
    return (f"p50 {_ms(percentile(values, 0.5))}  p95 {_ms(percentile(values, 0.95))}  "
            f"p99 {_ms(percentile(values, 0.99))}  max {_ms(max(values))}")
