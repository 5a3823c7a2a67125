"""Nibble bots: every level plays legal moves on reachable positions, choices are reproducible,
level 3 keeps to its budget, and a small arena runs. Strength is measured by ``bot_arena``, not
here (see docs/bots.md)."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.catalog import game
from games.kit.arena import run_arena
from games.kit.protocol import apply_checked
from games.nibble.bots import (
    LEVEL3_NODES,
    LEVEL3_SECONDS,
    NIBBLE_POLICIES,
    PLACEHOLDER_SEED,
    level1,
    level2,
    level3,
    search_move,
    view_state,
)
from games.nibble.bots.search import all_takes, takeable_mask
from games.nibble.engine import NIBBLE, Move, State, takeable_discs

TABLE = tuple(range(9))


def random_positions(seed: str, rng: random.Random, every: int = 1) -> list[State]:
    """The positions of one match played by level 1 (every ``every``-th one)."""
    state = NIBBLE.initial_state(num_players=2, config={}, seed=seed)
    found = []
    while NIBBLE.outcome(state) is None:
        if state.turn % every == 0:
            found.append(state)
        move = level1(NIBBLE.view(state, state.to_move), state.to_move, rng)
        state = apply_checked(NIBBLE, state, state.to_move, NIBBLE.parse_move(move)).state
    return found


def checked(state: State, move: dict) -> State:
    """Play ``move`` through the engine's checks (raises on an illegal move)."""
    return apply_checked(NIBBLE, state, state.to_move, NIBBLE.parse_move(move)).state


def play(state: State, policy, seed: int = 0) -> dict:
    return policy(NIBBLE.view(state, state.to_move), state.to_move, random.Random(seed))


def hand_built(rows: list[str], seat0: list[int], seat1: list[int], to_move: int = 0) -> State:
    board = tuple(-1 if ch == "." else int(ch) for row in rows for ch in row.ljust(9, "."))
    board += (-1,) * (81 - len(board))
    state = State(seed="hand-built", board=board, color_order=TABLE, first_seat=0,
                  to_move=to_move, collections=(tuple(seat0), tuple(seat1)))
    assert NIBBLE.load(NIBBLE.dump(state)) == state
    return state


# --------------------------------------------------------------------------- registry


def test_registered_at_four_levels() -> None:
    assert game("nibble").policies is NIBBLE_POLICIES
    assert sorted(NIBBLE_POLICIES) == [1, 2, 3, 4]


def test_view_state_rebuilds_the_position_with_a_placeholder_seed() -> None:
    state = random_positions("rebuild", random.Random(3), every=9)[-1]
    rebuilt = view_state(NIBBLE.view(state, state.to_move), state.to_move)
    assert rebuilt.seed == PLACEHOLDER_SEED != state.seed
    assert (rebuilt.board, rebuilt.collections, rebuilt.color_order, rebuilt.to_move) == (
        state.board, state.collections, state.color_order, state.to_move)


# --------------------------------------------------------------------------- move generation


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_search_move_generation_matches_the_engine(seed: int) -> None:
    """The bots' own takeable discs and legal takes are the engine's, on every position of a
    random match."""
    for state in random_positions(f"gen-{seed}", random.Random(seed)):
        board = list(state.board)
        discs = sum(1 << i for i in range(81) if board[i] >= 0)
        mine = {(i // 9, i % 9) for i in range(81) if takeable_mask(discs) >> i & 1}
        assert mine == {cell for cells in takeable_discs(state).values() for cell in cells}
        takes = {tuple(divmod(i, 9) for i in cells) for _, cells, _ in all_takes(board, discs)}
        assert takes == {move.cells for move in NIBBLE.legal_moves(state, state.to_move)}


# --------------------------------------------------------------------------- legality


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_levels_1_and_2_always_play_legal_moves(seed: int) -> None:
    for state in random_positions(f"legal-{seed}", random.Random(seed)):
        for policy in (level1, level2):
            checked(state, play(state, policy, seed))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_the_search_always_plays_legal_moves(seed: int) -> None:
    """The level 3 search on a small budget (the same code paths, quicker) on every position."""
    rng = random.Random(seed)
    for state in random_positions(f"search-{seed}", rng):
        move, stats = search_move(NIBBLE.view(state, state.to_move), state.to_move, rng,
                                  nodes=150)
        checked(state, move)
        assert stats["nodes"] <= 151


def test_level3_plays_legal_moves_at_full_strength() -> None:
    for state in random_positions("full", random.Random(7), every=8):
        checked(state, play(state, level3))


def test_whole_matches_between_the_levels_end_legally() -> None:
    """Matches where the level 2 and 3 bots also meet late-game positions of their own making."""
    for number, levels in enumerate(((2, 1), (1, 2), (2, 2))):
        state = NIBBLE.initial_state(num_players=2, config={}, seed=f"match-{number}")
        while NIBBLE.outcome(state) is None:
            policy = NIBBLE_POLICIES[levels[state.to_move]]
            state = checked(state, play(state, policy, state.turn))


# --------------------------------------------------------------------------- tactics


def test_every_level_takes_the_last_disc() -> None:
    state = hand_built(["0"], [4, 5, 5, 5, 5, 4, 4, 4, 4], [4, 4, 4, 4, 4, 5, 5, 5, 5])
    for policy in NIBBLE_POLICIES.values():
        assert play(state, policy) == {"take": [[0, 0]]}
    assert checked(state, {"take": [[0, 0]]}).winner == 0


def test_levels_2_and_3_take_an_instant_win() -> None:
    # Seat 0 holds 7 of colour 0 and seat 1 none: taking both corner 0s together wins at once.
    state = hand_built(["012", "123", "230"],
                       [7, 3, 3, 3, 5, 5, 5, 4, 4], [0, 4, 3, 4, 4, 4, 4, 5, 5])
    for policy in (level2, level3):
        after = checked(state, play(state, policy))
        assert (after.winner, after.reason) == (0, "nine_of_a_colour")


def test_levels_2_and_3_do_not_open_an_instant_win_for_the_opponent() -> None:
    # Seat 1 holds 8 of colour 0. Taking the 1 or the 2 in the top corners would expose the last
    # 0 between them; taking the 4s below does not.
    state = hand_built(["102", "434"],
                       [0, 5, 5, 4, 4, 5, 5, 4, 4], [8, 3, 3, 4, 3, 4, 4, 5, 5])
    for risky in ({"take": [[0, 0]]}, {"take": [[0, 2]]}):
        exposed = takeable_discs(checked(state, risky))
        assert (0, 1) in exposed[0]
    for policy in (level2, level3):
        move = play(state, policy)
        after = checked(state, move)
        assert (0, 1) not in takeable_discs(after).get(0, ()), move


# --------------------------------------------------------------------------- reproducibility


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_same_view_and_rng_seed_give_the_same_move(level: int) -> None:
    policy = NIBBLE_POLICIES[level]
    for state in random_positions("repeat", random.Random(11), every=12):
        view = NIBBLE.view(state, state.to_move)
        first = policy(view, state.to_move, random.Random("same"))
        again = policy(NIBBLE.view(state, state.to_move), state.to_move, random.Random("same"))
        assert first == again


def test_the_rng_breaks_ties_at_level_1() -> None:
    state = NIBBLE.initial_state(num_players=2, config={}, seed="ties")
    legal = {str(NIBBLE.dump_move(move)) for move in NIBBLE.legal_moves(state, state.to_move)}
    assert {str(play(state, level1, seed)) for seed in range(60)} == legal


# --------------------------------------------------------------------------- budget


def test_level3_keeps_to_its_budget_on_a_full_board() -> None:
    state = NIBBLE.initial_state(num_players=2, config={}, seed="budget")
    view = NIBBLE.view(state, state.to_move)
    started = time.perf_counter()
    move, stats = search_move(view, state.to_move, random.Random(0))
    elapsed = time.perf_counter() - started
    assert elapsed < 2.0 and LEVEL3_SECONDS < 2.0
    assert stats["nodes"] <= LEVEL3_NODES + 1
    checked(state, move)


def test_the_time_cap_stops_a_search_that_would_run_long() -> None:
    state = random_positions("cap", random.Random(5), every=20)[1]
    started = time.perf_counter()
    move, stats = search_move(NIBBLE.view(state, state.to_move), state.to_move,
                              random.Random(0), nodes=10**9, seconds=0.05)
    assert time.perf_counter() - started < 0.5
    checked(state, move)


# --------------------------------------------------------------------------- arena


def test_a_small_arena_runs() -> None:
    result = run_arena("nibble", 2, 1, 6, seed="smoke")
    assert result.games == 6
    assert 0.0 <= result.win_rate() <= 1.0
    assert result.think_seconds[2] and result.think_seconds[1]


def test_moves_are_dicts_of_cell_pairs() -> None:
    state = NIBBLE.initial_state(num_players=2, config={}, seed="shape")
    for policy in NIBBLE_POLICIES.values():
        move = play(state, policy)
        assert set(move) == {"take"}
        assert all(isinstance(cell, list) and len(cell) == 2 for cell in move["take"])
        assert isinstance(NIBBLE.parse_move(move), Move)
