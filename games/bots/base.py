"""What every bot policy is: a pure function from what a seat may see to a move."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

# policy(view, seat, rng) -> move, where ``view`` is exactly ``engine.view(state, seat)`` (the
# bot never sees hidden cards or the seed) and the move is the game's JSON move.
Policy = Callable[[dict[str, Any], int, random.Random], dict[str, Any]]

DESCRIPTIONS: dict[int, str] = {
    1: "Plays uniformly at random among the legal moves.",
    2: "Greedy: picks the move a casual player would find best right now.",
    3: "Searches ahead under a fixed budget (at most two seconds a move).",
}
