"""Nimble engine benchmark: random playouts per second in each mode, and per-operation timings.

A random playout picks a random actor and one of its legal moves, uniformly, until the match ends
or a step cap is reached. Race playouts end by a finish or a deadlock (race mode has no stall cap:
that guard is time-based and the server's); turn playouts also end by the stall cap.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from games.kit.registry import BenchRow
from games.nimble.engine import NIMBLE, NimbleState

STEP_CAP = 6000
SECONDS_PER_CASE = 1.5
MIN_PLAYOUTS = 5


def _playout(players: int, mode: str, seed: str) -> tuple[NimbleState, int]:
    rng = random.Random(seed)
    state = NIMBLE.initial_state(num_players=players, config={"mode": mode}, seed=seed)
    steps = 0
    while state.outcome is None and steps < STEP_CAP:
        seat = rng.choice(sorted(NIMBLE.actors(state)))
        state = NIMBLE.apply(state, seat, rng.choice(NIMBLE.legal_moves(state, seat))).state
        steps += 1
    return state, steps


def _playouts(players: int, mode: str) -> list[BenchRow]:
    ended = playouts = steps = 0
    started = time.perf_counter()
    while playouts < MIN_PLAYOUTS or time.perf_counter() - started < SECONDS_PER_CASE:
        state, n = _playout(players, mode, f"bench-{mode}-{players}-{playouts}")
        playouts += 1
        steps += n
        ended += state.outcome is not None
    elapsed = time.perf_counter() - started
    label = f"{mode} {players}p"
    return [
        (f"{label} random playouts", playouts / elapsed, "playouts/s"),
        (f"{label} steps", steps / elapsed, "steps/s"),
        (f"{label} mean playout length", steps / playouts, "steps"),
        (f"{label} playouts ended (cap {STEP_CAP})", 100.0 * ended / playouts, "%"),
    ]


def _positions(count: int) -> list[NimbleState]:
    """Mid-game positions from random race-mode playouts, 4 players."""
    positions = []
    for n in range(count):
        rng = random.Random(f"positions-{n}")
        state = NIMBLE.initial_state(num_players=4, config={"mode": "race"}, seed=f"p{n}")
        for _ in range(rng.randrange(50, 300)):
            if state.outcome is not None:
                break
            seat = rng.choice(sorted(NIMBLE.actors(state)))
            state = NIMBLE.apply(state, seat, rng.choice(NIMBLE.legal_moves(state, seat))).state
        if state.outcome is None:
            positions.append(state)
    return positions


def _per_call(label: str, calls: int, func: Callable[[], object]) -> BenchRow:
    started = time.perf_counter()
    func()
    return (label, (time.perf_counter() - started) / calls * 1e6, "us/call")


def _operations() -> list[BenchRow]:
    positions = _positions(200)
    repeat = 20
    calls = repeat * len(positions)
    seats = [sorted(NIMBLE.actors(state))[0] for state in positions]
    moves = [NIMBLE.legal_moves(state, seat) for state, seat in zip(positions, seats, strict=True)]
    dumps = [NIMBLE.dump(state) for state in positions]

    def legal() -> None:
        for _ in range(repeat):
            for state, seat in zip(positions, seats, strict=True):
                NIMBLE.legal_moves(state, seat)

    def apply() -> None:
        for _ in range(repeat):
            for state, seat, legal_now in zip(positions, seats, moves, strict=True):
                NIMBLE.apply(state, seat, legal_now[0])

    def view() -> None:
        for _ in range(repeat):
            for state, seat in zip(positions, seats, strict=True):
                NIMBLE.view(state, seat)

    def dump() -> None:
        for _ in range(repeat):
            for state in positions:
                NIMBLE.dump(state)

    def load() -> None:
        for _ in range(repeat):
            for data in dumps:
                NIMBLE.load(data)

    def setup() -> None:
        for n in range(calls):
            NIMBLE.initial_state(num_players=4, config={}, seed=f"setup-{n}")

    return [
        _per_call("legal_moves", calls, legal),
        _per_call("apply (validated)", calls, apply),
        _per_call("view (seated)", calls, view),
        _per_call("dump", calls, dump),
        _per_call("load", calls, load),
        _per_call("initial_state 4p", calls, setup),
    ]


def run() -> list[BenchRow]:
    """(metric, value, unit) rows: random playouts for both modes and 2-4 players, then
    per-operation timings on mid-game 4-player positions. About 10 seconds on one core."""
    rows: list[BenchRow] = []
    for mode in ("race", "turns"):
        for players in (2, 3, 4):
            rows += _playouts(players, mode)
    rows += _operations()
    return rows


if __name__ == "__main__":
    for metric, value, unit in run():
        print(f"{metric:<40} {value:>12,.1f} {unit}")
