"""HTTP benchmark: concurrent clients play Nibble matches against gunicorn on this machine.

Each client owns two accounts and plays both seats of its matches through the public API: from
each answer (the match as it now stands, with the takeable discs of the player to move) it picks
a legal take and submits it for the seat that must act, with ``expected_version``. Move
submissions are timed; the command prints moves per second and latency percentiles. Use
PostgreSQL (DATABASE_URL) for meaningful figures.
"""

from __future__ import annotations

import http.client
import json
import multiprocessing
import os
import random
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, connections

from accounts.models import User
from accounts.services import token_create
from games.management.progress import ProgressBar

ROOT = Path(settings.BASE_DIR)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Client(threading.Thread):
    """One simulated client: two accounts, one match at a time, both seats."""

    def __init__(self, port: int, tokens: tuple[str, str], usernames: tuple[str, str],
                 stop_at: float, seed: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.tokens = tokens
        self.usernames = usernames
        self.stop_at = stop_at
        self.rng = random.Random(seed)
        self.latencies: list[float] = []
        self.errors: dict[int, int] = {}
        self.matches_finished = 0
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def request(self, method: str, path: str, token: str, body: dict | None = None):
        payload = json.dumps(body).encode() if body is not None else None
        headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        for attempt in range(3):
            try:
                self.connection.request(method, path, body=payload, headers=headers)
                response = self.connection.getresponse()
                data = response.read()
                return response.status, json.loads(data) if data else None
            except (ConnectionError, http.client.HTTPException, OSError):
                self.connection.close()
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def run(self) -> None:
        while time.monotonic() < self.stop_at:
            self.play_one()

    def play_one(self) -> None:
        status, created = self.request("POST", "/api/matches", self.tokens[0], {
            "game": "nibble", "rated": False,
            "seats": [{"kind": "me"}, {"kind": "user", "username": self.usernames[1]}]})
        if status != 201:
            self.errors[status] = self.errors.get(status, 0) + 1
            return
        match_id = created["id"]
        status, detail = self.request("POST", f"/api/matches/{match_id}/join", self.tokens[1])
        # Each answer to a move is the new position, takeable discs included, so the client
        # chooses the next move from it without another request.
        while time.monotonic() < self.stop_at and status in (200, 201) \
                and detail["status"] == "active":
            seat = detail["to_act"][0]
            takeable = detail["view"]["takeable"]
            cells = takeable[self.rng.choice(sorted(takeable))]
            move = {"take": [self.rng.choice(cells)]}
            started = time.perf_counter()
            status, body = self.request("POST", f"/api/matches/{match_id}/moves",
                                        self.tokens[seat],
                                        {"move": move, "expected_version": detail["version"]})
            elapsed = time.perf_counter() - started
            if status == 201:
                self.latencies.append(elapsed)
                detail = body["match"]
            else:
                self.errors[status] = self.errors.get(status, 0) + 1
                status, detail = self.request("GET", f"/api/matches/{match_id}",
                                              self.tokens[0])
        if detail.get("status") != "finished":
            return
        self.matches_finished += 1


def run_client_process(port: int, pairs: list[tuple[tuple[str, str], tuple[str, str]]],
                       stop_at_wall: float, first_seed: int) -> tuple[list[float], dict, int]:
    """One client process: a thread per client; returns latencies, errors, matches finished.

    Clients are spread over several processes so that the load generator's own GIL does not
    cap the figures."""
    stop_at = time.monotonic() + (stop_at_wall - time.time())
    threads = [Client(port, tokens, names, stop_at, seed=first_seed + i)
               for i, (tokens, names) in enumerate(pairs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    errors: dict[int, int] = {}
    for thread in threads:
        for status, count in thread.errors.items():
            errors[status] = errors.get(status, 0) + count
    return ([v for t in threads for v in t.latencies], errors,
            sum(t.matches_finished for t in threads))


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


class Command(BaseCommand):
    help = "Concurrent HTTP clients play Nibble against gunicorn; prints moves/s and latency."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--clients", type=int, default=16)
        parser.add_argument("--seconds", type=float, default=30.0)
        parser.add_argument("--workers", type=int, default=4, help="gunicorn worker processes")
        parser.add_argument("--threads", type=int, default=1, help="threads per gunicorn worker")
        parser.add_argument("--client-processes", type=int, default=4,
                            help="processes the simulated clients are spread over")

    def handle(self, *args, **options) -> None:
        if connection.vendor != "postgresql":
            self.stderr.write("warning: not on PostgreSQL; set DATABASE_URL for real figures")
        clients = options["clients"]
        users = []
        for n in range(2 * clients):
            user, _ = User.objects.get_or_create(username=f"bench-{n}")
            users.append((user.username, token_create(user, "bench").key))

        port = _free_port()
        env = {**os.environ, "DJANGO_DEBUG": "false", "THROTTLE_USER": "1000000/min",
               "THROTTLE_ANON": "1000000/min"}
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind",
             f"127.0.0.1:{port}", "--workers", str(options["workers"]), "--threads",
             str(options["threads"]), "--log-level", "warning"],
            cwd=ROOT, env=env)
        processes = max(1, min(options["client_processes"], clients))
        pairs = [((users[2 * i][1], users[2 * i + 1][1]), (users[2 * i][0], users[2 * i + 1][0]))
                 for i in range(clients)]
        shares = [pairs[n::processes] for n in range(processes)]
        try:
            self._wait_for(port, server)
            # The forked client processes must not share the parent's database connection.
            connections.close_all()
            stop_at_wall = time.time() + options["seconds"]
            started = time.monotonic()
            with ProcessPoolExecutor(max_workers=processes,
                                     mp_context=multiprocessing.get_context("fork")) as pool:
                futures = [pool.submit(run_client_process, port, share, stop_at_wall, 100 * n)
                           for n, share in enumerate(shares)]
                with ProgressBar(int(options["seconds"]), "bench-api",
                                 stream=self.stderr) as bar:
                    while not all(future.done() for future in futures):
                        time.sleep(1)
                        if bar.done < bar.total:
                            bar.advance()
                results = [future.result() for future in futures]
            wall = time.monotonic() - started
        finally:
            server.terminate()
            server.wait(timeout=30)

        latencies = [value for result in results for value in result[0]]
        errors: dict[int, int] = {}
        for _, result_errors, _ in results:
            for status, count in result_errors.items():
                errors[status] = errors.get(status, 0) + count
        finished = sum(result[2] for result in results)
        if not latencies:
            raise CommandError(f"no move succeeded; errors by status: {errors}")
        self.stdout.write(
            f"clients={clients} in {processes} processes "
            f"gunicorn={options['workers']}x{options['threads']} "
            f"database={connection.vendor} seconds={wall:.1f}\n"
            f"moves accepted:   {len(latencies)}\n"
            f"moves per second: {len(latencies) / wall:.1f}\n"
            f"latency p50:      {1000 * percentile(latencies, 0.50):.1f} ms\n"
            f"latency p95:      {1000 * percentile(latencies, 0.95):.1f} ms\n"
            f"latency p99:      {1000 * percentile(latencies, 0.99):.1f} ms\n"
            f"matches finished: {finished}\n"
            f"errors:           {errors or 'none'}")

    @staticmethod
    def _wait_for(port: int, server: subprocess.Popen) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if server.poll() is not None:
                raise CommandError("gunicorn exited")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.2)
        raise CommandError("gunicorn did not start")
