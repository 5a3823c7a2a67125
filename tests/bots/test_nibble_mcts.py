"""Nibble level 4 (Monte-Carlo tree search, ``games/nibble/bots/mcts.py`` and ``mcts.c``): the C
core and the pure Python choose the same take for a seed, the takes are legal and complete, it
takes an instant win and blocks a one-move threat, and it plays without a compiler. Strength is
measured by ``bot_arena`` (docs/bots.md), not here."""

from __future__ import annotations

import dataclasses
import hashlib
import random
from pathlib import Path

import pytest

from games.nibble.bots import (
    LEVEL4,
    LEVEL4_PURE_ITERATIONS,
    NIBBLE_POLICIES,
    level4,
    mcts,
    mcts_move,
    native,
)
from games.nibble.engine import NIBBLE, State
from tests.bots.test_nibble_bots import checked, hand_built, play, random_positions

SMALL = dataclasses.replace(LEVEL4, iterations=250, seconds=600.0)


@pytest.fixture
def library():
    lib = native.core()
    if lib is None:
        pytest.skip("no C compiler here")
    return lib


def _args(state: State) -> tuple[list[int], list[list[int]], list[int]]:
    seat = state.to_move
    return (list(state.board), [list(state.collections[seat]), list(state.collections[1 - seat])],
            list(state.color_order))


def _cells(mask: int) -> list[list[int]]:
    return [[i // 9, i % 9] for i in range(81) if mask >> i & 1]


def test_level_4_is_the_tree_search() -> None:
    assert NIBBLE_POLICIES[4] is level4


@pytest.mark.parametrize("multi", [0, 1, 2])
def test_c_and_python_choose_the_same_take_for_a_seed(library, multi: int) -> None:
    config = dataclasses.replace(SMALL, multi=multi)
    compared = 0
    for state in random_positions(f"same-{multi}", random.Random(multi), every=9):
        for seed in (1, 2**63 + 5):
            in_c = native.search(library, *_args(state), seed, config)
            in_python = mcts.search(*_args(state), seed, config)
            assert in_c == in_python
            compared += 1
    assert compared >= 6


def test_the_policy_gives_the_same_move_in_c_and_in_python(library) -> None:
    state = random_positions("policy", random.Random(3), every=10)[2]
    view = NIBBLE.view(state, state.to_move)
    moves = [mcts_move(view, state.to_move, random.Random("x"), SMALL, pure=pure)
             for pure in (False, True)]
    assert moves[0] == moves[1]


def test_the_takes_are_exactly_the_engines_legal_moves() -> None:
    checked_positions = 0
    for seed in range(3):
        for state in random_positions(f"takes-{seed}", random.Random(seed)):
            p = mcts.position(*_args(state))
            groups = mcts.Groups(p)
            if max(len(cells) for cells in groups.by_colour) > mcts.SUBSET_CELLS:
                continue
            ours = sorted(tuple(map(tuple, _cells(mask))) for _, mask, _ in
                          mcts.legal_takes(p, groups))
            engine = sorted(move.cells for move in NIBBLE.legal_moves(state, state.to_move))
            assert ours == engine
            checked_positions += 1
    assert checked_positions > 60


def test_the_winner_matches_the_engine_on_random_takes() -> None:
    rng = random.Random(4)
    for state in random_positions("winners", rng, every=3):
        move = rng.choice(NIBBLE.legal_moves(state, state.to_move))
        after = NIBBLE.apply(state, state.to_move, move).state
        p = mcts.position(*_args(state))
        mask = sum(1 << (9 * r + c) for r, c in move.cells)
        p.apply(0, state.board[9 * move.cells[0][0] + move.cells[0][1]], mask, len(move.cells))
        ours = mcts.winner_after(p, 0)
        if after.winner is not None:
            assert ours == (0 if after.winner == state.to_move else 1)
        else:
            assert ours in (mcts.UNKNOWN, 0, 1)  # a settled result is known before the end


def test_level_4_plays_legal_moves_on_random_positions(library) -> None:
    config = dataclasses.replace(LEVEL4, iterations=3000, seconds=600.0)
    for seed in range(2):
        for state in random_positions(f"legal-{seed}", random.Random(seed), every=4):
            result = mcts_move(NIBBLE.view(state, state.to_move), state.to_move,
                               random.Random(seed), config)
            checked(state, {"take": _cells(result.mask)})
            assert result.iterations <= config.iterations


# Seat 0 to move; a line of discs on the top row, so only its two ends can be taken.
LINE = ["04321"]
NINE = ([8, 4, 4, 4, 4, 4, 4, 4, 4], [0, 4, 4, 4, 4, 5, 5, 5, 5])  # seat 0 needs the last 0


@pytest.mark.parametrize("pure", [False, True])
def test_it_takes_an_instant_win(pure: bool) -> None:
    nine = hand_built(LINE, *NINE)
    # Only the 5 below the 1 and the 4 at the end can be taken; the 5 makes 4, 5, 6 all sevens.
    sevens = hand_built(["1234", "5"], [3, 4, 4, 4, 7, 6, 7, 4, 4], [6, 4, 4, 4, 1, 2, 2, 5, 5])
    for state, reason in ((nine, "nine_of_a_colour"), (sevens, "three_adjacent_sevens")):
        view = NIBBLE.view(state, 0)
        result = mcts_move(view, 0, random.Random(0), SMALL, pure=pure)
        after = checked(state, {"take": _cells(result.mask)})
        assert after.winner == 0
        assert after.reason == reason


def test_level_4_takes_an_instant_win_at_full_strength() -> None:
    state = hand_built(LINE, *NINE)
    assert play(state, level4) == {"take": [[0, 0]]}


@pytest.mark.parametrize("pure", [False, True])
def test_it_blocks_a_one_move_threat(pure: bool) -> None:
    # Seat 1 holds 8 of colour 0 and the last 0 can be taken: seat 0 must take it first.
    state = hand_built(LINE, [0, 4, 4, 4, 4, 5, 5, 4, 4], [8, 4, 4, 4, 4, 4, 4, 5, 5])
    result = mcts_move(NIBBLE.view(state, 0), 0, random.Random(1), SMALL, pure=pure)
    assert _cells(result.mask) == [[0, 0]]


def test_it_does_not_open_an_instant_win_for_the_opponent() -> None:
    # As in test_nibble_bots: taking a top corner would expose seat 1's ninth 0.
    state = hand_built(["102", "434"],
                       [0, 5, 5, 4, 4, 5, 5, 4, 4], [8, 3, 3, 4, 3, 4, 4, 5, 5])
    for pure in (False, True):
        result = mcts_move(NIBBLE.view(state, 0), 0, random.Random(2), SMALL, pure=pure)
        cells = _cells(result.mask)
        assert [0, 0] not in cells and [0, 2] not in cells


def test_the_time_cap_stops_a_long_search(library) -> None:
    state = NIBBLE.initial_state(num_players=2, config={}, seed="cap")
    config = dataclasses.replace(LEVEL4, iterations=10**8, seconds=0.05)
    result = mcts_move(NIBBLE.view(state, state.to_move), state.to_move, random.Random(0),
                       config)
    assert result.iterations < 10**8
    checked(state, {"take": _cells(result.mask)})


# --------------------------------------------------------------------------- loading


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BOARDPOST_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(native, "_loaded", {})
    return tmp_path


def test_the_core_compiles_into_the_cache_once(fresh_cache: Path, library) -> None:
    lib = native.core()
    assert lib is not None
    assert [p.name for p in fresh_cache.iterdir()] == [native.library_name()]
    assert native.core() is lib


def test_a_built_core_loads_without_a_compiler(fresh_cache: Path, library,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    native.build(fresh_cache)
    monkeypatch.setenv("CC", "/nonexistent/cc")
    assert native.core() is not None


def test_without_a_compiler_the_pure_python_plays(fresh_cache: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CC", "/nonexistent/cc")
    assert native.core() is None
    assert list(fresh_cache.iterdir()) == []  # no half-written file left behind
    state = random_positions("fallback", random.Random(9), every=15)[1]
    view = NIBBLE.view(state, state.to_move)
    result = mcts_move(view, state.to_move, random.Random(0), SMALL)
    checked(state, {"take": _cells(result.mask)})
    checked(state, level4(view, state.to_move, random.Random(0)))
    # Level 4's budget in pure Python is reproducible for a seed. Its seconds are a safety net
    # only (a loaded machine may reach them first), so they are lifted here.
    unhurried = dataclasses.replace(LEVEL4, seconds=600.0)
    first, again = (mcts_move(view, state.to_move, random.Random(0), unhurried)
                    for _ in range(2))
    assert first.iterations <= LEVEL4_PURE_ITERATIONS
    assert (first.mask, first.iterations) == (again.mask, again.iterations)


def test_the_pure_switch_turns_the_core_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOARDPOST_NIBBLE_PURE", "1")
    assert native.core() is None


def test_the_docker_image_names_the_core_as_the_loader_does() -> None:
    digest = hashlib.sha256(native.SOURCE.read_bytes()).hexdigest()
    assert native.library_name() == f"nibble_mcts-{digest[:16]}.so"
    dockerfile = (Path(__file__).parents[2] / "docker" / "Dockerfile").read_text()
    assert 'nibble_mcts-$(sha256sum /src/mcts.c | cut -c1-16).so' in dockerfile
    assert "BOARDPOST_CACHE_DIR=/opt/boardpost-cache" in dockerfile
