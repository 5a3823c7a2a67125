"""Level 3's planner for Nimble: search the seat's own action sequences in worlds that agree with
its memory (:mod:`games.nimble.bots.memory`).

Turn mode: every sequence of actions the seat can play in the rest of its turn is searched
depth first (placements of one card onto stacks with the same circle are one choice, and a
``return`` right after a ``flip`` or a ``flip`` right after a ``return`` is skipped: it only
spends budget). When the turn is over, the other seats play their turns greedily (level 2) until
it is the seat's turn again, and the position is scored. Race mode: the seat's next few actions
are searched the same way, every other seat making one greedy action after each of them.

Only the never-seen cards are sampled; once every seat's cards are known (after the first
recycles) a single world is exact. A move's value is the mean over the worlds of the best
sequence starting with it.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, Literal

from games.nimble.bots.memory import Memory, world_from_memory
from games.nimble.bots.sim import END, FLIP, PLACE0, RECYCLE, RETURN, Sim, greedy_choice


@dataclass(frozen=True)
class PlanBudget:
    """How level 3 plans. ``worlds`` samples of the never-seen cards (1 when none are left);
    ``race_depth`` own actions searched in race mode; ``max_nodes`` actions played per move
    over all worlds (beyond a world's share, the rest of a turn is played greedily), so a move
    costs the same work whatever the clock says. ``max_seconds`` is a safety net on the wall
    clock, not the normal limit.

    A position scores the cards the best other seat holds minus the seat's own, plus
    ``fit_bonus`` when the seat's discard top fits a stack, minus ``threat`` (shared out over
    the other seats) for each other seat whose discard top fits; ±``win`` for a finish, ±half
    of it for a deadlock or stalemate won or lost on cards left."""

    worlds: int = 8
    race_depth: int = 4
    max_nodes: int = 150_000
    fit_bonus: float = 0.3
    threat: float = 0.7
    win: float = 1000.0
    max_seconds: float = 1.5
    # Turn mode: own turns searched. With 2, after the other seats' greedy turns the seat's
    # next turn is searched too before the position is scored (level 4).
    turns: int = 1
    # Turn mode with two players: the other seat's next turn is searched too, as the sequence
    # that is worst for this seat (in the sampled world), instead of played greedily (level 4).
    reply_search: bool = False
    # Two players in turn mode (level 4): once every card of both seats is known, whole turns of
    # both seats are searched, up to ``deep_turns`` deep, within ``deep_nodes`` simulated
    # actions (:mod:`games.nimble.bots.deep`); 0 leaves it off.
    deep_nodes: int = 0
    deep_turns: int = 8
    # Worlds for that search while some cards are unseen; 0 keeps it to fully known positions.
    deep_worlds: int = 0
    # That search's score: rounds in a row without a placement lead to a stalemate, won on
    # fewer cards left, so a seat behind on cards loses ``stall_pressure`` times half a win
    # times (idle rounds / stall cap) cubed: next to nothing after one idle round, nearly the
    # stalemate's loss at the cap (see :func:`stall_cost`; 0 leaves it off).
    stall_pressure: float = 0.0
    # How that search plays the other seat's turns: ``"worst"``, the turn worst for this seat
    # (minimax); ``"planner"``, the turn a player who plans its own turn picks, the one that
    # scores best for it once this seat has answered with a greedy turn (what level 3 weighs).
    deep_opponent: Literal["worst", "planner"] = "worst"


def score(sim: Sim, seat: int, budget: PlanBudget) -> float:
    mine = sim.cards_left(seat)
    others = [s for s in range(sim.n) if s != seat and sim.active[s]]
    best_other = min((sim.cards_left(s) for s in others), default=0)
    value = float(best_other - mine)
    if sim.over:
        if sim.winner is not None:
            return value + (budget.win if sim.winner == seat else -budget.win)
        if mine < best_other:
            return value + budget.win / 2
        if mine > best_other:
            return value - budget.win / 2
        return value
    if sim.can_place(seat):
        value += budget.fit_bonus
    threat = budget.threat / max(1, len(others))
    for s in others:
        if sim.can_place(s):
            value -= threat
    return value


def stall_cost(sim: Sim, lead: float, budget: PlanBudget) -> float:
    """What the rounds without a placement so far cost a seat ``lead`` cards ahead (behind when
    negative) of the best other seat; nothing once someone placed in this round."""
    if lead >= 0 or not budget.stall_pressure or sim.placed_this_round:
        return 0.0
    return budget.stall_pressure * budget.win / 2 * (sim.idle_rounds / sim.stall_cap) ** 3


def own_moves(sim: Sim, seat: int, last: int | None) -> list[int]:
    """The seat's legal moves worth searching, greedy's favourites first: one placement per
    card, then flip, recycle, return and end of turn; no return of a card just flipped, no flip
    of a card just returned."""
    legal = sim.legal(seat)
    moves = [move for move in legal if move >= PLACE0][:1]
    for move in (FLIP, RECYCLE, RETURN, END):
        if move in legal and not ((move == RETURN and last == FLIP)
                                  or (move == FLIP and last == RETURN)):
            moves.append(move)
    return moves


def finish_turn(sim: Sim, seat: int) -> int:
    """Play the rest of ``seat``'s turn greedily; returns the number of actions."""
    steps = 0
    while not sim.over and sim.to_move == seat and steps < 200:
        sim.play(seat, greedy_choice(sim, seat))
        steps += 1
    return steps


def finish_round(sim: Sim, seat: int) -> int:
    """Let the other seats play greedily until it is ``seat``'s turn again; returns the number
    of actions."""
    steps = 0
    while not sim.over and steps < 500:
        mover = sim.to_move
        if mover is None or mover == seat:
            break
        sim.play(mover, greedy_choice(sim, mover))
        steps += 1
    return steps


class _Search:
    def __init__(self, seat: int, budget: PlanBudget, deadline: float) -> None:
        self.seat = seat
        self.budget = budget
        self.deadline = deadline
        self.nodes = 0  # actions played in the search, the seat's own and the replies
        self.checks = 0
        self.limit = budget.max_nodes

    def turn_value(self, sim: Sim, last: int | None, turns: int = 1) -> float:
        seat = self.seat
        if not sim.over and sim.to_move == seat and self.nodes >= self.limit:
            self.nodes += finish_turn(sim, seat)
        if sim.over or sim.to_move != seat:
            if self.budget.reply_search and sim.n == 2 and not sim.over:
                return self.reply_value(sim, None, turns)
            self.nodes += finish_round(sim, seat)
            return self.after_round(sim, turns)
        best = -1e18
        for move in own_moves(sim, seat, last):
            child = sim.copy()
            child.play(seat, move)
            self._count()
            best = max(best, self.turn_value(child, move, turns))
        return best

    def after_round(self, sim: Sim, turns: int) -> float:
        """The value once the other seats have played: the seat's next turn searched while
        ``turns`` allows, else the score."""
        if turns > 1 and not sim.over and sim.to_move == self.seat:
            return self.turn_value(sim, None, turns - 1)
        return score(sim, self.seat, self.budget)

    def reply_value(self, sim: Sim, last: int | None, turns: int) -> float:
        """Two players: the other seat's turn, its sequence of actions that leaves this seat the
        lowest value (past the budget, the rest of it is played greedily)."""
        other = 1 - self.seat
        if not sim.over and sim.to_move == other and self.nodes >= self.limit:
            self.nodes += finish_turn(sim, other)
        if sim.over or sim.to_move != other:
            return self.after_round(sim, turns)
        worst = 1e18
        for move in own_moves(sim, other, last):
            child = sim.copy()
            child.play(other, move)
            self._count()
            worst = min(worst, self.reply_value(child, move, turns))
        return worst

    def _count(self) -> None:
        self.nodes += 1
        self.checks += 1
        if self.checks % 256 == 0 and time.perf_counter() > self.deadline:
            self.limit = 0  # the safety net: every open turn is finished greedily

    def race_value(self, sim: Sim, depth: int, last: int | None) -> float:
        seat = self.seat
        if sim.over or depth <= 0 or self.nodes >= self.limit:
            return score(sim, seat, self.budget)
        moves = own_moves(sim, seat, last)
        if not moves:
            return score(sim, seat, self.budget)
        best = -1e18
        for move in moves:
            child = sim.copy()
            child.play(seat, move)
            self._count()
            self.others_act(child)
            best = max(best, self.race_value(child, depth - 1, move))
        return best

    def others_act(self, sim: Sim) -> None:
        for other in range(sim.n):
            if sim.over:
                return
            if other != self.seat and sim.active[other] and (
                    sim.sets[other] or sim.discards[other]):
                sim.play(other, greedy_choice(sim, other))
                self.nodes += 1


def plan_values(view: dict[str, Any], seat: int, memory: Memory, rng: random.Random,
                budget: PlanBudget, moves: list[int]) -> dict[int, float]:
    """Mean value of each candidate first move over the sampled worlds."""
    deadline = time.perf_counter() + budget.max_seconds
    search = _Search(seat, budget, deadline)
    exact = all(memory.fully_known(s) for s in range(len(memory.seats)))
    worlds = 1 if exact else budget.worlds
    totals = {move: 0.0 for move in moves}
    done = 0
    for number in range(worlds):
        # Each world's share of the nodes; what one world leaves unused, the next may spend.
        search.limit = budget.max_nodes * (number + 1) // worlds
        world = world_from_memory(view, memory, rng)
        for move in moves:
            child = world.copy()
            child.play(seat, move)
            if world.turns:
                value = search.turn_value(child, move, budget.turns)
            else:
                search.others_act(child)
                value = search.race_value(child, budget.race_depth - 1, move)
            totals[move] += value
        done += 1
        if time.perf_counter() > deadline:
            break
    return {move: total / done for move, total in totals.items()}


__all__ = ["PlanBudget", "finish_round", "own_moves", "plan_values", "score", "stall_cost"]
