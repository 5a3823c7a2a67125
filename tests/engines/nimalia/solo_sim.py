"""The solo simulation behind the solo rank table (games/nimalia/RULES.md).

Two reference players play many seeded solo games with the default options:

* ``random``: a uniformly random legal placement each turn;
* ``greedy``: the placement that maximises the objectives still to be scored, each objective
  weighted by how many more times it will be scored (this round included).

Run once with ``python -m tests.engines.nimalia.solo_sim [games]``; it prints score percentiles
for both players. The test module only plays a few games to keep the tables' basis honest.
"""

from __future__ import annotations

import random
import statistics
import sys
from collections.abc import Callable

from games.kit.protocol import apply_checked
from games.nimalia.engine import NIMALIA, Place, State
from games.nimalia.grid import visible_squares
from games.nimalia.objectives import round_objectives
from games.nimalia.scoring import OWN_SCORERS

Policy = Callable[[State, random.Random], Place]


def random_policy(state: State, rng: random.Random) -> Place:
    return rng.choice(NIMALIA.legal_moves(state, 0))


def greedy_policy(state: State, rng: random.Random) -> Place:
    weights: dict[int, int] = {}
    for n in range(state.round, state.rounds + 1):
        for objective in round_objectives(state.objectives, n):
            weights[objective] = weights.get(objective, 0) + 1
    base = visible_squares(p.as_tuple() for p in state.reserves[0])
    best: list[Place] = []
    best_value = None
    for move in NIMALIA.legal_moves(state, 0):
        grid = dict(base)
        grid.update(visible_squares([move.as_tuple()]))
        value = sum(w * OWN_SCORERS[o](grid) for o, w in weights.items())
        if best_value is None or value > best_value:
            best, best_value = [move], value
        elif value == best_value:
            best.append(move)
    return rng.choice(best)


def play_solo(seed: str, policy: Policy, config: dict | None = None) -> int:
    state = NIMALIA.initial_state(num_players=1, config=config or {}, seed=seed)
    rng = random.Random(seed)
    while NIMALIA.outcome(state) is None:
        if not NIMALIA.actors(state):
            state = NIMALIA.system_step(state).state
            continue
        state = apply_checked(NIMALIA, state, 0, policy(state, rng)).state
    return state.totals[0]


def percentiles(scores: list[int]) -> dict[str, float]:
    cuts = statistics.quantiles(scores, n=20)
    return {"min": min(scores), "p10": cuts[1], "p25": cuts[4], "median": cuts[9],
            "p75": cuts[14], "p90": cuts[17], "max": max(scores),
            "mean": round(statistics.fmean(scores), 1)}


def main(games: int) -> None:
    for name, policy in (("random", random_policy), ("greedy", greedy_policy)):
        scores = [play_solo(f"solo-sim-{n}", policy) for n in range(games)]
        print(name, percentiles(scores), flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
