"""Nimalia level 3: plays out the rest of the round for its best candidate placements.

On the last turn of a round the card is known and nothing is passed on, so it simply takes the
placement with the best value (as level 2, on its own weights). On the first two turns:

1. Candidates: the 8 placements with the best immediate value, plus the best 2 of every card in
   hand (the card kept decides what is passed on).
2. Samples: the other hands are hidden, so it deals them (determinisation) from the cards it has
   not seen, i.e. neither in its hand nor visible in any reserve.
3. Play-outs: for each sample and candidate it plays the draft to the end of the round: the
   candidate now, then every seat (itself included) places greedily from the hands that reach
   it, passing as the round card says. The other seats' greedy choices are shared between
   candidates.
4. Value: the final reserves are scored on this round's objectives exactly (comparisons among
   the played-out reserves) plus every later scoring at half weight; a candidate's value is its
   own score minus the best other seat's, averaged over the samples.
5. Successive halving: after 1, 2 and 4 samples the worse half of the candidates is dropped,
   so the better ones get the samples still to come.

The work is bounded by a count of reserve evaluations (it stops after the sample in which the
count passes the budget), so the choice depends only on the view and the rng. The wall clock is
only a safety net: past 80% of ``seconds`` it keeps the samples played out in full, or falls back
to the best immediate value. Reserves are bitboards (``nimalia_fast``), scored like the engine.
"""
from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games.nimalia.bots import fast
from games.nimalia.bots.core import (
    UNDO,
    Placement,
    Position,
    as_move,
    best_of,
    must_undo,
    objective_weights,
)
from games.nimalia.cards import CARD_IDS, ROTATIONS
from games.nimalia.engine import HAND_SIZE

Move = tuple[int, int, int]  # card, anchor bit, rotation (on the seat's own board)


@dataclass(frozen=True)
class SearchConfig:
    later_weight: float = 0.5      # each later scoring of an objective, as in level 2
    candidates: int = 8            # best placements by immediate value that get played out
    per_card: int = 2              # ... and at least this many for every card in hand
    samples: int = 12              # determinisations (hidden hands) per candidate at most
    opponent_weight: float = 1.0   # how much the best opponent's final value counts against
    budget: int = 8_000            # reserve evaluations per move (deterministic)
    seconds: float = 2.0           # wall-clock safety net
    halving: bool = True           # drop the worse half of the candidates after 1, 2, 4 samples


DEFAULT_CONFIG = SearchConfig()
HALVING_AFTER = (1, 2, 4)


class Planner:
    """One decision: the position, the weights and the memo of greedy choices (level 4's
    planner, ``games.nimalia.bots.deep``, extends it)."""

    def __init__(self, position: Position, config: SearchConfig) -> None:
        self.position = position
        self.config = config
        self.evaluate = fast.Evaluator(objective_weights(position, config.later_weight))
        self.seat = position.seat
        self.players = position.players
        self.step = -1 if position.pass_direction == "right" else 1
        self.frames = [fast.Frame(grid) for grid in position.grids]
        self.boards = [frame.board(grid) for frame, grid in zip(self.frames, position.grids,
                                                                 strict=True)]
        self.first = [frame.bit(0, 0) for frame in self.frames]
        self.evaluations = 0
        self._greedy: dict[tuple[int, tuple[Move, ...], tuple[int, ...]], Move] = {}

    # ----------------------------------------------------------------- values

    def value(self, board: fast.Board, seat: int, boards: Sequence[fast.Board]) -> float:
        self.evaluations += 1
        return self.evaluate(board, seat, boards)

    def greedy(self, seat: int, placed: tuple[Move, ...], board: fast.Board,
               hand: tuple[int, ...]) -> Move:
        """The greedy placement of ``seat`` (comparisons against the reserves as they are now)."""
        key = (seat, placed, hand)
        found = self._greedy.get(key)
        if found is not None:
            return found
        boards = self.boards
        best: Move | None = None
        best_value = float("-inf")
        for anchor in fast.anchors(board, self.first[seat]):
            for card in hand:
                for rotation in ROTATIONS:
                    value = self.value(fast.place(board, card, rotation, anchor), seat, boards)
                    if value > best_value:
                        best, best_value = (card, anchor, rotation), value
        assert best is not None
        self._greedy[key] = best
        return best

    # ----------------------------------------------------------------- play-outs

    def sample_hands(self, rng: random.Random) -> list[tuple[int, ...]]:
        """Hidden hands, drawn from the cards this seat has not seen: the other seats' hands,
        or in solo the next deals (the two cards left are discarded and 3 new ones dealt)."""
        position = self.position
        unseen = [card for card in CARD_IDS if card not in position.visible_cards]
        rng.shuffle(unseen)
        if self.players == 1:
            deals = [position.hand]
            for _ in range(position.turn, 3):
                deals.append(tuple(sorted(unseen[:HAND_SIZE])))
                del unseen[:HAND_SIZE]
            return deals
        hands: list[tuple[int, ...]] = []
        for seat in range(self.players):
            if seat == self.seat:
                hands.append(position.hand)
                continue
            size = position.hand_sizes[seat]
            hands.append(tuple(sorted(unseen[:size])))
            del unseen[:size]
        return hands

    def play_out(self, candidate: Move, sampled: Sequence[tuple[int, ...]]) -> float:
        """Play the round out from ``candidate``; this seat's lead in final value."""
        position = self.position
        boards = list(self.boards)
        placed: list[tuple[Move, ...]] = [() for _ in range(self.players)]
        solo = self.players == 1
        hands = [sampled[0]] if solo else list(sampled)
        for turn in range(position.turn, 4):
            for seat in range(self.players):
                if seat == self.seat and turn == position.turn:
                    choice = candidate
                else:
                    choice = self.greedy(seat, placed[seat], boards[seat], hands[seat])
                card, anchor, rotation = choice
                boards[seat] = fast.place(boards[seat], card, rotation, anchor)
                placed[seat] = (*placed[seat], choice)
                hands[seat] = tuple(c for c in hands[seat] if c != card)
            if solo and turn < 3:
                hands = [sampled[turn - position.turn + 1]]
            elif turn < 3:
                passed: list[tuple[int, ...]] = [() for _ in range(self.players)]
                for seat in range(self.players):
                    passed[(seat + self.step) % self.players] = hands[seat]
                hands = passed
        mine = self.value(boards[self.seat], self.seat, boards)
        if self.players == 1:
            return mine
        best_other = max(self.value(boards[seat], seat, boards)
                         for seat in range(self.players) if seat != self.seat)
        return mine - self.config.opponent_weight * best_other

    # ----------------------------------------------------------------- the decision

    def candidates(self, scored: list[tuple[float, Placement]]) -> list[Placement]:
        ranked = sorted(scored, key=lambda item: (-item[0], item[1]))
        chosen = [p for _, p in ranked[:self.config.candidates]]
        for card in self.position.cards:
            for _, p in [item for item in ranked if item[1][0] == card][:self.config.per_card]:
                if p not in chosen:
                    chosen.append(p)
        return chosen

    def move(self, placement: Placement) -> Move:
        card, row, col, rotation = placement
        return card, self.frames[self.seat].bit(row, col), rotation

    def choose(self, rng: random.Random, deadline: float) -> Placement:
        position = self.position
        board = self.boards[self.seat]
        scored = []
        for placement in position.placements():
            card, anchor, rotation = self.move(placement)
            scored.append((self.value(fast.place(board, card, rotation, anchor), self.seat,
                                      self.boards), placement))
        if position.turn >= 3 or len(scored) == 1:
            return best_of(scored, rng)
        return self.sampled_best(
            self.candidates(scored), scored, rng, samples=self.config.samples,
            budget=self.config.budget, halving_after=HALVING_AFTER if self.config.halving else (),
            stopped=lambda: time.perf_counter() > deadline)

    def sampled_best(self, alive: list[Placement], scored: list[tuple[float, Placement]],
                     rng: random.Random, *, samples: int, budget: int,
                     halving_after: Sequence[int], stopped: Callable[[], bool]) -> Placement:
        """The candidate of ``alive`` with the best total over up to ``samples`` sampled hands,
        each sample playing out every candidate still in; after the sample counts in
        ``halving_after`` the better half goes on (successive halving). The samples stop once
        ``budget`` evaluations are spent, or when ``stopped()`` (the safety net; only samples
        played out in full count). With none complete, the best of ``scored``."""
        totals = dict.fromkeys(alive, 0.0)
        complete = 0
        for _ in range(samples):
            hands = self.sample_hands(rng)
            values: dict[Placement, float] = {}
            for candidate in alive:
                values[candidate] = self.play_out(self.move(candidate), hands)
                if stopped():
                    break
            if len(values) < len(alive):
                break
            for candidate, value in values.items():
                totals[candidate] += value
            complete += 1
            if self.evaluations >= budget or stopped():
                break
            if complete in halving_after and len(alive) > 2:
                ranked = sorted(alive, key=lambda p: (-totals[p], p))
                alive = ranked[:max(2, (len(alive) + 1) // 2)]
        if not complete:
            return best_of(scored, rng)
        return best_of(((totals[p], p) for p in alive), rng)


def search_policy(view: dict[str, Any], seat: int, rng: random.Random,
                  config: SearchConfig = DEFAULT_CONFIG) -> dict[str, Any]:
    """Level 3: the candidate placement with the best average lead at the end of the round."""
    deadline = time.perf_counter() + 0.8 * config.seconds
    if must_undo(view):
        return dict(UNDO)
    position = Position.from_view(view, seat)
    return as_move(Planner(position, config).choose(rng, deadline))
