"""Bot policies: pure functions from what a seat may see to a move.

A policy is ``policy(view, seat, rng) -> move`` where ``view`` is exactly
``engine.view(state, seat)`` (the bot never sees hidden cards or the seed) and the move is the
game's JSON move. ``POLICIES[game][level]`` holds them; levels are 1 (uniform among legal
moves), 2 (a greedy heuristic) and 3 (search under a time budget).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

Policy = Callable[[dict[str, Any], int, random.Random], dict[str, Any]]

POLICIES: dict[str, dict[int, Policy]] = {}

DESCRIPTIONS: dict[int, str] = {
    1: "Plays uniformly at random among the legal moves.",
    2: "Greedy: picks the move a casual player would find best right now.",
    3: "Searches ahead under a time budget.",
}


def choose_move(game: str, view: dict[str, Any], seat: int, level: int,
                rng: random.Random) -> dict[str, Any]:
    return POLICIES[game][level](view, seat, rng)
