"""Nimalia level 4: level 3's play-outs, with what its seat remembers and a bigger budget.

Level 3 forgets everything between moves. Level 4 also reads its seat's history (the events
its seat was shown, nothing more):

1. Hands it passed: after a draft turn, the seat its hand went to holds the cards this seat
   passed, less those revealed in a reserve since. With two players both hands are then known
   on the second turn of every round but the first (whose deal has no event) and on every last
   turn; only first turns sample the other hand.
2. Cards out of play: every card revealed in a reserve, covered ones included, is never dealt
   again, so samples come only from the cards it has never seen.

When nothing is hidden it plays the round out once for every legal placement, best immediate
values first; on a round's last turn that places the other seats' known last cards too, so the
comparing objectives are scored against the reserves as they will be (level 3 takes its best
immediate value there). When a hand is hidden it plays out its best 12 placements by immediate
value and the best 3 of every card in hand over common samples (every candidate on the same
deals), and halves the candidates after 4 and 12 samples.

The work is a fixed count of reserve evaluations (60,000), so a move depends only on the view,
the history and the rng. The safety net measures process time, so a busy machine does not cut a
move short: past ``seconds`` of it (2.4 s, 80% of the 3 s a move) it keeps the samples played
out in full.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.kit.bots import remembers
from games.nimalia.bots import fast
from games.nimalia.bots.core import (
    UNDO,
    Placement,
    Position,
    as_move,
    best_of,
    must_undo,
)
from games.nimalia.bots.search import Planner, SearchConfig
from games.nimalia.cards import CARD_IDS


@dataclass(frozen=True)
class DeepConfig:
    later_weight: float = 0.5          # each later scoring of an objective, as in level 3
    candidates: int = 12               # best placements by immediate value played out ...
    per_card: int = 3                  # ... and at least this many for every card in hand
    samples: int = 200                 # determinisations per candidate at most
    halving_after: tuple[int, ...] = (4, 12)   # samples after which the worse half is dropped
    budget: int = 60_000               # reserve evaluations per move (deterministic)
    seconds: float = 2.4               # process-time safety net (80% of the 3 s a move)


LEVEL4 = DeepConfig()


def remembered(view: Mapping[str, Any], seat: int,
               history: Sequence[Mapping[str, Any]]) -> tuple[dict[int, tuple[int, ...]],
                                                              frozenset[int]]:
    """From the seat's own history: the hands of other seats it knows (cards it passed, less
    those placed since), and every card ever placed in any reserve."""
    placed: set[int] = set()
    this_round = view["round"]
    my_hands: dict[int, tuple[int, ...]] = {}    # turn of this round -> the hand held then
    my_placed: dict[int, int] = {}
    revealed_after: dict[int, set[int]] = {}     # turn -> cards revealed in this round's turn
    last_turn = 0
    for event in history:
        kind = event.get("type")
        if kind == "placements_revealed":
            cards = {p["card"] for p in event["placements"]}
            placed |= cards
            last_turn = event["turn"]
            if event["round"] == this_round:
                revealed_after[event["turn"]] = cards
                for p in event["placements"]:
                    if p["seat"] == seat:
                        my_placed[event["turn"]] = p["card"]
        elif kind == "round_started":
            my_hands, last_turn = {}, 0
        elif kind == "hand" and event.get("seat") == seat:
            # The first round's deal has no event: its first hand is not remembered.
            my_hands[1 if event.get("why") == "dealt" else last_turn + 1] = tuple(event["cards"])
    known: dict[int, tuple[int, ...]] = {}
    players = view["players"]
    direction = view.get("pass_direction")
    if players < 2 or direction is None:
        return known, frozenset(placed)
    step = -1 if direction == "right" else 1
    turn = view["turn"]
    sizes = view.get("hand_sizes", ())
    for done in range(1, turn):                  # turns of this round already revealed
        k = turn - done                          # passes since that hand left this seat
        if k >= players or done not in my_hands or done not in my_placed:
            continue
        cards = set(my_hands[done]) - {my_placed[done]}
        for later in range(done + 1, turn):
            cards -= revealed_after.get(later, set())
        holder = (seat + k * step) % players
        if holder != seat and len(cards) == (sizes[holder] if holder < len(sizes) else -1):
            known[holder] = tuple(sorted(cards))
    return known, frozenset(placed)


class _DeepPlanner(Planner):
    def __init__(self, position: Position, config: DeepConfig,
                 known: Mapping[int, tuple[int, ...]], placed: frozenset[int]) -> None:
        super().__init__(position, SearchConfig(later_weight=config.later_weight))
        self.deep = config
        self.known = dict(known)
        others = [s for s in range(position.players) if s != position.seat]
        self.hidden = position.players == 1 or any(s not in self.known for s in others)
        out = set(position.visible_cards) | placed
        for cards in self.known.values():
            out |= set(cards)
        self.unseen = [card for card in CARD_IDS if card not in out]

    def sample_hands(self, rng: random.Random) -> list[tuple[int, ...]]:
        position = self.position
        unseen = list(self.unseen)
        rng.shuffle(unseen)
        if self.players == 1:
            deals = [position.hand]
            for _ in range(position.turn, 3):
                deals.append(tuple(sorted(unseen[:3])))
                del unseen[:3]
            return deals
        hands: list[tuple[int, ...]] = []
        for seat in range(self.players):
            if seat == self.seat:
                hands.append(position.hand)
            elif seat in self.known:
                hands.append(self.known[seat])
            else:
                size = position.hand_sizes[seat]
                hands.append(tuple(sorted(unseen[:size])))
                del unseen[:size]
        return hands

    def stopped(self, limit: float) -> bool:
        return time.process_time() > limit

    def choose(self, rng: random.Random, deadline: float) -> Placement:
        position, config = self.position, self.deep
        board = self.boards[self.seat]
        scored = []
        for placement in position.placements():
            card, anchor, rotation = self.move(placement)
            scored.append((self.value(fast.place(board, card, rotation, anchor), self.seat,
                                      self.boards), placement))
        if len(scored) == 1 or (position.turn >= 3 and self.hidden):
            return best_of(scored, rng)
        if not self.hidden:
            # Nothing hidden: one play-out per placement, best immediate values first, says
            # it all. On a round's last turn that is the other seats' last placements, so the
            # comparing objectives are scored against the reserves as they will be.
            hands = self.sample_hands(rng)
            played: list[tuple[float, Placement]] = []
            for _, placement in sorted(scored, key=lambda item: (-item[0], item[1])):
                if self.evaluations >= config.budget:
                    break
                if self.stopped(deadline):
                    break
                played.append((self.play_out(self.move(placement), hands), placement))
            return best_of(played, rng) if played else best_of(scored, rng)
        ranked = sorted(scored, key=lambda item: (-item[0], item[1]))
        alive = [p for _, p in ranked[:config.candidates]]
        for card in position.cards:
            for _, p in [item for item in ranked if item[1][0] == card][:config.per_card]:
                if p not in alive:
                    alive.append(p)
        return self.sampled_best(alive, scored, rng, samples=config.samples,
                                 budget=config.budget, halving_after=config.halving_after,
                                 stopped=lambda: self.stopped(deadline))


def deep_move(view: dict[str, Any], seat: int, rng: random.Random,
              history: Sequence[Mapping[str, Any]] = (),
              config: DeepConfig = LEVEL4) -> dict[str, Any]:
    deadline = time.process_time() + config.seconds
    if must_undo(view):
        return dict(UNDO)
    position = Position.from_view(view, seat)
    known, placed = remembered(view, seat, history)
    return as_move(_DeepPlanner(position, config, known, placed).choose(rng, deadline))


@remembers
def deep_policy(view: dict[str, Any], seat: int, rng: random.Random, *,
                history: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """Level 4: remembers the hands it passed and plays out more, under ``LEVEL4``."""
    return deep_move(view, seat, rng, history)
