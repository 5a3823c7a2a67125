"""The level-1 Nim bot plays whole games through the engine-only arena, which finds Nim in the
registry like any built-in game."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.kit.arena import play_match, run_arena
from games.kit.protocol import apply_checked
from tests.fourth_game.nim.bots import level1
from tests.fourth_game.nim.engine import NIM

pytestmark = pytest.mark.usefixtures("nim")


def test_level1_bots_play_whole_two_player_games():
    result = run_arena("nim", 1, 1, games=40, seed="nim-arena")
    assert result.games == 40
    assert 0 < result.wins_a < 40  # chance alone decides between two random players
    assert len(result.score_diffs) == 40


@pytest.mark.parametrize("config", [{}, {"heaps": [7, 7], "max_take": 3}, {"heaps": [1]}])
def test_level1_bots_play_three_player_games_to_the_end(config):
    for number in range(10):
        outcome = play_match("nim", {0: 1, 1: 1, 2: 1}, f"nim-three-{number}", config)
        assert sorted(outcome.ranks) == [1, 2, 2]
        assert outcome.reason == "last_object"


def test_level1_is_uniform_among_the_legal_takes_and_reads_only_its_view():
    state = NIM.initial_state(num_players=2, config={"heaps": [2, 3], "max_take": 2,
                                                     "first_seat": 0}, seed="nim-bot")
    view = NIM.view(state, 0)
    assert "seed" not in view
    rng = random.Random(5)
    counts = Counter(tuple(sorted(level1(view, 0, rng).items())) for _ in range(4000))
    legal = {tuple(sorted(NIM.dump_move(move).items())) for move in NIM.legal_moves(state, 0)}
    assert set(counts) == legal and len(legal) == 4
    assert all(800 < n < 1200 for n in counts.values()), counts
    # Every choice is a move the engine accepts.
    for _ in range(50):
        apply_checked(NIM, state, 0, NIM.parse_move(level1(view, 0, rng)))
