"""HTTP benchmark: concurrent clients play Nibble matches against gunicorn (or Granian) on this
machine.

Each client owns two accounts and plays both seats of its matches through the public API: from
each answer (the match as it now stands, with the takeable discs of the player to move) it picks
a legal take and submits it for the seat that must act, with ``expected_version``. Move
submissions are timed; the command prints moves per second and latency percentiles. Use
PostgreSQL (DATABASE_URL) for meaningful figures.

With ``--floor`` the same clients (same code, processes and keep-alive connections) also drive
the stack floor (``games.benchmarks.floor``): one DRF view under the project's settings and
middleware that does the least a move must do, served by a second gunicorn with the same
settings against the same database.
With ``--bare`` they also drive the bare floor (``games.benchmarks.bare``): Django and DRF with
none of the project's settings, apps or middleware, one view doing the same work in raw SQL on
the same tables, served by a third gunicorn with the same settings. Rounds of the modes
alternate (bare, floor, real, real, floor, bare, ...) within one run, so all see the same
machine; the command prints each result, then a table of every mode with its ratios to the
bare floor (or, without ``--bare``, the real path's share of the stack floor). It fails when a
floor's accepted moves did not all write their row and advance their match's version.

``--server granian`` serves every mode under Granian's WSGI interface instead, set up as the
gunicorn is (``games.benchmarks.servers``); ``--server both`` runs each mode under both servers,
their rounds interleaved too (gunicorn's bare floor, Granian's, gunicorn's stack floor, ...),
each server's floors on matches of their own, and prints every row's ratios to gunicorn's bare
floor and to its own server's.
"""

from __future__ import annotations

import http.client
import json
import multiprocessing
import os
import random
import socket
import subprocess
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from uuid import UUID

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, connections
from django.db.models import Sum
from django.utils import timezone

from accounts.models import User
from accounts.services import token_create
from games.benchmarks.queues import purge_task_queues
from games.benchmarks.ratios import Row, floor_work_problem, ratio_table
from games.benchmarks.sampling import Sampler, profiling_available
from games.benchmarks.servers import WSGI_SERVERS, children, wsgi_command
from games.benchmarks.snapshot import floor_state
from games.management.progress import ProgressBar
from games.models import Match, Move, Seat

ROOT = Path(settings.BASE_DIR)
REAL_APP = "config.wsgi:application"
FLOOR_APP = "games.benchmarks.floor_wsgi:application"
BARE_APP = "games.benchmarks.bare.wsgi:application"
APPS = {"real": REAL_APP, "floor": FLOOR_APP, "bare": BARE_APP}
# The modes that move on matches of their own (``Command._floor_matches``), seats in turn.
FLOOR_MODES = ("bare", "floor")
LABELS = {"real": "move path (POST /api/matches/<id>/moves)",
          "floor": "stack floor (games.benchmarks.floor)",
          "bare": "bare floor (games.benchmarks.bare)"}
# What a round measures: a mode under a server, e.g. ("granian", "bare").
Target = tuple[str, str]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Client(threading.Thread):
    """One simulated client on one keep-alive connection; ``play_one`` is what it repeats."""

    def __init__(self, port: int, tokens: tuple[str, str], stop_at: float, seed: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.tokens = tokens
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

    def timed_move(self, path: str, token: str, body: dict) -> tuple[int, Any]:
        started = time.perf_counter()
        status, answer = self.request("POST", path, token, body)
        elapsed = time.perf_counter() - started
        if status == 201:
            self.latencies.append(elapsed)
        else:
            self.errors[status] = self.errors.get(status, 0) + 1
        return status, answer

    def run(self) -> None:
        while time.monotonic() < self.stop_at:
            self.play_one()

    def play_one(self) -> None:
        raise NotImplementedError


class RealClient(Client):
    """Plays whole matches through the public API: create, join, then every move."""

    def __init__(self, port: int, tokens: tuple[str, str], stop_at: float, seed: int, *,
                 opponent: str, **_: Any) -> None:
        super().__init__(port, tokens, stop_at, seed)
        self.opponent = opponent

    def play_one(self) -> None:
        status, created = self.request("POST", "/api/matches", self.tokens[0], {
            "game": "nibble", "rated": False,
            "seats": [{"kind": "me"}, {"kind": "user", "username": self.opponent}]})
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
            status, body = self.timed_move(f"/api/matches/{match_id}/moves", self.tokens[seat],
                                           {"move": move, "expected_version": detail["version"]})
            if status == 201:
                detail = body["match"]
            else:
                status, detail = self.request("GET", f"/api/matches/{match_id}",
                                              self.tokens[0])
        if detail.get("status") != "finished":
            return
        self.matches_finished += 1


class FloorClient(Client):
    """Moves on its own floor match, seats in turn, as fast as the floor answers."""

    # Where its moves go (the stack floor's URL is under /api/, as the project's API is).
    prefix = "/api/floor"

    def __init__(self, port: int, tokens: tuple[str, str], stop_at: float, seed: int, *,
                 match_id: str, version: int, **_: Any) -> None:
        super().__init__(port, tokens, stop_at, seed)
        self.match_id = match_id
        self.version = version

    def play_one(self) -> None:
        move = {"take": [[self.rng.randrange(16), self.rng.randrange(16)]]}
        status, body = self.timed_move(f"{self.prefix}/matches/{self.match_id}/moves",
                                       self.tokens[self.version % 2],
                                       {"move": move, "expected_version": self.version})
        if status == 201:
            self.version = body["version"]
        elif status == 409:
            self.version = body["extra"]["current_version"]


class BareClient(FloorClient):
    """The same moves, on a match of its own, through the bare floor's URL."""

    prefix = "/bare"


CLIENT_KINDS: dict[str, type[Client]] = {"real": RealClient, "floor": FloorClient,
                                         "bare": BareClient}


def run_client_process(kind: str, port: int, specs: list[dict[str, Any]], stop_at_wall: float,
                       first_seed: int) -> tuple[list[float], dict, int]:
    """One client process: a thread per client; returns latencies, errors, matches finished.

    Clients are spread over several processes so that the load generator's own GIL does not
    cap the figures."""
    stop_at = time.monotonic() + (stop_at_wall - time.time())
    threads = [CLIENT_KINDS[kind](port, stop_at=stop_at, seed=first_seed + i, **spec)
               for i, spec in enumerate(specs)]
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


@dataclass
class Tally:
    """What one mode (the real move path or the floor) did over all its rounds."""

    latencies: list[float] = field(default_factory=list)
    errors: dict[int, int] = field(default_factory=dict)
    finished: int = 0
    seconds: float = 0.0
    rounds: list[tuple[float, float]] = field(default_factory=list)  # (moves/s, load)
    warm: int = 0  # moves accepted during the warm-up, not measured

    def row(self, label: str) -> Row:
        if not self.latencies:
            return Row(label, 0.0, 0.0, 0.0, sum(self.errors.values()))
        return Row(label, self.rate, percentile(self.latencies, 0.50),
                   percentile(self.latencies, 0.99), sum(self.errors.values()))

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0

    def add(self, results: list[tuple[list[float], dict, int]], wall: float) -> None:
        moves = 0
        for latencies, errors, finished in results:
            self.latencies.extend(latencies)
            moves += len(latencies)
            self.finished += finished
            for status, count in errors.items():
                self.errors[status] = self.errors.get(status, 0) + count
        self.seconds += wall
        self.rounds.append((moves / wall if wall else 0.0, os.getloadavg()[0]))

    def lines(self, label: str) -> str:
        if not self.latencies:
            return f"{label}: no move succeeded; errors by status: {self.errors}"
        per_round = ", ".join(f"{rate:.0f}" for rate, _ in self.rounds)
        return (
            f"{label}\n"
            f"  moves accepted:   {len(self.latencies)} in {self.seconds:.1f} s\n"
            f"  moves per second: {self.rate:.1f} (rounds: {per_round})\n"
            f"  latency p50:      {1000 * percentile(self.latencies, 0.50):.1f} ms\n"
            f"  latency p95:      {1000 * percentile(self.latencies, 0.95):.1f} ms\n"
            f"  latency p99:      {1000 * percentile(self.latencies, 0.99):.1f} ms\n"
            f"  matches finished: {self.finished}\n"
            f"  errors:           {self.errors or 'none'}")


@dataclass(frozen=True)
class Plan:
    """How a run goes: the modes measured, the servers each runs under (gunicorn, Granian or
    both), the clients and their processes, the servers' workers and threads, the rounds
    (``seconds`` each) and the warm-up."""

    modes: list[str]
    servers: list[str]
    clients: int
    processes: int
    workers: int
    threads: int
    rounds: int
    seconds: float
    warmup: float

    @classmethod
    def of(cls, options: dict[str, Any]) -> Plan:
        modes = [mode for mode in FLOOR_MODES if options[mode]] + ["real"]
        servers = list(WSGI_SERVERS) if options["server"] == "both" else [options["server"]]
        rounds = options["rounds"] if len(modes) * len(servers) > 1 else 1
        return cls(modes=modes, servers=servers, clients=options["clients"],
                   processes=max(1, min(options["client_processes"], options["clients"])),
                   workers=options["workers"], threads=options["threads"], rounds=rounds,
                   seconds=options["seconds"] / rounds, warmup=options["warmup"])

    @property
    def targets(self) -> list[Target]:
        """Every mode under every server, a mode's servers next to each other."""
        return [(server, mode) for mode in self.modes for server in self.servers]

    @property
    def order(self) -> list[Target]:
        """Bare, floor, real, real, floor, bare, ... (each mode under each server in turn):
        each target runs as often first as last."""
        return [target for n in range(self.rounds)
                for target in (self.targets if n % 2 == 0 else self.targets[::-1])]

    def label(self, target: Target) -> str:
        """The mode's name, with its server's unless the run is gunicorn's alone."""
        server, mode = target
        return LABELS[mode] if self.servers == ["gunicorn"] else f"{LABELS[mode]}, {server}"

    def by_server(self) -> list[Target]:
        """The targets as the report lists them: gunicorn's modes, then Granian's."""
        return [(server, mode) for server in self.servers for mode in self.modes]


class Command(BaseCommand):
    help = ("Concurrent HTTP clients play Nibble against gunicorn or Granian; prints moves/s "
            "and latency (with --floor and --bare: against the stack and bare floors too, with "
            "the ratios).")

    def add_arguments(self, parser) -> None:
        parser.add_argument("--clients", type=int, default=16)
        parser.add_argument("--seconds", type=float, default=30.0,
                            help="measured seconds per mode (split over the rounds)")
        parser.add_argument("--server", choices=[*WSGI_SERVERS, "both"], default="gunicorn",
                            help="the WSGI server of every mode, or both, interleaved")
        parser.add_argument("--workers", type=int, default=4, help="server worker processes")
        parser.add_argument("--threads", type=int, default=1,
                            help="threads per worker (gunicorn's threads, Granian's blocking "
                                 "threads: 1 runs one request at a time)")
        parser.add_argument("--client-processes", type=int, default=4,
                            help="processes the simulated clients are spread over")
        parser.add_argument("--floor", action="store_true",
                            help="also drive the stack floor, interleaved, and compare")
        parser.add_argument("--bare", action="store_true",
                            help="also drive the bare floor (Django and DRF alone, raw SQL), "
                                 "interleaved, and compare every mode with it")
        parser.add_argument("--rounds", type=int, default=3,
                            help="with --floor or --bare: rounds per mode (alternating)")
        parser.add_argument("--warmup", type=float, default=2.0,
                            help="unmeasured seconds per server before the first round")
        parser.add_argument("--profile", action="store_true",
                            help="sample the move path's server workers with py-spy during "
                                 "the measured rounds and print where their time went (the "
                                 "sampling takes CPU too: a profiled run's figures are not "
                                 "the benchmark's)")

    def handle(self, *args, **options) -> None:
        if connection.vendor != "postgresql":
            if options["bare"]:
                raise CommandError("--bare needs PostgreSQL: set DATABASE_URL")
            self.stderr.write("warning: not on PostgreSQL; set DATABASE_URL for real figures")
        if options["profile"] and not profiling_available():
            raise CommandError("--profile needs py-spy (pip install -e '.[test]')")
        plan = Plan.of(options)
        specs, floor_ids = self._clients(plan)
        shares = [specs[n::plan.processes] for n in range(plan.processes)]
        servers: dict[Target, tuple[int, subprocess.Popen]] = {}
        load_before = os.getloadavg()
        try:
            self._start_servers(plan, servers)
            tallies, profiles = self._measure(plan, servers, shares, options["profile"])
            problems = self._floor_work(plan, tallies, floor_ids)
        finally:
            self._stop(servers, [i for ids in floor_ids.values() for i in ids])
        load_after = os.getloadavg()
        for server in plan.servers:
            if not tallies[server, "real"].latencies:
                raise CommandError(f"no move succeeded under {server}; errors by status: "
                                   f"{tallies[server, 'real'].errors}")
        self._report(plan, tallies, load_before, load_after)
        for server, lines in profiles.items():
            self.stdout.write(f"where the move path's {server} workers spent their time")
            self.stdout.write("\n".join(lines))
        if problems:
            raise CommandError("a floor did not do its work: " + "; ".join(problems))

    def _clients(self, plan: Plan) -> tuple[list[dict[str, Any]], dict[Target, list[Any]]]:
        """Each client's two accounts (and per floor and server, its match there); the
        matches' ids of each floor under each server."""
        users = []
        for n in range(2 * plan.clients):
            user, _ = User.objects.get_or_create(username=f"bench-{n}")
            users.append((user, token_create(user, "bench").key))
        specs: list[dict[str, Any]] = [
            {"tokens": (users[2 * i][1], users[2 * i + 1][1]),
             "opponent": users[2 * i + 1][0].username} for i in range(plan.clients)]
        floor_ids: dict[Target, list[Any]] = {}
        for target in (target for target in plan.targets if target[1] in FLOOR_MODES):
            floor_ids[target] = self._floor_matches([(users[2 * i][0], users[2 * i + 1][0])
                                                     for i in range(plan.clients)])
            for spec, match_id in zip(specs, floor_ids[target], strict=True):
                spec.setdefault("floor_matches", {})[target] = str(match_id)
        return specs, floor_ids

    def _start_servers(self, plan: Plan, servers: dict[Target, tuple[int, subprocess.Popen]]
                       ) -> None:
        """A server per target, added to ``servers`` as it starts (so a failure stops those
        already started), then waited for."""
        env = {**os.environ, "DJANGO_DEBUG": "false", "THROTTLE_USER": "1000000/min",
               "THROTTLE_ANON": "1000000/min"}
        for server, mode in plan.targets:
            port = _free_port()
            servers[server, mode] = (port, subprocess.Popen(
                wsgi_command(server, APPS[mode], host="127.0.0.1", port=port,
                             workers=plan.workers, threads=plan.threads),
                cwd=ROOT, env=env))
        for (name, _), (port, process) in servers.items():
            self._wait_for(port, process, name)

    def _measure(self, plan: Plan, servers: dict[Target, tuple[int, subprocess.Popen]],
                 shares: list[list[dict[str, Any]]], profile: bool = False
                 ) -> tuple[dict[Target, Tally], dict[str, list[str]]]:
        """The warm-up, then the measured rounds in the plan's order; with ``profile``, the
        move path's server workers sampled meanwhile (idle workers give no samples, so the
        other modes' rounds add nothing), each server's summary by its name."""
        tallies = {target: Tally() for target in plan.targets}
        # The forked client processes must not share the parent's database connection.
        connections.close_all()
        if plan.warmup > 0:
            for target in plan.targets:
                results, _ = self._round(target, servers[target][0], shares, plan.warmup,
                                         seed=10_000)
                tallies[target].warm = sum(len(latencies) for latencies, _, _ in results)
        samplers = {server: Sampler(children(servers[server, "real"][1].pid),
                                    ROOT / "var" / f"bench-api-profile-{server}.txt")
                    for server in plan.servers} if profile else {}
        with ProgressBar(len(plan.order), "bench-api", stream=self.stderr) as bar:
            for n, target in enumerate(plan.order):
                results, wall = self._round(target, servers[target][0], shares, plan.seconds,
                                            seed=1000 * n)
                tallies[target].add(results, wall)
                bar.advance()
        return tallies, {server: sampler.stop() for server, sampler in samplers.items()}

    @staticmethod
    def _stop(servers: dict[Target, tuple[int, subprocess.Popen]], floor_ids: list[Any]
              ) -> None:
        """Stop the servers, end the floor matches and drop the tasks the run queued."""
        for _, server in servers.values():
            server.terminate()
        for _, server in servers.values():
            server.wait(timeout=30)
        if floor_ids:
            Match.objects.filter(id__in=floor_ids).update(
                status=Match.Status.ABORTED, finished_at=timezone.now(), actors=[],
                outcome={"reason": "aborted"})
        purge_task_queues()

    def _report(self, plan: Plan, tallies: dict[Target, Tally],
                load_before: tuple[float, float, float],
                load_after: tuple[float, float, float]) -> None:
        self.stdout.write(
            f"clients={plan.clients} in {plan.processes} processes "
            f"{' and '.join(plan.servers)}={plan.workers}x{plan.threads} "
            f"database={connection.vendor} "
            f"rounds={plan.rounds}x{plan.seconds:.1f}s per mode\n"
            f"load average (1/5/15 min) before: {self._load(load_before)}; "
            f"after: {self._load(load_after)}")
        for target in plan.by_server():
            self.stdout.write(tallies[target].lines(plan.label(target)))
        if "bare" in plan.modes:
            self.stdout.write(self._ratios(plan, tallies))
        elif "floor" in plan.modes:
            for server in plan.servers:
                real, floor = tallies[server, "real"], tallies[server, "floor"]
                if floor.rate:
                    self.stdout.write(
                        f"move path / floor ({server}): {real.rate / floor.rate:.2f} of the "
                        f"floor's moves/s; p99 {1000 * percentile(real.latencies, 0.99):.1f} "
                        f"ms against {1000 * percentile(floor.latencies, 0.99):.1f} ms")

    @staticmethod
    def _ratios(plan: Plan, tallies: dict[Target, Tally]) -> str:
        """The table of every target against the first server's bare floor (and, with two
        servers, against its own server's too)."""
        targets = plan.by_server()
        rows = [tallies[target].row(plan.label(target)) for target in targets]
        own = None
        title = ("every mode against the bare floor (ratio of moves/s: the mode's over the "
                 "bare floor's; of p99: the same)")
        if len(plan.servers) > 1:
            floors = {server: tallies[server, "bare"].row("") for server in plan.servers}
            own = [floors[server] for server, _ in targets]
            title = (f"every mode against {plan.servers[0]}'s bare floor and against its own "
                     "server's (ratio of moves/s: the mode's over the floor's; of p99: the "
                     "same)")
        return "\n".join([title, *ratio_table(rows, own)])

    @staticmethod
    def _load(values: tuple[float, float, float]) -> str:
        return "/".join(f"{value:.2f}" for value in values)

    @staticmethod
    def _round(target: Target, port: int, shares: list[list[dict[str, Any]]], seconds: float,
               *, seed: int) -> tuple[list[tuple[list[float], dict, int]], float]:
        mode = target[1]
        if mode in FLOOR_MODES:
            # Each floor client goes on from its match's current version.
            versions = dict(Match.objects.filter(
                id__in=[spec["floor_matches"][target] for share in shares for spec in share])
                .values_list("id", "version"))
            shares = [[{**spec, "match_id": spec["floor_matches"][target],
                        "version": versions[UUID(spec["floor_matches"][target])]}
                       for spec in share] for share in shares]
            # The forked client processes must not share the parent's database connection.
            connections.close_all()
        stop_at_wall = time.time() + seconds
        started = time.monotonic()
        with ProcessPoolExecutor(max_workers=len(shares),
                                 mp_context=multiprocessing.get_context("fork")) as pool:
            futures = [pool.submit(run_client_process, mode, port, share, stop_at_wall,
                                   seed + 100 * n)
                       for n, share in enumerate(shares)]
            results = [future.result() for future in futures]
        return results, time.monotonic() - started

    @staticmethod
    def _floor_work(plan: Plan, tallies: dict[Target, Tally],
                    floor_ids: dict[Target, list[Any]]) -> list[str]:
        """What each floor failed to do under each server: every move it accepted (warm-up
        included) must have written its row and advanced its match's version."""
        problems = []
        for target, ids in floor_ids.items():
            rows = Move.objects.filter(match_id__in=ids).count()
            versions = Match.objects.filter(id__in=ids).aggregate(total=Sum("version"))["total"]
            tally = tallies[target]
            problem = floor_work_problem(plan.label(target), tally.warm + len(tally.latencies),
                                         rows, versions or 0)
            if problem:
                problems.append(problem)
        return problems

    @staticmethod
    def _floor_matches(pairs: list[tuple[User, User]]) -> list[Any]:
        """One running two-seat match per client for the floor to write to."""
        now = timezone.now()
        ids = []
        for first, second in pairs:
            match = Match.objects.create(
                game="nibble", num_players=2, status=Match.Status.ACTIVE, rated=False,
                created_by=first, seed="floor", state=floor_state(0), version=0, actors=[0],
                started_at=now)
            Seat.objects.bulk_create([
                Seat(match=match, index=index, user=user, joined_at=now)
                for index, user in enumerate((first, second))])
            ids.append(match.id)
        return ids

    @staticmethod
    def _wait_for(port: int, server: subprocess.Popen, name: str) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if server.poll() is not None:
                raise CommandError(f"{name} exited")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.2)
        raise CommandError(f"{name} did not start")
