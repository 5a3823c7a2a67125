"""Nimalia bots: level 1 places at random, level 2 is greedy, level 3 plans the rest of the round,
level 4 plans it too with what its seat remembers (the hands it passed) and a bigger budget.

Every level reads only ``view`` (``engine.view(state, seat)``): its own hand, every reserve's
visible squares, the objectives and the round card; level 4 also the events its seat was shown.
Scores come from the engine's own objective scorers, applied to the visible reserves the view
shows.

A move is ``{"card": id, "row": r, "col": c, "rotation": 0|90|180|270}``. The server asks a bot
to move only when it has no pending placement; a bot returns ``{"undo": true}`` only when that is
its one legal move.
"""

from __future__ import annotations

import random
from typing import Any

from games.nimalia.bots.core import (
    UNDO,
    Position,
    as_move,
    best_of,
    must_undo,
    objective_weights,
    place,
    weighted_points,
)
from games.nimalia.bots.deep import deep_policy
from games.nimalia.bots.search import search_policy

# Level 2 values an objective it will score again in a later round at this fraction of its
# points per later scoring: the reserve will change before then, but most objectives keep most
# of what they have.
GREEDY_LATER_WEIGHT = 0.5


def random_policy(view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """Level 1: uniform among the legal placements."""
    if must_undo(view):
        return dict(UNDO)
    position = Position.from_view(view, seat)
    choices = position.placements()
    return as_move(choices[rng.randrange(len(choices))])


def greedy_policy(view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """Level 2: the placement whose reserve scores best on this round's and later objectives."""
    if must_undo(view):
        return dict(UNDO)
    position = Position.from_view(view, seat)
    weights = objective_weights(position, GREEDY_LATER_WEIGHT)
    grid, grids = position.grids[seat], position.grids
    scored = [(weighted_points(weights, place(grid, p), seat, grids), p)
              for p in position.placements()]
    return as_move(best_of(scored, rng))


NIMALIA_POLICIES = {
    1: random_policy,
    2: greedy_policy,
    3: search_policy,
    4: deep_policy,
}
