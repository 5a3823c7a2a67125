"""Bot policies for every game and level.

``POLICIES[game][level]`` is a :data:`games.bots.base.Policy`. Levels: 1 plays uniformly among
the legal moves, 2 is a greedy heuristic, 3 searches. Policies are pure (no Django) and
deterministic given their ``rng``, so a bot's move is reproducible from the match seed and
version.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.bots.base import DESCRIPTIONS, Policy, uses_history
from games.bots.nibble import NIBBLE_POLICIES
from games.bots.nimalia import NIMALIA_POLICIES
from games.bots.nimble import NIMBLE_POLICIES

POLICIES: dict[str, dict[int, Policy]] = {
    "nibble": NIBBLE_POLICIES,
    "nimalia": NIMALIA_POLICIES,
    "nimble": NIMBLE_POLICIES,
}

__all__ = ["DESCRIPTIONS", "POLICIES", "Policy", "choose_move", "needs_history"]


def needs_history(game: str, level: int) -> bool:
    return uses_history(POLICIES[game][level])


def choose_move(game: str, view: dict[str, Any], seat: int, level: int, rng: random.Random,
                history: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """The bot's move; ``history`` (the events its seat was shown) reaches only policies that
    declare they use it."""
    policy = POLICIES[game][level]
    if uses_history(policy):
        return policy(view, seat, rng, history=history)
    return policy(view, seat, rng)
