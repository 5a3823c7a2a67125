"""Nimble bots: level 1 plays at random, level 2 greedily, level 3 searches determinised futures.

Every policy reads only ``view = engine.view(state, seat)``: counts, discard tops, stack tops,
the turn budget. Nobody's Set order and no discard card below the top is in the view, and a
policy keeps no memory between calls, so the bots play Nimble without the memory element.

Level 3 (:func:`make_search_policy`) is a rollout search: it samples the hidden cards a number of
times (each seat's Set and buried discard from the cards of its Set that the view does not show
anywhere), plays every candidate move in each sample, continues with the greedy policy for every
seat for a few turns and scores the result by cards left. It keeps the greedy move unless another
move does clearly better over the same samples. The samples come from the given ``rng`` and the
work per move is a fixed number of rollouts, so a move is reproducible; the wall clock only stops
a search that would overrun its time limit.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.bots.nimble_sim import (
    END,
    FLIP,
    PLACE0,
    RECYCLE,
    RETURN,
    Sim,
    move_int,
    move_json,
    sim_from_view,
)
from games.engines.nimble import CARD_FRAME

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


def sim_greedy(sim: Sim, seat: int) -> int:
    """:func:`greedy_move` on a simulated position, without building the move list."""
    discard = sim.discards[seat]
    if discard:
        frame = CARD_FRAME[discard[-1]]
        circles = sim.circles
        for k in range(len(circles)):
            if circles[k] == frame:
                return PLACE0 + k
    if not sim.turns or sim.budget_left > 0:
        if sim.sets[seat]:
            return FLIP
        if discard:
            return RECYCLE
    return END


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


@dataclass(frozen=True)
class SearchBudget:
    """How hard level 3 thinks. ``samples`` determinisations per move; each rollout continues
    with greedy play until ``rounds`` more whole rounds have passed after the current turn (turn
    mode) or each seat has made ``race_actions`` more actions (race mode). An alternative to the
    greedy move must beat it over the same samples by ``margin`` cards on average and by
    ``confidence`` standard errors of that mean. ``max_seconds`` is a safety net on
    the wall clock, not the normal limit."""

    samples: int = 24
    rounds: int = 2
    race_actions: int = 12
    margin: float = 0.2
    confidence: float = 3.0
    max_seconds: float = 2.0
    # How often a buried discard card fits the current stack tops, by depth below the top (1, 2,
    # ... 6 and deeper); measured in greedy play, where any card in the Set fits about 44% of the
    # time.
    discard_match: tuple[float, ...] = (0.16, 0.24, 0.31, 0.36, 0.39, 0.45)


WIN_VALUE = 40.0


def evaluate(sim: Sim, seat: int) -> float:
    """The seat's standing: the cards the best other seat still holds minus its own, with a large
    bonus or malus once the match is decided."""
    mine = sim.cards_left(seat)
    others = [sim.cards_left(s) for s in range(sim.n) if s != seat and sim.active[s]]
    best_other = min(others) if others else 0
    value = float(best_other - mine)
    if sim.over:
        if sim.winner is not None:
            value += WIN_VALUE if sim.winner == seat else -WIN_VALUE
        elif mine < best_other:
            value += WIN_VALUE
        elif mine > best_other:
            value -= WIN_VALUE
    return value


def rollout(sim: Sim, seat: int, budget: SearchBudget) -> float:
    """Play on greedily for every seat up to the budget's horizon and evaluate for ``seat``."""
    if sim.turns:
        active = sum(sim.active)
        turn_changes = 0
        limit = 1 + active * budget.rounds
        steps = 0
        while not sim.over and turn_changes < limit and steps < 2000:
            mover = sim.to_move
            sim.play(mover, sim_greedy(sim, mover))
            if sim.to_move != mover:
                turn_changes += 1
            steps += 1
    else:
        order = [s for s in range(sim.n) if sim.active[s]]
        start = order.index(seat) if seat in order else 0
        order = order[start + 1:] + order[:start + 1]
        for _ in range(budget.race_actions):
            for mover in order:
                if sim.over:
                    break
                sim.play(mover, sim_greedy(sim, mover))
    return evaluate(sim, seat)


def candidate_moves(moves: list[int]) -> list[int]:
    """Legal moves with equivalent placements merged: every stack the discard top fits shows the
    same circle, so all its placements leave the same colours on the stack tops."""
    places = [move for move in moves if move >= PLACE0]
    return [move for move in moves if move < PLACE0] + places[:1]


def search_move(view: View, seat: int, rng: random.Random,
                budget: SearchBudget) -> tuple[int, dict[int, float]]:
    """Level 3's choice and the mean rollout value of every candidate (for tests and tuning)."""
    moves = candidate_moves([move_int(move) for move in _require_moves(view, seat)])
    default = greedy_move(moves)
    if len(moves) == 1:
        return default, {default: 0.0}
    values: dict[int, list[float]] = {move: [] for move in moves}
    deadline = time.perf_counter() + budget.max_seconds
    for _ in range(budget.samples):
        world = sim_from_view(view, rng, discard_match=budget.discard_match)
        for move in moves:
            trial = world.copy()
            trial.play(seat, move)
            values[move].append(rollout(trial, seat, budget))
        if time.perf_counter() > deadline:
            break
    means = {move: sum(vals) / len(vals) for move, vals in values.items()}
    best, best_gain = default, 0.0
    for move in moves:
        if move == default:
            continue
        gain = _confident_gain(values[move], values[default], budget)
        if gain > best_gain:
            best, best_gain = move, gain
    return best, means


def _confident_gain(values: list[float], baseline: list[float], budget: SearchBudget) -> float:
    """How much better ``values`` did than ``baseline`` over the same samples, or 0 unless the
    mean gain is above the margin and ``budget.confidence`` standard errors."""
    diffs = [a - b for a, b in zip(values, baseline, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2 or mean <= budget.margin:
        return 0.0
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean if mean > budget.confidence * (variance / n) ** 0.5 else 0.0


def make_search_policy(budget: SearchBudget | None = None) -> Callable[..., MoveJSON]:
    budget = budget or SearchBudget()

    def search_policy(view: View, seat: int, rng: random.Random) -> MoveJSON:
        """Level 3: rollouts over determinised hidden cards (see :class:`SearchBudget`)."""
        move, _ = search_move(view, seat, rng, budget)
        return move_json(move)

    return search_policy


search_policy = make_search_policy()

NIMBLE_POLICIES: dict[int, Callable[..., MoveJSON]] = {
    1: random_policy,
    2: greedy_policy,
    3: search_policy,
}

__all__ = ["NIMBLE_POLICIES", "SearchBudget", "greedy_policy", "legal_moves",
           "make_search_policy", "random_policy", "search_move", "search_policy"]
