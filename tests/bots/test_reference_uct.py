"""The reference opponent (plain UCT with random playouts, ``games.reference.uct_nibble``) has
its own implementation of the Nibble rules: it imports nothing of the project, and its rules
agree with the engine's on every position of random matches (legal takes, winner), in Python
and in its C core. The C core chooses the same take as the Python implementation for a seed,
and the Python one plays when no C compiler is at hand."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from games.kit.protocol import apply_checked
from games.nibble.engine import NIBBLE
from games.reference import uct_nibble
from games.reference.uct_nibble import Core, SplitMix, position_of, reference_policy


def test_the_reference_imports_nothing_of_the_project() -> None:
    tree = ast.parse(Path(uct_nibble.__file__).read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom)}
    assert all(not name.startswith(("games", "django", "config", "accounts"))
               for name in imported), imported


def _mask(move: dict) -> int:
    return sum(1 << (9 * r + c) for r, c in move["take"])


def test_its_rules_agree_with_the_engine_on_random_matches() -> None:
    positions = 0
    for number in range(6):
        rng = random.Random(number)
        state = NIBBLE.initial_state(num_players=2, config={}, seed=f"reference-{number}")
        while True:
            seat = state.to_move
            mine = position_of(NIBBLE.view(state, seat), seat)
            engine_moves = {_mask(NIBBLE.dump_move(m)) for m in NIBBLE.legal_moves(state, seat)}
            assert set(mine.moves()) == engine_moves
            move = NIBBLE.dump_move(rng.choice(NIBBLE.legal_moves(state, seat)))
            mine.play(_mask(move))
            state = apply_checked(NIBBLE, state, seat, NIBBLE.parse_move(move)).state
            positions += 1
            outcome = NIBBLE.outcome(state)
            if outcome is None:
                assert mine.winner is None
                continue
            assert outcome.winners == frozenset({mine.winner})
            break
    assert positions > 100


def test_its_random_playout_moves_are_legal() -> None:
    rng = SplitMix(7)
    state = NIBBLE.initial_state(num_players=2, config={}, seed="reference-playout")
    while NIBBLE.outcome(state) is None:
        seat = state.to_move
        mine = position_of(NIBBLE.view(state, seat), seat)
        mask = mine.random_move(rng)
        move = {"take": [[i // 9, i % 9] for i in range(81) if mask >> i & 1]}
        state = apply_checked(NIBBLE, state, seat, NIBBLE.parse_move(move)).state


def test_its_move_is_legal_and_reproducible() -> None:
    state = NIBBLE.initial_state(num_players=2, config={}, seed="reference-move")
    for _ in range(6):
        seat = state.to_move
        view = NIBBLE.view(state, seat)
        move = reference_policy(view, seat, random.Random("r"), playouts=60)
        assert move == reference_policy(view, seat, random.Random("r"), playouts=60)
        state = apply_checked(NIBBLE, state, seat, NIBBLE.parse_move(move)).state


@pytest.fixture(scope="module")
def native() -> Core:
    core = uct_nibble.load_core()
    assert core is not None, "the C core did not compile (is a C compiler installed?)"
    return core


def _random_positions(count: int, seed: str):
    """(state, seat) for every position of ``count`` random matches."""
    for number in range(count):
        rng = random.Random(f"{seed}-{number}")
        state = NIBBLE.initial_state(num_players=2, config={}, seed=f"{seed}-{number}")
        while NIBBLE.outcome(state) is None:
            seat = state.to_move
            yield state, seat
            move = rng.choice(NIBBLE.legal_moves(state, seat))
            state = apply_checked(NIBBLE, state, seat, move).state


def test_the_c_rules_agree_with_the_engine_on_random_matches(native: Core) -> None:
    positions = ended = 0
    rng = random.Random("c-rules")
    for state, seat in _random_positions(30, "reference-c"):
        view = NIBBLE.view(state, seat)
        mine = position_of(view, seat)
        engine_moves = [_mask(NIBBLE.dump_move(m)) for m in NIBBLE.legal_moves(state, seat)]
        c_moves = native.moves(mine)
        assert len(c_moves) == len(set(c_moves))
        assert set(c_moves) == set(engine_moves)
        assert c_moves == mine.moves()  # the same order as the Python rules
        # Every legal take ends the match exactly when the engine says it does, for the same
        # winner (a few takes of each position, all of them near the end).
        takes = engine_moves if len(engine_moves) <= 12 else rng.sample(engine_moves, 12)
        for mask in takes:
            after = mine.copy()
            native.play(after, mask)
            move = {"take": [[i // 9, i % 9] for i in range(81) if mask >> i & 1]}
            outcome = NIBBLE.outcome(
                apply_checked(NIBBLE, state, seat, NIBBLE.parse_move(move)).state)
            if outcome is None:
                assert after.winner is None
            else:
                assert outcome.winners == frozenset({after.winner})
                ended += 1
        positions += 1
    assert positions > 500 and ended > 30


def test_the_c_playout_moves_are_legal_and_the_python_ones(native: Core) -> None:
    for number, (state, seat) in enumerate(_random_positions(6, "reference-c-playout")):
        mine = position_of(NIBBLE.view(state, seat), seat)
        mask = native.random_move(mine, number)
        assert mask == mine.random_move(SplitMix(number))
        move = {"take": [[i // 9, i % 9] for i in range(81) if mask >> i & 1]}
        apply_checked(NIBBLE, state, seat, NIBBLE.parse_move(move))


def test_c_and_python_choose_the_same_take_and_a_seed_the_same_one(native: Core) -> None:
    state = NIBBLE.initial_state(num_players=2, config={}, seed="reference-same")
    rng = random.Random("same")
    for turn in range(40):
        seat = state.to_move
        position = position_of(NIBBLE.view(state, seat), seat)
        if turn % 8 == 0:
            take = native.uct_search(position, 300, turn)
            assert take == uct_nibble.uct_search(position, 300, SplitMix(turn))
            assert take == native.uct_search(position, 300, turn)
            assert take in position.moves()
        move = rng.choice(NIBBLE.legal_moves(state, seat))
        state = apply_checked(NIBBLE, state, seat, move).state
        if NIBBLE.outcome(state) is not None:
            break


def test_the_policy_is_reproducible_from_its_seed_with_the_full_budget(native: Core) -> None:
    state = NIBBLE.initial_state(num_players=2, config={}, seed="reference-full")
    view = NIBBLE.view(state, state.to_move)
    assert uct_nibble.core() is not None
    first = reference_policy(view, state.to_move, random.Random("full"))
    assert first == reference_policy(view, state.to_move, random.Random("full"))
    apply_checked(NIBBLE, state, state.to_move, NIBBLE.parse_move(first))


def test_without_a_compiler_the_python_implementation_plays(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert uct_nibble.load_core(compiler=str(tmp_path / "no-such-cc"),
                                directory=tmp_path / "cache") is None
    monkeypatch.setattr(uct_nibble, "_core", [None])
    state = NIBBLE.initial_state(num_players=2, config={}, seed="reference-fallback")
    seat = state.to_move
    view = NIBBLE.view(state, seat)
    move = reference_policy(view, seat, random.Random("f"), playouts=80)
    apply_checked(NIBBLE, state, seat, NIBBLE.parse_move(move))
    monkeypatch.setattr(uct_nibble, "_core", [])
    assert move == reference_policy(view, seat, random.Random("f"), playouts=80)  # the C core


def test_the_environment_can_ask_for_the_python_implementation(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOARDPOST_REFERENCE_PURE", "1")
    assert uct_nibble.load_core() is None


def test_a_fresh_cache_compiles_the_core(tmp_path: Path) -> None:
    core = uct_nibble.load_core(directory=tmp_path)
    assert core is not None
    assert [p.suffix for p in tmp_path.iterdir()] == [".so"]
