"""Bot policies for every game and level.

``POLICIES[game][level]`` is a :data:`games.bots.base.Policy`. Levels: 1 plays uniformly among
the legal moves, 2 is a greedy heuristic, 3 searches. Policies are pure (no Django) and
deterministic given their ``rng``, so a bot's move is reproducible from the match seed and
version.
"""

from __future__ import annotations

import random
from typing import Any

from games.bots.base import DESCRIPTIONS, Policy

POLICIES: dict[str, dict[int, Policy]] = {
}

__all__ = ["DESCRIPTIONS", "POLICIES", "Policy", "choose_move"]


def choose_move(game: str, view: dict[str, Any], seat: int, level: int,
                rng: random.Random) -> dict[str, Any]:
    return POLICIES[game][level](view, seat, rng)
