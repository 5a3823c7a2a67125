"""What every bot policy is: a pure function from what a seat may see to a move."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

# policy(view, seat, rng) -> move, where ``view`` is exactly ``engine.view(state, seat)`` (the
# bot never sees hidden cards or the seed) and the move is the game's JSON move.
Policy = Callable[[dict[str, Any], int, random.Random], dict[str, Any]]

# A policy that remembers what its seat has seen sets ``policy.uses_history = True`` and is then
# called as ``policy(view, seat, rng, history=events)``: every event of the match so far that
# the seat was shown (``engine.base.events_for``), oldest first. That is what a person at the
# table could remember, and no more.
HISTORY_ATTRIBUTE = "uses_history"


def uses_history(policy: Policy) -> bool:
    return bool(getattr(policy, HISTORY_ATTRIBUTE, False))

DESCRIPTIONS: dict[int, str] = {
    1: "Plays uniformly at random among the legal moves.",
    2: "Greedy: picks the move a casual player would find best right now.",
    3: "Searches ahead under a fixed budget (at most two seconds a move).",
}

# Real-time matches (a Nimble race): seconds a bot waits before each action, by level. Slow
# enough that a person can beat levels 1 and 2 to the stacks.
REACTION_SECONDS: dict[int, float] = {1: 3.0, 2: 2.0, 3: 1.2}
