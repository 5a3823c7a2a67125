"""The reference opponent (plain UCT with random playouts, ``games.reference.uct_nibble``) has
its own implementation of the Nibble rules: it imports nothing of the project, and its rules
agree with the engine's on every position of random matches (legal takes, winner)."""

from __future__ import annotations

import ast
import random
from pathlib import Path

from games.kit.protocol import apply_checked
from games.nibble.engine import NIBBLE
from games.reference import uct_nibble
from games.reference.uct_nibble import position_of, reference_policy


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
    rng = random.Random(7)
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
