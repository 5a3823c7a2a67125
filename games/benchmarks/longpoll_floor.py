"""What ``bench_longpoll --floor`` adds: the bare ASGI floor's matches, and the figures of a
run set side by side with the floor's.

The floor (``games.benchmarks.bare.longpoll``) keeps its matches in memory, so they are made
up here (ids and token keys at random, the database untouched) and handed to it in a seed
file. Latency is counted two ways: from the moment the moves were sent (what a watcher of a
match sees of the whole system) and from each move's own 201 (what the wake-up adds once the
move is recorded). The ratios are Boardpost's figure over the floor's, from the same command.
"""

from __future__ import annotations

import json
import secrets
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FLOOR_APP = "games.benchmarks.bare.longpoll:application"


def floor_seed(count: int, version: int = 1) -> dict[str, Any]:
    """``count`` two-seat matches at ``version``, seat 0 to move, for the floor's seed file."""
    return {"feed_after": 0, "matches": [
        {"id": str(uuid.uuid4()), "version": version,
         "tokens": [secrets.token_urlsafe(30), secrets.token_urlsafe(30)]}
        for _ in range(count)]}


def write_seed(seed: dict[str, Any], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(seed))
    return path


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


@dataclass(frozen=True)
class Figures:
    """One server's run: the clients that got the change and their wake-up latencies (from
    the moves' send and from their match's 201), each move's own time to its 201 and the
    moves refused."""

    label: str
    clients: int
    woken: int
    from_send: list[float]
    from_201: list[float]
    moves: list[float]
    refused: int

    def cells(self) -> list[str]:
        return [f"{self.woken}/{self.clients}", _pair(self.from_send), _pair(self.from_201),
                _pair(self.moves), str(self.refused)]


def _pair(values: list[float]) -> str:
    if not values:
        return "none"
    return f"{1000 * percentile(values, 0.5):.1f} / {1000 * percentile(values, 0.99):.1f}"


def _ratio(mine: list[float], floor: list[float]) -> str:
    if not mine or not floor or percentile(floor, 0.99) <= 0:
        return "n/a"
    return f"{percentile(mine, 0.99) / percentile(floor, 0.99):.2f}"


def comparison_lines(floor: Figures, project: Figures) -> list[str]:
    """Both runs in one table (ms, p50 / p99), then Boardpost's p99 over the floor's."""
    header = ["got the change", "wake from send", "wake from 201", "moves' own", "refused"]
    rows = [[""] + header, [floor.label, *floor.cells()], [project.label, *project.cells()]]
    widths = [max(len(row[n]) for row in rows) for n in range(len(header) + 1)]
    lines = ["  against the bare ASGI floor (latency in ms, p50 / p99; the floor takes its "
             "moves in its own process):"]
    lines += ["    " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths,
                                                                          strict=True))
              for row in rows]
    lines.append("    ratio to the floor, p99: wake from send "
                 f"{_ratio(project.from_send, floor.from_send)}, "
                 f"moves' own {_ratio(project.moves, floor.moves)}")
    return lines


def summary(floor: Figures, project: Figures) -> str:
    """The floor's part of a run's summary line."""
    if not floor.from_send or not project.from_send:
        return "floor: nobody woken"
    return (f"from the send p99 {1000 * percentile(project.from_send, 0.99):.0f} ms against the "
            f"floor's {1000 * percentile(floor.from_send, 0.99):.0f} ms "
            f"(x{_ratio(project.from_send, floor.from_send)})")
