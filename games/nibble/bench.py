"""Nibble engine benchmark: random complete games per second, and per-operation timings.

A random game draws each turn from the compact legal-move form (:func:`takeable_discs`): a random
colour, then a random non-empty subset of its takeable discs, played through ``apply_checked``; a
subset that would split the board is refused by the engine (``nibble.splits_board``) and the turn
falls back to the subset's first disc. Every figure is measured on one core, in this process.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from games.kit.protocol import IllegalMove, apply_checked
from games.kit.registry import BenchRow
from games.nibble.engine import (
    NIBBLE,
    Move,
    State,
    articulation_points,
    disc_mask,
    local_takeable,
    takeable_discs,
)

SECONDS_FOR_GAMES = 3.0
MIN_GAMES = 20
BOARDS = 1000
MID_GAME_DISCS = (30, 50)  # discs left on a mid-game board

Item = TypeVar("Item")


def _turn(state: State, rng: random.Random) -> State:
    found = takeable_discs(state)
    colour = rng.choice(list(found))
    cells = rng.sample(found[colour], rng.randint(1, len(found[colour])))
    seat = state.to_move
    try:
        return apply_checked(NIBBLE, state, seat, Move(tuple(cells))).state
    except IllegalMove:
        return apply_checked(NIBBLE, state, seat, Move((cells[0],))).state


def _game(seed: str) -> tuple[State, int]:
    rng = random.Random(seed)
    state = NIBBLE.initial_state(num_players=2, config={}, seed=seed)
    turns = 0
    while state.winner is None:
        state = _turn(state, rng)
        turns += 1
    return state, turns


def _games() -> list[BenchRow]:
    games = turns = 0
    started = time.perf_counter()
    while games < MIN_GAMES or time.perf_counter() - started < SECONDS_FOR_GAMES:
        _, n = _game(f"bench-game-{games}")
        games += 1
        turns += n
    elapsed = time.perf_counter() - started
    return [
        ("random complete games (setup included)", games / elapsed, "games/s"),
        ("random turns (takeable discs + validate + apply)", turns / elapsed, "turns/s"),
        ("mean game length", turns / games, "turns"),
    ]


def _mid_game_boards(count: int) -> list[State]:
    """Positions with 30-50 discs left, from random games (a game that ends sooner is skipped)."""
    boards: list[State] = []
    n = 0
    while len(boards) < count:
        rng = random.Random(f"bench-mid-{n}")
        state = NIBBLE.initial_state(num_players=2, config={}, seed=f"bench-mid-{n}")
        target = rng.randint(*MID_GAME_DISCS)
        while state.winner is None and 81 - state.board.count(-1) > target:
            state = _turn(state, rng)
        if state.winner is None:
            boards.append(state)
        n += 1
    return boards


def _median_us(func: Callable[[Item], object], items: Sequence[Item], repeat: int = 3) -> float:
    """The median over ``items`` of the best of ``repeat`` timed calls, in microseconds."""
    clock = time.perf_counter_ns
    samples = []
    for item in items:
        times = []
        for _ in range(repeat):
            start = clock()
            func(item)
            times.append(clock() - start)
        samples.append(min(times))
    return statistics.median(samples) / 1000


def _timings() -> list[BenchRow]:
    seeds = [f"bench-board-{n}" for n in range(BOARDS)]
    full = [NIBBLE.initial_state(num_players=2, config={}, seed=s) for s in seeds]
    mid = _mid_game_boards(BOARDS)
    needing, share = _positions_needing_the_articulation_pass(BOARDS // 2)
    rng = random.Random("bench-moves")
    moves = []
    for state in mid:
        found = takeable_discs(state)
        colour = rng.choice(list(found))
        moves.append((state, Move((rng.choice(found[colour]),))))

    def validate_and_apply(item: tuple[State, Move]) -> None:
        state, move = item
        NIBBLE.validate(state, state.to_move, move)
        NIBBLE.apply(state, state.to_move, move)

    def initial(seed: str) -> None:
        NIBBLE.initial_state(num_players=2, config={}, seed=seed)

    return [
        ("setup: seeded board generation (initial_state)", _median_us(initial, seeds, 1), "us"),
        ("takeable discs, full boards (median)", _median_us(takeable_discs, full), "us"),
        ("takeable discs, mid-game boards, 30-50 discs (median)",
         _median_us(takeable_discs, mid), "us"),
        ("positions (all game stages) where takeable discs need the articulation pass",
         share, "%"),
        ("takeable discs, positions that need the articulation pass (median)",
         _median_us(takeable_discs, needing), "us"),
        ("articulation pass alone (Tarjan), mid-game boards (median)",
         _median_us(lambda s: articulation_points(s.board), mid), "us"),
        ("validate + apply of one single-disc turn, mid-game (median)",
         _median_us(validate_and_apply, moves), "us"),
        ("legal_moves full enumeration, mid-game (median)",
         _median_us(lambda s: NIBBLE.legal_moves(s, s.to_move), mid[:300], 1), "us"),
    ]


def _positions_needing_the_articulation_pass(count: int) -> tuple[list[State], float]:
    """Positions from random games whose takeable discs need Tarjan's pass (mostly late-game
    boards with thin arms), and their share of all positions seen."""
    found: list[State] = []
    seen = n = 0
    while len(found) < count:
        rng = random.Random(f"bench-late-{n}")
        state = NIBBLE.initial_state(num_players=2, config={}, seed=f"bench-late-{n}")
        while state.winner is None:
            seen += 1
            if _needs_articulation_pass(state.board):
                found.append(state)
            state = _turn(state, rng)
        n += 1
    return found, 100.0 * len(found) / seen


def _needs_articulation_pass(board: Sequence[int]) -> bool:
    """Whether :func:`takeable_discs` falls back to Tarjan's pass for this board."""
    return bool(local_takeable(disc_mask(board))[1])


def run() -> list[BenchRow]:
    return _games() + _timings()
