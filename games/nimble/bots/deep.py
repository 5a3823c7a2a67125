"""Level 4's search for Nimble with two players in turn mode: whole turns, several deep.

A *turn* is every sequence of actions a seat can play until its turn passes. The search lists
the distinct positions a turn can end in (the same piles and stack circles reached by another
order of actions count once) and searches them by alternating turns. This seat's turns are
searched for the best value. The other seat's turns are searched for the worst (minimax with
alpha-beta pruning, the turns that score best first), or, with ``PlanBudget.deep_opponent`` set
to ``"planner"`` (level 4), played as a player who plans its own turn would play them: the end
that scores best for that seat once this seat has answered with a greedy turn
(:meth:`_TurnSearch.planned_turn`). A worst-case opponent that sees the sampled world's hidden
cards is stronger than any real one: against it every circle this seat's placements show looks
like a gift, and the search holds cards back. The search then scores the position with level 3's
:func:`~games.nimble.bots.plan.score`, less a cost for rounds without a placement when the seat
is behind on cards: such rounds lead to a stalemate, which fewer cards left wins
(:func:`~games.nimble.bots.plan.stall_cost`).

The depth grows one turn at a time while the fixed budget of simulated actions lasts; the move
played is the best of the deepest search that finished, so it depends on the budget and never
on the clock (the wall-clock limit is only a safety net). Once every card of both seats is
known (after their first recycles) one world is exact; before that the search runs in worlds
that deal the never-seen cards at random (:func:`~games.nimble.bots.memory.world_from_memory`)
and a first action's value is its mean over them.
"""

from __future__ import annotations

import random
import time
from typing import Any

from games.nimble.bots.memory import Memory, world_from_memory
from games.nimble.bots.plan import PlanBudget, finish_round, score, stall_cost
from games.nimble.bots.sim import END, FLIP, RECYCLE, RETURN, Sim, place_move
from games.nimble.engine import CARD_FRAME


class _OutOfBudget(Exception):
    pass


def turn_key(sim: Sim, seat: int) -> tuple[Any, ...]:
    """What tells positions apart while ``seat`` acts: its piles, the stack circles, whose
    turn it is with what budget, and the end of the match."""
    return (tuple(sim.sets[seat]), tuple(sim.discards[seat]), tuple(sorted(sim.circles)),
            sim.over, sim.winner, sim.to_move, sim.budget_left)


def turn_moves(sim: Sim, seat: int, last: int | None) -> list[int]:
    """:func:`~games.nimble.bots.plan.own_moves` in a turn-mode position, in the same order,
    built directly: the lowest stack the discard top fits, then flip or recycle, return and
    end of turn (no return of a card just flipped, no flip of a card just returned)."""
    place = place_move(sim, seat)
    moves: list[int] = [] if place is None else [place]
    discard = sim.discards[seat]
    if sim.budget_left > 0:
        if sim.sets[seat]:
            if last != RETURN:
                moves.append(FLIP)
        elif discard:
            moves.append(RECYCLE)
        if discard and last != FLIP:
            moves.append(RETURN)
    moves.append(END)
    return moves


def score_two(sim: Sim, seat: int, weights: PlanBudget) -> float:
    """:func:`~games.nimble.bots.plan.score` for two players, computed directly (the same
    value, in the same order of operations), less the :func:`~games.nimble.bots.plan.stall_cost`
    of the rounds without a placement when the seat is behind on cards."""
    if sim.n != 2:
        return score(sim, seat, weights)
    other = 1 - seat
    sets, discards = sim.sets, sim.discards
    mine = len(sets[seat]) + len(discards[seat])
    against = sim.active[other]
    value = float((len(sets[other]) + len(discards[other]) if against else 0) - mine)
    if sim.over:
        return score(sim, seat, weights)
    value -= stall_cost(sim, value, weights)
    circles = sim.circles
    discard = discards[seat]
    if discard and CARD_FRAME[discard[-1]] in circles:
        value += weights.fit_bonus
    if against:
        discard = discards[other]
        if discard and CARD_FRAME[discard[-1]] in circles:
            value -= weights.threat
    return value


class _TurnSearch:
    def __init__(self, seat: int, weights: PlanBudget, limit: int, deadline: float) -> None:
        self.seat = seat
        self.weights = weights
        self.limit = limit
        self.deadline = deadline
        self.nodes = 0

    def _count(self, steps: int = 1) -> None:
        self.nodes += steps
        if self.nodes > self.limit:
            raise _OutOfBudget
        if self.nodes & 1023 == 0 and time.perf_counter() > self.deadline:
            raise _OutOfBudget

    def turn_ends(self, sim: Sim, mover: int) -> list[tuple[int | None, Sim]]:
        """The distinct positions ``mover``'s turn can end in, each with the first action that
        leads to it (one of them, in the search's order)."""
        ends: dict[tuple[Any, ...], tuple[int | None, Sim]] = {}
        seen: set[tuple[Any, ...]] = set()

        def walk(node: Sim, last: int | None, first: int | None) -> None:
            if node.over or node.to_move != mover:
                key = turn_key(node, mover)
                if key not in ends:
                    ends[key] = (first, node)
                return
            key = turn_key(node, mover) + (last,)
            if key in seen:
                return
            seen.add(key)
            for move in turn_moves(node, mover, last):
                child = node.copy_for(mover)
                child.play(mover, move)
                self._count()
                walk(child, move, move if first is None else first)

        walk(sim, None, None)
        return list(ends.values())

    def planned_turn(self, sim: Sim, mover: int) -> Sim:
        """The end of ``mover``'s turn that a player who plans only its own turn picks: the one
        that scores best for ``mover`` (:func:`~games.nimble.bots.plan.score`) once the other
        seat has answered with a greedy turn; the first in the search's order on a tie."""
        best, choice = -1e18, sim
        for _, end in self.turn_ends(sim, mover):
            probe = end
            if not end.over:
                probe = end.copy_for(1 - mover)  # only this seat acts until mover's next turn
                self._count(max(1, finish_round(probe, mover)))
            value = score(probe, mover, self.weights)
            if value > best + 1e-9:
                best, choice = value, end
        return choice

    def value(self, sim: Sim, turns: int, alpha: float, beta: float) -> float:
        if sim.over or turns <= 0 or sim.to_move is None:
            return score_two(sim, self.seat, self.weights)
        mover = sim.to_move
        if mover != self.seat and self.weights.deep_opponent == "planner":
            return self.value(self.planned_turn(sim, mover), turns - 1, alpha, beta)
        ends = [end for _, end in self.turn_ends(sim, mover)]
        maximise = mover == self.seat
        ends.sort(key=lambda end: score_two(end, self.seat, self.weights), reverse=maximise)
        best = -1e18 if maximise else 1e18  # this seat maximises, the other seat minimises
        for end in ends:
            value = self.value(end, turns - 1, alpha, beta)
            if maximise:
                best = max(best, value)
                alpha = max(alpha, best)
            else:
                best = min(best, value)
                beta = min(beta, best)
            if alpha >= beta:
                break
        return best

    def root_values(self, sim: Sim, turns: int, moves: list[int]) -> dict[int, float]:
        """The best value reachable after each first action of this seat's turn."""
        seat = self.seat
        values: dict[int, float] = {}
        for move in moves:
            child = sim.copy_for(seat)
            child.play(seat, move)
            self._count()
            if child.over or child.to_move != seat:
                ends = [child]
            else:
                ends = [end for _, end in self.turn_ends(child, seat)]
            ends.sort(key=lambda end: score_two(end, seat, self.weights), reverse=True)
            best = -1e18
            for end in ends:
                best = max(best, self.value(end, turns - 1, best, 1e18))
            values[move] = best
        return values


def deep_values(view: dict[str, Any], seat: int, memory: Memory, rng: random.Random,
                budget: PlanBudget, moves: list[int]) -> tuple[dict[int, float], int]:
    """Each candidate first action's value from the deepest search that finished within
    ``budget.deep_nodes`` simulated actions (from 2 turns, this one and the other seat's reply,
    up to ``budget.deep_turns``), as a mean over ``budget.deep_worlds`` worlds while some cards are
    unseen; and that depth in turns (no values and 0 when not even 2 turns finished)."""
    deadline = time.perf_counter() + budget.max_seconds
    exact = all(memory.fully_known(s) for s in range(len(memory.seats)))
    count = 1 if exact else budget.deep_worlds
    worlds = [world_from_memory(view, memory, rng) for _ in range(count)]
    search = _TurnSearch(seat, budget, budget.deep_nodes, deadline)
    result: dict[int, float] = {}
    depth = 0
    spent: list[int] = []  # actions simulated by each finished depth
    for turns in range(2, budget.deep_turns + 1):
        if len(spent) >= 2:
            # Each depth is expected to cost as many times more than the last as the last did
            # than the one before: one that would not finish within the budget left is not
            # started (it would be cut off and its work thrown away).
            growth = max(1.0, spent[-1] / max(1, spent[-2]))
            if search.nodes + spent[-1] * growth > budget.deep_nodes:
                break
        before = search.nodes
        totals = {move: 0.0 for move in moves}
        try:
            for world in worlds:
                for move, value in search.root_values(world, turns, moves).items():
                    totals[move] += value
        except _OutOfBudget:
            break
        spent.append(search.nodes - before)
        result = {move: total / count for move, total in totals.items()}
        depth = turns
    return result, depth


__all__ = ["deep_values", "turn_key", "turn_moves"]
