"""Nimble bots: level 1 plays at random, level 2 greedily, level 3 remembers and plans.

Levels 1 and 2 read only ``view = engine.view(state, seat)``: counts, discard tops, stack tops,
the turn budget. Level 3 also reads the events its seat was shown (``uses_history``), which is
what a player at the table can remember: every discard pile in order, every card put back on a
Set, and after a recycle the whole Set (:mod:`games.nimble.bots.memory`). It searches its own
action sequences in worlds where only the never-seen cards are dealt at random
(:mod:`games.nimble.bots.plan`). A history that does not lead to the view (for instance none at
all in the middle of a match) leaves it without memory, and it plays level 2's move.

Level 4 has level 3's memory. With two players in turn mode it searches whole turns of both seats
several deep (:mod:`games.nimble.bots.deep`), the other seat's as a player who plans its own turn
would play them, in worlds that deal the never-seen cards at random until every card of both
seats is known (after their first recycles), then in the one exact world; should not even two
turns finish within its budget, it plans like level 3 with the other seat's reply turn searched
too.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.kit.bots import HistoryPolicy, Policy, remembers
from games.nimble.bots.deep import deep_values
from games.nimble.bots.memory import Memory, reconstruct
from games.nimble.bots.plan import PlanBudget, plan_values
from games.nimble.bots.sim import (
    END,
    FLIP,
    PLACE0,
    RECYCLE,
    RETURN,
    move_int,
    move_json,
    sim_from_view,
)

View = dict[str, Any]
MoveJSON = dict[str, Any]


# --------------------------------------------------------------------------- helpers


def legal_moves(view: View, seat: int) -> list[MoveJSON]:
    """The seat's legal moves: the view's list when it is the seat's own view, else rebuilt
    from what the view shows."""
    if view.get("legal_moves") is not None and view.get("you") == seat:
        return [dict(move) for move in view["legal_moves"]]
    if view["outcome"] is not None or seat not in view["to_move"]:
        return []
    return [move_json(move) for move in sim_from_view(view).legal(seat)]


def _require_moves(view: View, seat: int) -> list[MoveJSON]:
    moves = legal_moves(view, seat)
    if not moves:
        raise ValueError(f"Seat {seat} has no move to make in this view.")
    return moves


def greedy_move(moves: list[int]) -> int:
    """The greedy choice among legal moves (ints): place if possible, else reveal a new card
    (flip, or recycle an exhausted Set), else end the turn."""
    places = [move for move in moves if move >= PLACE0]
    if places:
        # Every stack a card fits shows the same circle, so all its placements leave the same
        # colours on top: the lowest stack is as good as any.
        return places[0]
    for move in (FLIP, RECYCLE, END, RETURN):
        if move in moves:
            return move
    raise ValueError("No legal move.")


def candidate_moves(moves: list[int]) -> list[int]:
    """Legal moves with equivalent placements merged: every stack the discard top fits shows the
    same circle, so all its placements leave the same colours on the stack tops."""
    places = [move for move in moves if move >= PLACE0]
    return [move for move in moves if move < PLACE0] + places[:1]


# --------------------------------------------------------------------------- levels 1 and 2


def random_policy(view: View, seat: int, rng: random.Random) -> MoveJSON:
    """Level 1: uniform among the legal moves."""
    return rng.choice(_require_moves(view, seat))


def greedy_policy(view: View, seat: int, rng: random.Random) -> MoveJSON:
    """Level 2: what a casual player does. Place the discard top whenever it fits (placements are
    free and every card placed is one card closer to winning); otherwise flip a new card from the
    Set, or take the discard back once the Set is empty; end the turn only when there is nothing
    else to do."""
    moves = [move_int(move) for move in _require_moves(view, seat)]
    return move_json(greedy_move(moves))


# --------------------------------------------------------------------------- level 3

# Race mode: after this many events in a row without a placement, level 3 plays level 2's move,
# which places whenever it can. A search that holds cards back to keep the other seats from
# placing could otherwise stall a race (the engine has no stall cap there; the server's clock
# would end it as a stalemate).
RACE_STALL_EVENTS = 80


def race_stalled(history: Sequence[dict[str, Any]]) -> bool:
    recent = history[-RACE_STALL_EVENTS:]
    return len(recent) >= RACE_STALL_EVENTS and not any(
        isinstance(event, dict) and event.get("type") == "placed" for event in recent)


def use_deep(view: View, memory: Memory, budget: PlanBudget) -> bool:
    """Whether the turn-by-turn search of :mod:`games.nimble.bots.deep` plays: two players in
    turn mode, with a budget for it, and every card known unless it has worlds to sample."""
    if not budget.deep_nodes or view["mode"] != "turns" or len(view["seats"]) != 2:
        return False
    return budget.deep_worlds > 0 or all(
        memory.fully_known(s) for s in range(len(memory.seats)))


def plan_move(view: View, seat: int, rng: random.Random, history: Sequence[dict[str, Any]],
              budget: PlanBudget) -> tuple[int, dict[int, float]]:
    """Level 3's choice and the value of every candidate (empty when it did not search)."""
    moves = [move_int(move) for move in _require_moves(view, seat)]
    default = greedy_move(moves)
    candidates = candidate_moves(moves)
    if len(candidates) == 1:
        return default, {}
    memory = reconstruct(view, history)
    if memory is None or (view["mode"] == "race" and race_stalled(history)):
        return default, {}
    values: dict[int, float] = {}
    if use_deep(view, memory, budget):
        values, _ = deep_values(view, seat, memory, rng, budget, candidates)
    if not values:
        values = plan_values(view, seat, memory, rng, budget, candidates)
    best = default
    for move in candidates:  # a fixed order; greedy's move wins ties
        if values[move] > values[best] + 1e-9:
            best = move
    return best, values


def make_memory_policy(budget: PlanBudget | None = None) -> HistoryPolicy:
    plan_budget = budget or PlanBudget()

    @remembers  # called with the events its seat was shown
    def memory_policy(view: View, seat: int, rng: random.Random,
                      history: Sequence[dict[str, Any]] = ()) -> MoveJSON:
        """Level 3: remember the public events and plan the turn (see :func:`plan_move`)."""
        move, _ = plan_move(view, seat, rng, history, plan_budget)
        return move_json(move)

    return memory_policy


memory_policy = make_memory_policy()

# Level 4: level 3's memory; in a two-player turn match whole turns of both seats are searched as
# deep as 60,000 simulated actions a move allow (up to 8 turns), over 4 sampled worlds while
# some cards are unseen, the other seat's turns played as a player who plans its own turn plays
# them, a seat behind on cards scored lower the longer nobody has placed (the stalemate ahead is
# lost on cards left); where not even two turns finish, level 3's search with the other seat's
# reply turn searched (at most 400,000 actions). With 3-4 players or in a race: level 3's search
# over 8 worlds, 5 own actions deep in a race.
LEVEL4_BUDGET = PlanBudget(worlds=8, reply_search=True, race_depth=5, max_nodes=400_000,
                           max_seconds=3.0, deep_nodes=60_000, deep_worlds=4,
                           stall_pressure=1.0, deep_opponent="planner")
deep_policy = make_memory_policy(LEVEL4_BUDGET)

NIMBLE_POLICIES: dict[int, Policy] = {
    1: random_policy,
    2: greedy_policy,
    3: memory_policy,
    4: deep_policy,
}

__all__ = ["LEVEL4_BUDGET", "NIMBLE_POLICIES", "PlanBudget", "candidate_moves", "deep_policy",
           "greedy_policy", "legal_moves", "make_memory_policy", "memory_policy", "plan_move",
           "random_policy", "race_stalled", "use_deep"]
