"""Engine-only bot matches, for measuring bot strength without a database.

Every bot sees only ``engine.view(state, seat)``; seats alternate between the two levels from
one match to the next so neither level profits from moving first.
"""

from __future__ import annotations

import math
import multiprocessing
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from games.kit.bots import Policy
from games.kit.protocol import JSON, Outcome, apply_checked, events_for, seeded_rng
from games.kit.registry import game as game_spec

MAX_STEPS = 20_000


@dataclass(frozen=True)
class MatchRecord:
    """One arena match as level A saw it: its number (seed ``"{seed}-{number}"``), A's seat,
    A's points (1, 0.5 or 0), A's score minus B's, and how the match ended (the outcome's
    ``reason``)."""

    number: int
    seat_a: int
    points: float
    score_diff: float
    reason: str


@dataclass
class ArenaResult:
    game: str
    level_a: int
    level_b: int
    matches: list[MatchRecord] = field(default_factory=list)  # in the order of their numbers
    think_seconds: dict[int, list[float]] = field(default_factory=lambda: {})
    # The same moves in process time (CPU seconds): what a move takes on an idle core, whatever
    # the load of the machine was.
    think_cpu_seconds: dict[int, list[float]] = field(default_factory=lambda: {})

    @property
    def games(self) -> int:
        return len(self.matches)

    @property
    def wins_a(self) -> float:
        """A's points: a shared first place counts half."""
        return sum((match.points for match in self.matches), 0.0)

    @property
    def score_diffs(self) -> list[float]:
        """A's score minus B's, per match."""
        return [match.score_diff for match in self.matches]

    def win_rate(self) -> float:
        return self.wins_a / self.games if self.games else 0.0

    def win_rate_interval(self) -> tuple[float, float]:
        """Wilson 95% interval for A's win rate."""
        n = self.games
        if not n:
            return 0.0, 0.0
        p, z = self.win_rate(), 1.96
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    def mean_score_diff(self) -> tuple[float, float]:
        """Mean of A's score minus B's, with the half-width of its 95% interval."""
        diffs = self.score_diffs
        n = len(diffs)
        if n < 2:
            return (diffs[0] if n else 0.0), 0.0
        mean = sum(diffs) / n
        variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return mean, 1.96 * math.sqrt(variance / n)

    def mean_think_ms(self, level: int) -> float:
        times = self.think_seconds.get(level, [])
        return 1000 * sum(times) / len(times) if times else 0.0

    def mean_think_cpu_ms(self, level: int) -> float:
        times = self.think_cpu_seconds.get(level, [])
        return 1000 * sum(times) / len(times) if times else 0.0

    def max_think_cpu_ms(self, level: int) -> float:
        return 1000 * max(self.think_cpu_seconds.get(level, []), default=0.0)


def play_match(game: str, levels: Mapping[int, int], seed: str,
               config: Mapping[str, Any] | None = None,
               on_think: Callable[..., None] | None = None,
               others: Mapping[int, Policy] | None = None) -> Outcome:
    """Play one engine-only match; ``levels[seat]`` is the bot level in each seat. A level
    found in ``others`` is played by that policy instead of the game's own (an outside
    opponent, e.g. level 0 for the reference player; it sees the view only). ``on_think`` is
    called with the level, the wall-clock seconds and the process-time seconds of each move."""
    spec = game_spec(game)
    others = others or {}
    engine = spec.engine
    state = engine.initial_state(num_players=len(levels), config=config or {}, seed=seed)
    # What each seat has been shown so far, for bots that remember.
    histories: dict[int, list[JSON]] = {seat: [] for seat in levels}

    def record(events: Sequence[JSON]) -> None:
        for seat, history in histories.items():
            history.extend(events_for(events, seat))

    for step in range(MAX_STEPS):
        outcome = engine.outcome(state)
        if outcome is not None:
            return outcome
        if not engine.actors(state):
            due = engine.system_step(state)
            if due is None:
                raise RuntimeError(f"{game} match {seed}: nobody may act and no system step is due")
            record(due.events)
            state = due.state
            continue
        actors = sorted(engine.must_act(state))
        seat = actors[step % len(actors)]
        rng = seeded_rng(seed, "bot", step, seat)
        started, started_cpu = time.perf_counter(), time.process_time()
        level = levels[seat]
        if level in others:
            move = others[level](engine.view(state, seat), seat, rng)
        else:
            move = spec.choose_move(level, engine.view(state, seat), seat, rng,
                                    history=histories[seat])
        if on_think is not None:
            on_think(level, time.perf_counter() - started, time.process_time() - started_cpu)
        transition = apply_checked(engine, state, seat, engine.parse_move(move))
        record(transition.events)
        state = transition.state
    raise RuntimeError(f"{game} match {seed} did not end within {MAX_STEPS} steps")


def _arena_game(game: str, level_a: int, level_b: int, number: int,
                config: Mapping[str, Any] | None, seed: str,
                others: Mapping[int, Policy] | None,
                ) -> tuple[MatchRecord, list[tuple[int, float, float]]]:
    """Match ``number`` of an arena, and every think time in it as (level, wall-clock seconds,
    process seconds). Level A sits in seat ``number % 2``."""
    a_seat = number % 2
    levels = {a_seat: level_a, 1 - a_seat: level_b}
    thinks: list[tuple[int, float, float]] = []
    outcome = play_match(game, levels, f"{seed}-{number}", config,
                         on_think=lambda level, wall, cpu: thinks.append((level, wall, cpu)),
                         others=others)
    rank_a, rank_b = outcome.ranks[a_seat], outcome.ranks[1 - a_seat]
    points = 1.0 if rank_a < rank_b else 0.5 if rank_a == rank_b else 0.0
    record = MatchRecord(number, a_seat, points,
                         outcome.scores[a_seat] - outcome.scores[1 - a_seat], outcome.reason)
    return record, thinks


def run_arena(game: str, level_a: int, level_b: int, games: int,
              config: Mapping[str, Any] | None = None, seed: str = "arena",
              progress: Callable[[], None] | None = None, *, first: int = 0, jobs: int = 1,
              others: Mapping[int, Policy] | None = None) -> ArenaResult:
    """Matches ``first`` .. ``first + games - 1`` between two levels, seats alternating.

    Each match depends only on its seed (``"{seed}-{number}"``) and the bots' fixed work
    budgets, so the matches may be played by ``jobs`` processes at once (the policies in
    ``others`` must then be module-level functions) and the result is the same."""
    result = ArenaResult(game, level_a, level_b)
    result.think_seconds = {level_a: [], level_b: []}
    result.think_cpu_seconds = {level_a: [], level_b: []}

    def add(record: MatchRecord, thinks: list[tuple[int, float, float]]) -> None:
        result.matches.append(record)
        for level, wall, cpu in thinks:
            result.think_seconds.setdefault(level, []).append(wall)
            result.think_cpu_seconds.setdefault(level, []).append(cpu)
        if progress is not None:
            progress()

    numbers = range(first, first + games)
    if jobs <= 1:
        for number in numbers:
            add(*_arena_game(game, level_a, level_b, number, config, seed, others))
        return result
    # Forked, so the worker processes know the games registered in this one.
    with ProcessPoolExecutor(max_workers=jobs,
                             mp_context=multiprocessing.get_context("fork")) as pool:
        futures = [pool.submit(_arena_game, game, level_a, level_b, number,
                               dict(config) if config else None, seed, others)
                   for number in numbers]
        for future in futures:
            add(*future.result())
    return result
