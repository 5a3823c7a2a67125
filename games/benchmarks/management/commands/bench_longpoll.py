"""Long-poll load test: many clients wait at once under uvicorn, then one change wakes them all.

The command starts ONE uvicorn process (``config.asgi:application``) on a free port against the
configured database and Redis (DATABASE_URL, EVENTS_REDIS_URL or a redis:// CELERY_BROKER_URL),
opens ``--clients`` simultaneous long-polls over raw HTTP/1.1 sockets, waits until every request
is sent and the server has gone idle (all of them waiting), then:

* ``--mode match`` (default): the players of one Nibble match each hold half of the
  connections on ``GET /api/matches/{id}/events``; the first player moves through
  ``POST /api/matches/{id}/moves`` and every waiting client must receive that move;
* ``--mode feed``: every client is a player of its own waiting on ``GET /api/me/events``; one
  transaction writes a feed entry for each of them (``notify``), published after commit.

A client's wake-up latency runs from the moment the move request is sent (or the transaction
starts) to the moment its complete answer has arrived, so it includes the move itself. The
command prints p50/p95/p99/max, the server's RSS (VmRSS from /proc/<pid>/status) idle, with
every client waiting, and after the wake-up, and its thread count (constant: waiting costs no
thread). Use PostgreSQL and Redis for meaningful figures.
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, connections, transaction

from accounts.models import User
from accounts.services import token_create, tokens_create_bulk
from games.management.progress import ProgressBar
from games.models import UserEvent
from games.services import SeatSpec, match_create, match_join
from games.services.notifications import notify

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
    """One uvicorn process and what /proc says about it."""

    def __init__(self, port: int, log: Path) -> None:
        self.port = port
        self.log = log
        env = {**os.environ, "DJANGO_DEBUG": "false", "THROTTLE_USER": "1000000/min",
               "THROTTLE_ANON": "1000000/min"}
        log.parent.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", HOST,
             "--port", str(port), "--no-access-log", "--log-level", "warning",
             "--backlog", "4096"],
            cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT)
        self.pid = self.process.pid

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise CommandError(f"uvicorn exited:\n{self.log.read_text()[-3000:]}")
            try:
                socket.create_connection((HOST, self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.2)
        raise CommandError("uvicorn did not start")

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


@dataclass
class Answer:
    status: int = 0
    body: dict | None = None
    sent_at: float = 0.0
    done_at: float = 0.0
    error: str = ""


def _request(method: str, path: str, token: str, body: dict | None = None) -> bytes:
    payload = json.dumps(body).encode() if body is not None else b""
    head = (f"{method} {path} HTTP/1.1\r\nHost: {HOST}\r\nAuthorization: Token {token}\r\n"
            f"Connection: close\r\n")
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


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


class Command(BaseCommand):
    help = ("Long-poll load: --clients simultaneous waiting clients under one uvicorn process; "
            "prints their wake-up latency after a move and the server's memory.")

    def add_arguments(self, parser) -> None:
        parser.add_argument("--clients", type=int, default=1000)
        parser.add_argument("--mode", choices=["match", "feed"], default="match")
        parser.add_argument("--wait", type=int, default=settings.LONG_POLL_MAX_SECONDS,
                            help="the clients' wait= (seconds)")
        parser.add_argument("--connect-concurrency", type=int, default=200,
                            help="connections opened at once while the clients start")

    def handle(self, *args, **options) -> None:
        clients = options["clients"]
        if clients < 1:
            raise CommandError("--clients must be at least 1")
        if not 1 <= options["wait"] <= settings.LONG_POLL_MAX_SECONDS:
            raise CommandError(f"--wait must be 1 to {settings.LONG_POLL_MAX_SECONDS}")
        if connection.vendor != "postgresql":
            self.stderr.write("warning: not on PostgreSQL; set DATABASE_URL for real figures")
        hub = "redis pub/sub" if settings.EVENTS_REDIS_URL else (
            f"none: polling the database every {settings.EVENTS_POLL_SECONDS}s")
        if not settings.EVENTS_REDIS_URL:
            self.stderr.write("warning: no EVENTS_REDIS_URL / redis:// CELERY_BROKER_URL; "
                              "waiting clients poll the database")
        open_files = _raise_open_files(clients + 512)
        with open("/proc/loadavg") as loadavg:
            self.loadavg = " ".join(loadavg.read().split()[:3])

        if options["mode"] == "match":
            scenario = MatchScenario(clients)
        else:
            scenario = FeedScenario(clients, self.stderr)
        port = _free_port()
        log = ROOT / "var" / "bench-longpoll-uvicorn.log"
        server = ServerProcess(port, log)
        try:
            server.wait_ready()
            scenario.prepare(port)
            idle = server.status()
            result = asyncio.run(self._run(server, scenario, options))
            after = server.status()
        finally:
            server.stop()
            connections.close_all()
        self._report(options, scenario, hub, open_files, idle, after, result)

    # ---------------------------------------------------------------------------------- run

    async def _run(self, server: ServerProcess, scenario: Scenario, options) -> dict:
        clients, wait = options["clients"], options["wait"]
        answers = [Answer() for _ in range(clients)]
        gate = asyncio.Semaphore(options["connect_concurrency"])
        sent = asyncio.Event()
        sent_count = 0

        with ProgressBar(clients, "connect", stream=self.stderr) as bar:
            async def client(index: int) -> None:
                nonlocal sent_count
                answer = answers[index]
                try:
                    async with gate:
                        reader, writer = await asyncio.open_connection(HOST, server.port)
                        writer.write(scenario.wait_request(index, wait))
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
                    raw = await reader.read()
                    answer.done_at = time.perf_counter()
                    answer.status, answer.body = _parse(raw)
                except OSError as exc:
                    answer.done_at = time.perf_counter()
                    answer.error = f"read: {exc.__class__.__name__}"
                finally:
                    writer.close()

            tasks = [asyncio.create_task(client(index)) for index in range(clients)]
            await sent.wait()
        connected = sum(1 for answer in answers if not answer.error)

        # Every request is sent; the server is done reading them once its CPU goes quiet.
        settle_started = time.perf_counter()
        # Polling clients (no Redis) never let the server go quiet: give up after a third of
        # the wait at most.
        await self._settle(server, limit=max(2.0, wait / 3))
        settle_seconds = time.perf_counter() - settle_started
        waiting = server.status()
        sockets = server.sockets()
        early = sum(1 for answer in answers if answer.done_at)

        cpu_before = server.cpu_seconds()
        trigger_at = time.perf_counter()
        trigger = await scenario.trigger(server.port)
        trigger_seconds = time.perf_counter() - trigger_at

        with ProgressBar(clients, "wake-up", stream=self.stderr) as bar:
            pending = set(tasks)
            deadline = time.monotonic() + wait + 30
            while pending and time.monotonic() < deadline:
                done, pending = await asyncio.wait(pending, timeout=0.5)
                bar.advance(len(done))
            for task in pending:
                task.cancel()
        cpu = server.cpu_seconds() - cpu_before
        return {"cpu": cpu, "answers": answers, "connected": connected, "early": early,
                "waiting": waiting, "sockets": sockets, "settle": settle_seconds,
                "trigger_at": trigger_at, "trigger": trigger,
                "trigger_seconds": trigger_seconds}

    async def _settle(self, server: ServerProcess, limit: float, quiet: float = 0.03) -> None:
        """Until the server used less than ``quiet`` of a CPU over two 0.5 s windows."""
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

    # ------------------------------------------------------------------------------- report

    def _report(self, options, scenario: Scenario, hub: str, open_files: int,
                idle: dict, after: dict, result: dict) -> None:
        answers: list[Answer] = result["answers"]
        woken = [answer for answer in answers if scenario.is_wake(answer)]
        latencies = [answer.done_at - result["trigger_at"] for answer in woken]
        empty = sum(1 for a in answers if a.status == 200 and not scenario.is_wake(a))
        errors: dict[str, int] = {}
        for answer in answers:
            if answer.error or (answer.status and answer.status != 200):
                key = answer.error or f"HTTP {answer.status}"
                errors[key] = errors.get(key, 0) + 1
        missing = sum(1 for answer in answers if not answer.done_at)
        waiting, clients = result["waiting"], options["clients"]
        per_client = (waiting["VmRSS"] - idle["VmRSS"]) / max(result["connected"], 1)

        def ms(value: float) -> str:
            return f"{1000 * value:8.1f} ms"

        def mib(kib: int) -> str:
            return f"{kib / 1024:7.1f} MiB"

        lines = [
            f"mode={options['mode']} clients={clients} wait={options['wait']}s "
            f"server=uvicorn, 1 process database={connection.vendor} "
            f"hub={hub} RLIMIT_NOFILE={open_files}",
            f"waiting before the {scenario.trigger_name}: {result['connected']} connected, "
            f"{result['sockets']} sockets open in the server, {result['early']} answered early "
            f"(waited {result['settle']:.1f}s for the server to go idle)",
            f"{scenario.trigger_name}: {scenario.describe(result['trigger'])} "
            f"in {1000 * result['trigger_seconds']:.1f} ms",
            f"woken with the change: {len(woken)}   empty: {empty}   unanswered: {missing}   "
            f"errors: {errors or 'none'}",
        ]
        if latencies:
            lines += [
                f"wake-up latency p50: {ms(percentile(latencies, 0.50))}",
                f"wake-up latency p95: {ms(percentile(latencies, 0.95))}",
                f"wake-up latency p99: {ms(percentile(latencies, 0.99))}",
                f"wake-up latency max: {ms(max(latencies))}",
            ]
        lines += [
            f"server RSS idle:          {mib(idle['VmRSS'])}",
            f"server RSS all waiting:   {mib(waiting['VmRSS'])}  "
            f"(+{per_client:.1f} KiB per waiting client)",
            f"server RSS after wake-up: {mib(after['VmRSS'])}  (peak {mib(after['VmHWM'])})",
            f"server threads: idle {idle['Threads']}, all waiting {waiting['Threads']}, "
            f"after {after['Threads']}",
            f"server CPU for the {scenario.trigger_name} and the wake-ups: {result['cpu']:.2f} s "
            f"({1000 * result['cpu'] / max(len(woken), 1):.2f} ms per woken client)",
            f"load average at the start: {self.loadavg}",
        ]
        self.stdout.write("\n".join(lines))
        if not latencies:
            raise CommandError("no client was woken by the change")


# ------------------------------------------------------------------------------- scenarios

def _bench_user(username: str) -> tuple[User, str]:
    user = User.objects.filter(username=username).first()
    if user is None:
        user = User.objects.create_user(username=username, password=None)
    return user, token_create(user, "bench").key


class Scenario:
    trigger_name = "change"

    def prepare(self, port: int) -> None:
        raise NotImplementedError

    def wait_request(self, index: int, wait: int) -> bytes:
        raise NotImplementedError

    async def trigger(self, port: int) -> object:
        raise NotImplementedError

    def is_wake(self, answer: Answer) -> bool:
        raise NotImplementedError

    def describe(self, trigger: object) -> str:
        return str(trigger)


class MatchScenario(Scenario):
    """Two players, one Nibble match; half the clients per player wait on its log."""

    trigger_name = "move"

    def __init__(self, clients: int) -> None:
        self.clients = clients

    def prepare(self, port: int) -> None:
        (first, self.first_token), (second, self.second_token) = (
            _bench_user(f"{USER_PREFIX}a"), _bench_user(f"{USER_PREFIX}b"))
        match = match_create(user=first, game="nibble", config={"first_seat": 0}, rated=False,
                             seats=[SeatSpec("me"), SeatSpec("user", username=second.username)])
        match = match_join(user=second, match_id=match.id)
        self.match_id = str(match.id)
        self.version = match.version
        status, detail = _fetch(port, "GET", f"/api/matches/{self.match_id}", self.first_token)
        if status != 200 or detail is None or 0 not in detail["to_act"]:
            raise CommandError(f"could not read the bench match: {status} {detail}")
        takeable = detail["legal_moves"]["takeable"]
        cells = takeable[sorted(takeable)[0]]
        self.move = {"move": {"take": [cells[0]]}, "expected_version": detail["version"]}
        # Warm the long-poll path (imports, first database connections) before measuring.
        _fetch(port, "GET", f"/api/matches/{self.match_id}/events?wait=0", self.first_token)

    def wait_request(self, index: int, wait: int) -> bytes:
        token = self.first_token if index % 2 == 0 else self.second_token
        return _request("GET", f"/api/matches/{self.match_id}/events?after={self.version}"
                               f"&wait={wait}", token)

    async def trigger(self, port: int) -> object:
        reader, writer = await asyncio.open_connection(HOST, port)
        writer.write(_request("POST", f"/api/matches/{self.match_id}/moves", self.first_token,
                              self.move))
        await writer.drain()
        raw = await reader.read()
        writer.close()
        return _parse(raw)[0]

    def describe(self, trigger: object) -> str:
        return f"POST /api/matches/{{id}}/moves answered {trigger}"

    def is_wake(self, answer: Answer) -> bool:
        return (answer.status == 200 and bool(answer.body) and bool(answer.body.get("moves"))
                and answer.body["moves"][0]["seq"] == self.version + 1)


class FeedScenario(Scenario):
    """One player per client, each waiting on its own feed."""

    trigger_name = "feed entries"

    def __init__(self, clients: int, stderr) -> None:
        self.clients = clients
        self.stderr = stderr

    def prepare(self, port: int) -> None:
        names = [f"{USER_PREFIX}{n}" for n in range(self.clients)]
        existing = set(User.objects.filter(username__in=names).values_list("username",
                                                                           flat=True))
        missing = [User(username=name) for name in names if name not in existing]
        for user in missing:
            user.set_unusable_password()
        User.objects.bulk_create(missing, batch_size=500)
        users = list(User.objects.filter(username__in=names))
        tokens = tokens_create_bulk(users, "bench")
        self.user_ids = [user.id for user in users]
        self.tokens = [tokens[name] for name in names]
        self.after = UserEvent.objects.order_by("-id").values_list("id", flat=True).first() or 0
        _fetch(port, "GET", "/api/me/events?wait=0", self.tokens[0])

    def wait_request(self, index: int, wait: int) -> bytes:
        return _request("GET", f"/api/me/events?after={self.after}&wait={wait}",
                        self.tokens[index])

    async def trigger(self, port: int) -> object:
        return await asyncio.to_thread(self._write)

    def _write(self) -> int:
        try:
            with transaction.atomic():
                notify(user_ids=self.user_ids, type=UserEvent.Type.DEADLINE_SOON, bench=True)
            return len(self.user_ids)
        finally:
            connection.close()

    def describe(self, trigger: object) -> str:
        return f"{trigger} entries written in one transaction and published"

    def is_wake(self, answer: Answer) -> bool:
        return (answer.status == 200 and bool(answer.body) and bool(answer.body.get("events"))
                and answer.body["events"][0]["type"] == UserEvent.Type.DEADLINE_SOON)
