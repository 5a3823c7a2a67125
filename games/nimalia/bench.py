"""Nimalia engine benchmark: legal placements, round scoring time, random games per second.

A random game picks, at every step, a random seat the draft turn still waits for (``must_act``)
and a random legal placement for it, played through ``apply_checked``; the round's system step
runs when it is due. Every figure is measured on one core, in this process.
"""

from __future__ import annotations

import dataclasses
import random
import statistics
import time

from games.kit.protocol import apply_checked
from games.kit.registry import BenchRow
from games.nimalia.cards import CARD_IDS, ROTATIONS
from games.nimalia.engine import NIMALIA, Place, State
from games.nimalia.grid import visible_squares
from games.nimalia.scoring import objective_points

SECONDS_PER_METRIC = 2.5
MIN_GAMES = 10
MID_GAME_STATES = 200
SCORING_REPEATS = 300


def _system_step(state: State) -> State:
    """The state after the system step that is due once the draft turn waits for nobody."""
    transition = NIMALIA.system_step(state)
    if transition is None:
        raise AssertionError("a running match that waits for nobody has a system step due")
    return transition.state


def _random_game(players: int, seed: str) -> tuple[State, int]:
    rng = random.Random(seed)
    state = NIMALIA.initial_state(num_players=players, config={}, seed=seed)
    placements = 0
    while NIMALIA.outcome(state) is None:
        waiting = sorted(NIMALIA.must_act(state))
        if not waiting:
            state = _system_step(state)
            continue
        seat = rng.choice(waiting)
        state = apply_checked(NIMALIA, state, seat,
                              rng.choice(NIMALIA.legal_moves(state, seat))).state
        placements += 1
    return state, placements


def _games(players: int) -> list[BenchRow]:
    games = placements = 0
    started = time.perf_counter()
    while games < MIN_GAMES or time.perf_counter() - started < SECONDS_PER_METRIC / 2:
        _, n = _random_game(players, f"bench-game-{players}-{games}")
        games += 1
        placements += n
    elapsed = time.perf_counter() - started
    return [(f"random complete games, {players} player{'s' * (players > 1)} "
             "(setup and scoring included)", games / elapsed, "games/s"),
            (f"random placements, {players} player{'s' * (players > 1)} "
             "(legal moves + validate + apply)", placements / elapsed, "placements/s")]


def _mid_game_states(count: int) -> list[State]:
    """Draft positions from random 4-player games, at every stage of the game."""
    states: list[State] = []
    n = 0
    while len(states) < count:
        rng = random.Random(f"bench-mid-{n}")
        state = NIMALIA.initial_state(num_players=4, config={}, seed=f"bench-mid-{n}")
        stop = rng.randrange(60)
        for _ in range(stop):
            waiting = sorted(NIMALIA.must_act(state))
            if not waiting:
                state = _system_step(state)
                continue
            seat = rng.choice(waiting)
            state = NIMALIA.apply(state, seat, rng.choice(NIMALIA.legal_moves(state, seat)))\
                .state
        if NIMALIA.must_act(state):
            states.append(state)
        n += 1
    return states


def _legal_moves() -> list[BenchRow]:
    states = _mid_game_states(MID_GAME_STATES)
    calls = moves = 0
    started = time.perf_counter()
    while time.perf_counter() - started < SECONDS_PER_METRIC:
        for state in states:
            for seat in NIMALIA.must_act(state):
                moves += len(NIMALIA.legal_moves(state, seat))
                calls += 1
    elapsed = time.perf_counter() - started
    return [("legal placements generated", moves / elapsed, "placements/s"),
            ("legal_moves calls (mid-game hand of 1-3 cards)", calls / elapsed, "calls/s"),
            ("mean legal placements per call", moves / calls, "placements")]


def _full_reserve(rng: random.Random) -> tuple[Place, ...]:
    """Fifteen cards covering a whole 6 x 6 reserve: a 3 x 3 tiling, then six on top."""
    cards = rng.sample(CARD_IDS, 15)
    anchors = [(r, c) for r in (0, 2, 4) for c in (0, 2, 4)]
    anchors += [(rng.randrange(5), rng.randrange(5)) for _ in range(6)]
    return tuple(Place(card, r, c, rng.choice(ROTATIONS))
                 for card, (r, c) in zip(cards, anchors, strict=True))


def _scoring() -> list[BenchRow]:
    rng = random.Random("bench-scoring")
    # Round 4 scores three objectives (green, yellow, red); these are among the costliest.
    state = NIMALIA.initial_state(num_players=4, config={"objectives": [15, 2, 12, 18]},
                                  seed="bench-scoring")
    samples_round = []
    samples_all = []
    for _ in range(SCORING_REPEATS):
        reserves = tuple(_full_reserve(rng) for _ in range(4))
        due = dataclasses.replace(state, reserves=reserves, round=4, turn=3, hands=((),) * 4)
        started = time.perf_counter()
        NIMALIA.system_step(due)
        samples_round.append(time.perf_counter() - started)
        started = time.perf_counter()
        grids = [visible_squares(p.as_tuple() for p in reserve) for reserve in reserves]
        for objective in range(1, 23):
            objective_points(objective, grids)
        samples_all.append(time.perf_counter() - started)
    return [
        ("score a round, 4 full 6x6 reserves, 3 objectives (system step, median)",
         statistics.median(samples_round) * 1000, "ms"),
        ("score a round, same, 95th percentile",
         statistics.quantiles(samples_round, n=20)[18] * 1000, "ms"),
        ("score all 22 objectives, 4 full 6x6 reserves (median)",
         statistics.median(samples_all) * 1000, "ms"),
    ]


def run() -> list[BenchRow]:
    """Every Nimalia figure as (metric, value, unit) rows."""
    rows = _legal_moves()
    rows += _scoring()
    for players in (4, 2, 1):
        rows += _games(players)
    return rows


if __name__ == "__main__":
    for metric, value, unit in run():
        print(f"{metric:<80} {value:>12,.2f} {unit}")
