"""What a Nimble seat can know from the events it was shown: the memory of a player at the table.

Every card that reaches a discard pile is flipped face up first, and the ``flipped``,
``placed`` and ``returned`` events name it, so a seat that remembers the event feed knows

- every discard pile in full, its own and the other seats' (bottom to top);
- the known top part of every Set: cards put back with ``return``, and after a ``recycle`` the
  whole Set (the discard taken back, first-discarded card on top);
- which cards of each Set were never seen: they lie, in an unknown order, at the bottom of that
  Set (a seat works through its Set from the top, and it can take the discard back only once the
  Set is empty), apart from start cards that were covered before the seat saw them.

:func:`reconstruct` replays the history against the setup rules and checks the result against
the current view (counts, discard tops, stack tops). Any disagreement, such as a history that
does not start at the beginning of the match or events of another match, gives ``None`` and
the caller plays without memory. :func:`world_from_memory` deals the never-seen cards at random
to build a :class:`~games.nimble.bots.sim.Sim` that agrees with everything the seat knows.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.nimble.bots.sim import Sim, card_from_face, sim_from_view
from games.nimble.engine import CARD_CIRCLE, CARD_FRAME, CARD_SET, NUM_STACKS, SET_SIZE


class Inconsistent(ValueError):
    """The history does not lead to the view."""


@dataclass
class SeatMemory:
    """One seat's piles as far as they are known. The Set is ``hidden`` never-seen cards at the
    bottom (order unknown) under ``set_top`` (known, bottom first); ``discard`` is the whole
    discard pile, bottom first."""

    hidden: int
    set_top: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)

    @property
    def set_count(self) -> int:
        return self.hidden + len(self.set_top)


@dataclass
class Memory:
    """Everything the seat can know. ``unseen[s]`` are the cards of seat ``s``'s Set never seen
    face up; they fill its ``hidden`` Set cards and ``covered_starts``: start cards that were
    covered by a placement before the seat saw them, as ``(owner seat, circle colour)`` (the
    circle is the frame of the first card placed on them)."""

    seats: list[SeatMemory]
    unseen: list[list[int]]
    covered_starts: list[tuple[int, int]]
    placed_this_round: bool = False
    events: int = 0

    def fully_known(self, seat: int) -> bool:
        """Whether every card the seat still holds is known, in order."""
        return self.seats[seat].hidden == 0


def start_counts(players: int, start_seat: int) -> list[int]:
    """How many start cards each seat dealt: the top cards of the Sets, round-robin from the
    start seat until the three stacks are started."""
    counts = [0] * players
    for k in range(NUM_STACKS):
        counts[(start_seat + k) % players] += 1
    return counts


def reconstruct(view: dict[str, Any], history: Sequence[dict[str, Any]]) -> Memory | None:
    """The seat's memory after ``history`` (oldest first), or ``None`` when the events do not
    lead to ``view``."""
    try:
        return _reconstruct(view, history)
    except (Inconsistent, KeyError, TypeError, ValueError, IndexError, AttributeError):
        return None


def _face(face: Any) -> int | None:
    return None if face is None else card_from_face(face)


def _reconstruct(view: dict[str, Any], history: Sequence[dict[str, Any]]) -> Memory:
    players = len(view["seats"])
    start_seat = view["start_seat"]
    if not 0 <= start_seat < players:
        raise Inconsistent("start seat")
    starts = start_counts(players, start_seat)
    seats = [SeatMemory(hidden=SET_SIZE - starts[s]) for s in range(players)]
    seen: set[int] = set()
    # Per stack: the first card placed on it (its frame is the start card's circle) and the top.
    first_placed: list[int | None] = [None] * NUM_STACKS
    tops: list[int | None] = [None] * NUM_STACKS
    placed_this_round = False
    forfeited: set[int] = set()

    def own(seat: Any, card: int) -> SeatMemory:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            raise Inconsistent("seat")
        if CARD_SET[card] != seat:
            raise Inconsistent("a card of another Set")
        return seats[seat]

    def check_top(pile: list[int], face: Any) -> None:
        if (pile[-1] if pile else None) != _face(face):
            raise Inconsistent("discard top")

    for event in history:
        kind = event.get("type")
        if kind == "flipped":
            card = card_from_face(event["card"])
            memory = own(event["seat"], card)
            if memory.set_top:
                if memory.set_top.pop() != card:
                    raise Inconsistent("flipped a card that is not the known Set top")
            elif memory.hidden > 0 and card not in seen:
                memory.hidden -= 1
                seen.add(card)
            else:
                raise Inconsistent("flip")
            memory.discard.append(card)
        elif kind == "placed":
            card = card_from_face(event["card"])
            memory = own(event["seat"], card)
            stack = event["stack"]
            if not memory.discard or memory.discard.pop() != card or stack not in range(
                    NUM_STACKS):
                raise Inconsistent("placement")
            if tops[stack] is not None and CARD_CIRCLE[tops[stack]] != CARD_FRAME[card]:
                raise Inconsistent("placement does not fit")
            if first_placed[stack] is None:
                first_placed[stack] = card
            tops[stack] = card
            check_top(memory.discard, event.get("discard_top"))
            placed_this_round = True
        elif kind == "returned":
            card = card_from_face(event["card"])
            memory = own(event["seat"], card)
            if not memory.discard or memory.discard.pop() != card:
                raise Inconsistent("return")
            memory.set_top.append(card)
            check_top(memory.discard, event.get("discard_top"))
        elif kind == "recycled":
            seat = event["seat"]
            if not isinstance(seat, int) or not 0 <= seat < players:
                raise Inconsistent("seat")
            memory = seats[seat]
            if memory.set_count or not memory.discard or event.get("count") != len(
                    memory.discard):
                raise Inconsistent("recycle")
            memory.set_top = memory.discard[::-1]
            memory.discard = []
        elif kind == "round_ended":
            placed_this_round = False
        elif kind == "forfeited":
            forfeited.add(event["seat"])
        # turn_started, turn_ended, match_ended and unknown kinds change no pile.

    # The history must lead to the view.
    for s, info in enumerate(view["seats"]):
        memory = seats[s]
        if (memory.set_count != info["set_count"]
                or len(memory.discard) != info["discard_count"]
                or bool(info["forfeited"]) != (s in forfeited)):
            raise Inconsistent("counts")
        check_top(memory.discard, info["discard_top"])
    covered: list[tuple[int, int]] = []
    for k, stack in enumerate(view["stacks"]):
        top = card_from_face(stack["top"])
        owner = (start_seat + k) % players
        first = first_placed[k]
        if first is None:
            if stack["height"] != 1 or CARD_SET[top] != owner or top in seen:
                raise Inconsistent("start card")
            seen.add(top)
        else:
            if tops[k] != top:
                raise Inconsistent("stack top")
            covered.append((owner, CARD_FRAME[first]))
    unseen = [[c for c in range(s * SET_SIZE, (s + 1) * SET_SIZE) if c not in seen]
              for s in range(players)]
    for s in range(players):
        covered_here = sum(1 for owner, _ in covered if owner == s)
        if len(unseen[s]) != seats[s].hidden + covered_here:
            raise Inconsistent("unseen cards")
    # Only turn mode counts placements per round (for the stall cap).
    placed_this_round = placed_this_round and view["mode"] == "turns"
    return Memory(seats=seats, unseen=unseen, covered_starts=covered,
                  placed_this_round=placed_this_round, events=len(history))


def deal_hidden(memory: Memory, rng: random.Random | None) -> list[list[int]]:
    """Per seat, a random order of its never-seen Set cards (bottom first), after setting aside
    a card for each covered start card. Without ``rng`` the order is fixed."""
    pools = [list(pool) for pool in memory.unseen]
    for owner, circle in memory.covered_starts:
        pool = pools[owner]
        fitting = [i for i, card in enumerate(pool) if CARD_CIRCLE[card] == circle]
        if fitting:
            index = fitting[rng.randrange(len(fitting))] if rng is not None else fitting[0]
            pool.pop(index)
    hidden = []
    for s, pool in enumerate(pools):
        if rng is not None:
            rng.shuffle(pool)
        hidden.append(pool[:memory.seats[s].hidden])
    return hidden


def world_from_memory(view: dict[str, Any], memory: Memory,
                      rng: random.Random | None) -> Sim:
    """A position that agrees with the view and with everything in ``memory``; only the never-
    seen cards are dealt at random."""
    hidden = deal_hidden(memory, rng)
    piles = {s: (hidden[s] + seat.set_top, seat.discard[:-1])
             for s, seat in enumerate(memory.seats)}
    sim = sim_from_view(view, hidden=piles)
    sim.placed_this_round = memory.placed_this_round
    return sim


__all__ = ["Inconsistent", "Memory", "SeatMemory", "deal_hidden", "reconstruct",
           "start_counts", "world_from_memory"]
