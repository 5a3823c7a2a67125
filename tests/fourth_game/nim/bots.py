"""Nim bots. Level 1 plays uniformly at random among the legal takes.

A policy sees only ``NIM.view(state, seat)``: the heaps and the take limit are all it needs.
"""

from __future__ import annotations

import random
from typing import Any

from games.kit.bots import Policy


def legal_takes(view: dict[str, Any]) -> list[dict[str, int]]:
    """Every legal take the view offers, as JSON moves, by heap then count."""
    limit = view.get("max_take")
    takes: list[dict[str, int]] = []
    for heap, size in enumerate(view["heaps"]):
        most = size if limit is None else min(size, limit)
        takes.extend({"heap": heap, "count": count} for count in range(1, most + 1))
    return takes


def level1(view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """Uniform among every legal take."""
    return rng.choice(legal_takes(view))


NIM_POLICIES: dict[int, Policy] = {1: level1}
