"""A small mutable Nimble position for the bots' look-ahead, built from what a seat can see.

The engine's states are immutable and its moves are checked; a search that plays thousands of
hypothetical actions a second needs something lighter. :class:`Sim` follows the engine's rules
(turn budget, free placements, the automatic end of a turn, finish, deadlock and the stall cap)
on plain lists, and :func:`sim_from_view` builds one from a view, with the piles the view does
not show given (what a seat remembers) or dealt at random (a *determinisation*). Moves are small
ints: :data:`FLIP`, :data:`RETURN`, :data:`RECYCLE`, :data:`END`, and ``PLACE0 + k`` for a
placement on stack ``k``.
"""

from __future__ import annotations

import random
from typing import Any

from games.nimble.engine import (
    CARD_CIRCLE,
    CARD_FRAME,
    COLOURS,
    NUM_STACKS,
    RAMPS,
    SET_SIZE,
    card_of,
)

FLIP, RETURN, RECYCLE, END, PLACE0 = 0, 1, 2, 3, 4
NAMES = ("flip", "return", "recycle", "end_turn")


def move_json(move: int) -> dict[str, Any]:
    if move >= PLACE0:
        return {"action": "place", "stack": move - PLACE0}
    return {"action": NAMES[move]}


def move_int(data: dict[str, Any]) -> int:
    if data["action"] == "place":
        stack: int = data["stack"]
        return PLACE0 + stack
    return NAMES.index(data["action"])


def card_from_face(face: dict[str, Any]) -> int:
    return card_of(face["set"], face["frame"], face["circle"])


class Sim:
    """One position: ``sets[s]``/``discards[s]`` are card ints, top last; ``tops[k]`` is stack
    ``k``'s top card and ``circles[k]`` its circle colour. ``winner`` is set when a seat
    finishes, ``over`` when the match has ended for any reason."""

    __slots__ = ("n", "turns", "budget", "budget_left", "ramp", "finish_at", "first_seat",
                 "to_move", "round", "placed_this_round", "idle_rounds", "stall_cap", "sets",
                 "discards", "tops", "circles", "counts", "active", "over", "winner")

    n: int  # players
    turns: bool  # turn mode (else race)
    budget: int
    budget_left: int
    ramp: bool
    finish_at: int
    first_seat: int
    to_move: int | None  # turn mode: the seat whose turn it is
    round: int
    placed_this_round: bool
    idle_rounds: int
    stall_cap: int
    sets: list[list[int]]
    discards: list[list[int]]
    tops: list[int]
    circles: list[int]
    counts: list[list[int]]  # counts[seat][colour]: the seat's cards with that frame colour
    active: list[bool]  # not forfeited
    over: bool
    winner: int | None

    def _shell(self) -> Sim:
        """A new position with this one's counters, flags, stack tops and circles; its piles and
        frame counts are the caller's to set.

        The fields are copied one by one on purpose: this is the search's hot path (every
        simulated action copies a position), and it is faster than ``copy.copy`` followed by
        resetting the piles."""
        other = Sim.__new__(Sim)
        other.n = self.n
        other.turns = self.turns
        other.budget = self.budget
        other.budget_left = self.budget_left
        other.ramp = self.ramp
        other.finish_at = self.finish_at
        other.first_seat = self.first_seat
        other.to_move = self.to_move
        other.round = self.round
        other.placed_this_round = self.placed_this_round
        other.idle_rounds = self.idle_rounds
        other.stall_cap = self.stall_cap
        other.active = self.active  # never changed in place by the simulator
        other.over = self.over
        other.winner = self.winner
        other.tops = self.tops[:]
        other.circles = self.circles[:]
        return other

    def copy_for(self, seat: int) -> Sim:
        """A copy in which only ``seat`` will act: its piles and frame counts are copied, the
        other seats' are shared with this position (which must not change afterwards)."""
        other = self._shell()
        sets = self.sets[:]
        sets[seat] = sets[seat][:]
        discards = self.discards[:]
        discards[seat] = discards[seat][:]
        counts = self.counts[:]
        counts[seat] = counts[seat][:]
        other.sets, other.discards, other.counts = sets, discards, counts
        return other

    def copy(self) -> Sim:
        other = self._shell()
        other.sets = [pile[:] for pile in self.sets]
        other.discards = [pile[:] for pile in self.discards]
        other.counts = [row[:] for row in self.counts]
        return other

    # ------------------------------------------------------------------ queries

    def cards_left(self, seat: int) -> int:
        return len(self.sets[seat]) + len(self.discards[seat])

    def can_place(self, seat: int) -> bool:
        discard = self.discards[seat]
        return bool(discard) and CARD_FRAME[discard[-1]] in self.circles

    def places(self, seat: int) -> list[int]:
        discard = self.discards[seat]
        if not discard:
            return []
        frame = CARD_FRAME[discard[-1]]
        return [PLACE0 + k for k, circle in enumerate(self.circles) if circle == frame]

    def legal(self, seat: int) -> list[int]:
        """Legal moves in the engine's order (hand actions, placements, end of turn)."""
        moves: list[int] = []
        if not self.turns or self.budget_left > 0:
            if self.sets[seat]:
                moves.append(FLIP)
            if self.discards[seat]:
                moves.append(RETURN)
                if not self.sets[seat]:
                    moves.append(RECYCLE)
        moves.extend(self.places(seat))
        if self.turns:
            moves.append(END)
        return moves

    def deadlocked(self) -> bool:
        circles = set(self.circles)
        for seat in range(self.n):
            if self.active[seat]:
                counts = self.counts[seat]
                for colour in circles:
                    if counts[colour]:
                        return False
        return True

    # ------------------------------------------------------------------ moves

    def play(self, seat: int, move: int) -> None:
        """Apply a legal move for ``seat`` (not checked)."""
        if move == END:
            self._pass_turn(seat)
            return
        discard = self.discards[seat]
        if move >= PLACE0:
            card = discard.pop()
            self.tops[move - PLACE0] = card
            self.circles[move - PLACE0] = CARD_CIRCLE[card]
            self.counts[seat][CARD_FRAME[card]] -= 1
            self.placed_this_round = True
            if len(discard) + len(self.sets[seat]) <= self.finish_at:
                self.over, self.winner = True, seat
                return
            if self.deadlocked():
                self.over = True
                return
        else:
            if move == FLIP:
                discard.append(self.sets[seat].pop())
            elif move == RETURN:
                self.sets[seat].append(discard.pop())
            else:
                discard.reverse()
                self.sets[seat], self.discards[seat] = discard, []
            if self.turns:
                self.budget_left -= 1
        if self.turns and self.budget_left <= 0 and not self.can_place(seat):
            self._pass_turn(seat)

    def _pass_turn(self, seat: int) -> None:
        n = self.n
        nxt = (seat + 1) % n
        while not self.active[nxt]:
            nxt = (nxt + 1) % n
        if (nxt - self.first_seat) % n <= (seat - self.first_seat) % n:
            self.idle_rounds = 0 if self.placed_this_round else self.idle_rounds + 1
            self.placed_this_round = False
            if self.idle_rounds >= self.stall_cap:
                self.over = True
                return
            self.round += 1
        self.to_move = nxt
        self.budget_left = self.turn_budget(nxt, self.round)

    def turn_budget(self, seat: int, round_number: int) -> int:
        if self.ramp and round_number == 1 and self.n in RAMPS:
            position = (seat - self.first_seat) % self.n
            return max(1, self.budget - 3 + RAMPS[self.n][position])
        return self.budget


def place_move(sim: Sim, seat: int) -> int | None:
    """The placement of the seat's discard top on the lowest stack it fits, if any."""
    discard = sim.discards[seat]
    if discard:
        frame = CARD_FRAME[discard[-1]]
        circles = sim.circles
        for k in range(len(circles)):
            if circles[k] == frame:
                return PLACE0 + k
    return None


def greedy_choice(sim: Sim, seat: int) -> int:
    """Level 2's move on a simulated position: place the discard top on the lowest stack it
    fits, else flip, else recycle, else end the turn."""
    place = place_move(sim, seat)
    if place is not None:
        return place
    discard = sim.discards[seat]
    if not sim.turns or sim.budget_left > 0:
        if sim.sets[seat]:
            return FLIP
        if discard:
            return RECYCLE
    return END


def sim_from_view(view: dict[str, Any], rng: random.Random | None = None,
                  hidden: dict[int, tuple[list[int], list[int]]] | None = None) -> Sim:
    """A position that fits ``view``. The piles nobody sees come from ``hidden`` when given
    (``seat -> (set, discard below the top)``: what a seat remembers, see
    :mod:`games.nimble.bots.memory`, or the true piles in tests), else they are dealt uniformly
    with ``rng`` from the cards of each seat's Set that the view does not show elsewhere.
    Without ``rng`` the hidden cards are dealt in a fixed order (enough for legal moves, which
    depend only on what the view shows)."""
    sim = Sim.__new__(Sim)
    seats = view["seats"]
    sim.n = len(seats)
    options = view["options"]
    sim.turns = view["mode"] == "turns"
    sim.budget = options["budget"]
    sim.ramp = bool(options["ramp"])
    sim.finish_at = options["finish_at"]
    sim.first_seat = view.get("first_seat", view["start_seat"])
    to_move = view["to_move"]
    sim.to_move = to_move[0] if sim.turns and to_move else None
    sim.budget_left = view["budget_left"] or 0
    sim.round = view.get("round", 1)
    sim.idle_rounds = view.get("idle_rounds", 0)
    sim.stall_cap = view.get("stall_cap", -(-SET_SIZE // sim.budget) + 2)
    # Whether someone placed earlier in this round is not in the view; assume not (the stall cap
    # only matters after many idle rounds, which the view does show).
    sim.placed_this_round = False
    sim.active = [not s["forfeited"] for s in seats]
    sim.over = view["outcome"] is not None
    sim.winner = None
    stack_tops = [card_from_face(stack["top"]) for stack in view["stacks"]]
    sim.tops = stack_tops
    sim.circles = [CARD_CIRCLE[card] for card in stack_tops]
    sim.sets, sim.discards, sim.counts = [], [], []
    for seat, info in enumerate(seats):
        top = card_from_face(info["discard_top"]) if info["discard_top"] else None
        if hidden is not None and seat in hidden:
            set_pile, below = (list(pile) for pile in hidden[seat])
        else:
            pool = unseen_cards(seat, top, stack_tops)
            below_count = max(0, info["discard_count"] - 1)
            if rng is not None:
                rng.shuffle(pool)
            set_pile = pool[:info["set_count"]]
            below = pool[info["set_count"]:info["set_count"] + below_count]
        discard = below + ([top] if top is not None else [])
        sim.sets.append(set_pile)
        sim.discards.append(discard)
        counts = [0] * len(COLOURS)
        for card in set_pile:
            counts[CARD_FRAME[card]] += 1
        for card in discard:
            counts[CARD_FRAME[card]] += 1
        sim.counts.append(counts)
    return sim


def unseen_cards(seat: int, top: int | None, stack_tops: list[int]) -> list[int]:
    """The cards of ``seat``'s Set that the view does not place anywhere visible."""
    seen = set(stack_tops)
    if top is not None:
        seen.add(top)
    return [card for card in range(seat * SET_SIZE, (seat + 1) * SET_SIZE) if card not in seen]


__all__ = ["END", "FLIP", "NUM_STACKS", "PLACE0", "RECYCLE", "RETURN", "Sim", "card_from_face",
           "greedy_choice", "move_int", "place_move", "move_json", "sim_from_view", "unseen_cards"]
