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


HEADER = ["got the change", "wake from send", "wake from 201", "moves' own", "refused"]


def _table(rows: list[list[str]]) -> list[str]:
    """Rows of cells (the first the header) as aligned text lines."""
    widths = [max(len(row[n]) for row in rows) for n in range(len(rows[0]))]
    return [("    " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths,
                                                                        strict=True))).rstrip()
            for row in rows]


def comparison_lines(floor: Figures, project: Figures) -> list[str]:
    """Both runs in one table (ms, p50 / p99), then Boardpost's p99 over the floor's."""
    lines = ["  against the bare ASGI floor (latency in ms, p50 / p99; the floor takes its "
             "moves in its own process):"]
    lines += _table([["", *HEADER], [floor.label, *floor.cells()],
                     [project.label, *project.cells()]])
    lines.append("    ratio to the floor, p99: wake from send "
                 f"{_ratio(project.from_send, floor.from_send)}, "
                 f"moves' own {_ratio(project.moves, floor.moves)}")
    return lines


def servers_lines(runs: list[tuple[Figures | None, Figures]]) -> list[str]:
    """Each server's runs (its floor's, when measured, and Boardpost's) in one table (ms,
    p50 / p99), with each row's p99 from the send over the first row's (the first server's
    floor, or its Boardpost without floors) and, with floors, over its own server's floor."""
    rows = [(figures, floor) for floor, mine in runs
            for figures in ((floor, mine) if floor is not None else (mine,))]
    reference = rows[0][0]
    floors = runs[0][0] is not None
    table = [["", *HEADER, f"p99 / {reference.label}"]
             + (["p99 / own floor"] if floors else [])]
    for figures, floor in rows:
        table.append([figures.label, *figures.cells(),
                      _ratio(figures.from_send, reference.from_send)]
                     + ([_ratio(figures.from_send, floor.from_send)] if floor else []))
    return ["  every server side by side (latency in ms, p50 / p99; the ratios are of the "
            "wake from the send, p99):", *_table(table)]


def summary(floor: Figures, project: Figures) -> str:
    """The floor's part of a run's summary line."""
    if not floor.from_send or not project.from_send:
        return "floor: nobody woken"
    return (f"from the send p99 {1000 * percentile(project.from_send, 0.99):.0f} ms against the "
            f"floor's {1000 * percentile(floor.from_send, 0.99):.0f} ms "
            f"(x{_ratio(project.from_send, floor.from_send)})")
