"""Bot moves per worker process: what a Celery pool process does for each bot move, timed.

For every game and level, bots of that level fill both seats of matches that are played to the
end, one move at a time, until ``--moves`` bot moves were played. Each bot move is the service
the worker's task calls (``match_bot_move_play``: read the match, choose the move from the bot's
own view outside any lock, then record it under ``match_lock``), run here in one process, so the
figures are those of one pool process. The tasks a move leaves (the next bot move, a Nimalia
round's scoring) are collected instead of sent to a broker and run in order; scoring is not
timed.

Printed per game and level: wall time per move (p50, p95, mean) and so moves per second for one
pool process, this process's CPU time per move, and the CPU time of the PostgreSQL backend that
served it (read from /proc when the server runs on this machine): moves per second per core is
1 / (process CPU + database CPU). CPU time, unlike wall time, hardly depends on what else the
machine runs; the load average is printed with each line.
"""

from __future__ import annotations

import os
import statistics
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from accounts.models import User
from games.catalog import engines
from games.models import Match
from games.services import SeatSpec, match_create, scheduling
from games.services.bots import LEVELS, bot_account_ensure, match_bot_move_play
from games.services.system import match_system_step_run

# The options a game is timed with where its defaults will not do (a Nimble race is real time,
# Nimalia's first-game objectives make short matches); every other game plays its defaults.
CONFIGS: dict[str, dict[str, Any]] = {
    "nimble": {"mode": "turns"}, "nimalia": {"objectives": "first_game"}}
TICKS = os.sysconf("SC_CLK_TCK")


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def backend_cpu() -> float | None:
    """CPU seconds the PostgreSQL backend of this connection has used, if it runs here."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICKS


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class Command(BaseCommand):
    help = "Time bot moves as a worker process plays them, per game and level."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--games", default="",
                            help="comma-separated games (default: every registered game)")
        parser.add_argument("--levels", default=",".join(map(str, LEVELS)),
                            help="comma-separated levels (default: every level)")
        parser.add_argument("--moves", type=int, default=60,
                            help="bot moves to time per game and level (default 60)")
        parser.add_argument("--players", type=int, default=2)

    def handle(self, *args, **options) -> None:
        games = [name for name in options["games"].split(",") if name] or sorted(engines())
        unknown = sorted(set(games) - set(engines()))
        if unknown:
            raise CommandError(f"unknown games: {', '.join(unknown)}")
        levels = [int(level) for level in options["levels"].split(",") if level]
        if set(levels) - set(LEVELS):
            raise CommandError(f"levels are {', '.join(map(str, LEVELS))}")
        for name in games:
            for level in levels:
                bot_account_ensure(name, level)
        self.host, _ = User.objects.get_or_create(username="bench-bots")
        self.queue: deque[tuple[str, tuple[Any, ...]]] = deque()
        saved = scheduling.send
        scheduling.send = self._collect  # type: ignore[assignment]
        try:
            self.stdout.write(f"database: {connection.vendor}; "
                              f"{os.cpu_count()} cores; one process plays every move")
            for name in games:
                for level in levels:
                    self._measure(name, level, options["moves"], options["players"])
        finally:
            scheduling.send = saved

    def _collect(self, name: str, args: tuple[Any, ...], countdown: float | None = None) -> None:
        self.queue.append((name, args))

    def _measure(self, name: str, level: int, wanted: int, players: int) -> None:
        load = load_average()
        walls: list[float] = []
        cpus: list[float] = []
        database = 0.0
        database_known = True
        matches = 0
        while len(walls) < wanted:
            matches += 1
            self.queue.clear()
            match = match_create(user=self.host, game=name, config=CONFIGS.get(name, {}),
                                 seats=[SeatSpec("bot", level=level)] * players, rated=False)
            while self.queue and len(walls) < wanted:
                task, args = self.queue.popleft()
                if task == scheduling.MATCH_BOT_MOVE_PLAY:
                    match_id, version, seat = args
                    db_before = backend_cpu()
                    cpu_before, wall_before = time.process_time(), time.perf_counter()
                    match_bot_move_play(match_id=match_id, expected_version=version, seat=seat)
                    walls.append(time.perf_counter() - wall_before)
                    cpus.append(time.process_time() - cpu_before)
                    db_after = backend_cpu()
                    if db_before is None or db_after is None:
                        database_known = False
                    else:
                        database += db_after - db_before
                elif task == scheduling.MATCH_SYSTEM_STEP_RUN:
                    match_system_step_run(match_id=args[0], expected_version=args[1])
            Match.objects.filter(id=match.id, status=Match.Status.ACTIVE).update(
                status=Match.Status.ABORTED)
        self._report(name, level, walls, cpus, database if database_known else None, matches,
                     load)

    def _report(self, name: str, level: int, walls: list[float], cpus: list[float],
                database: float | None, matches: int, load: str) -> None:
        ms: Callable[[float], str] = lambda seconds: f"{1000 * seconds:.1f}"  # noqa: E731
        wall_mean, cpu_mean = statistics.fmean(walls), statistics.fmean(cpus)
        db_mean = database / len(walls) if database is not None else None
        per_core = 1 / (cpu_mean + (db_mean or 0.0))
        self.stdout.write(
            f"{name} level {level}: {len(walls)} moves in {matches} matches; wall ms p50 "
            f"{ms(statistics.median(walls))} p95 {ms(percentile(walls, 0.95))} mean "
            f"{ms(wall_mean)} -> {1 / wall_mean:.1f} moves/s per pool process; CPU ms per move "
            f"{ms(cpu_mean)} + database {ms(db_mean) if db_mean is not None else '?'} -> "
            f"{per_core:.1f} moves/s per core; load {load}")
