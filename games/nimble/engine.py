"""Nimble (Peter Jürgensen): the rules engine.

Each seat owns one Set of 30 cards, every (frame, circle) pair of six colours with
frame != circle. Cards move from the Set to the seat's discard pile (``flip``), from the discard
top back onto the Set (``return``), from the discard top onto one of three shared target stacks
when the card's frame colour equals the stack top's circle colour (``place``), and an empty Set
takes the whole discard back, first-discarded card on top (``recycle``). The first seat with no
cards left wins (with two players, option ``two_player_finish_at``: one card left by default).

Two modes (option ``mode``):

- ``race``: every seat still in play may act at any time; the server applies actions in the order
  it receives them.
- ``turns`` (default): seats take turns clockwise, starting with the seat holding the most cards;
  each turn has a budget of hand actions (``flip``, ``return``, ``recycle``); placements from the
  seat's own discard top are free during its turn; ``end_turn`` passes the turn on, and the turn
  ends by itself when the budget is spent and the discard top cannot be placed.

The match also ends when no seat in play can ever place again (the exact test of the rules spec,
section 9: see :func:`is_deadlocked`), and in turn mode when too many whole rounds pass without a
placement (the stall cap). Set order and every discard card below the top are hidden from
everyone, the owner included; :meth:`NimbleEngine.view` shows only counts and tops while the match
runs and everything once it is over.

Internally a card is an int ``0..119``: ``set * 30 + frame * 5 + k`` where the circle is the k-th
colour other than the frame. The int is a function of the card's face and Set, never of its
position, and it never leaves the engine: views and events show ``{"set", "frame", "circle"}``.
Piles are tuples with the top card last.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.kit.jsontypes import check_move
from games.kit.learn import gettext_noop
from games.kit.protocol import (
    JSON,
    EngineBase,
    EngineError,
    GameOver,
    IllegalMove,
    InvalidConfig,
    MalformedMove,
    NotYourTurn,
    Option,
    Outcome,
    Seat,
    Transition,
    events_for,
    forfeit_ranks,
    hidden_seed,
    normalize_options,
    require_mapping,
    seeded_rng,
)
from games.nimble import types

COLOURS: tuple[str, ...] = ("red", "orange", "beige", "light_blue", "green", "purple")
SET_SIZE = 30
NUM_SETS = 4
NUM_STACKS = 3
MODES = ("turns", "race")
# Round-1 budgets by turn-order position when the ramp is on (spec T5, for a budget of 3).
RAMPS: dict[int, tuple[int, ...]] = {3: (1, 2, 3), 4: (2, 2, 3, 3)}

ACTIONS = ("flip", "place", "return", "recycle", "end_turn")
HAND_ACTIONS = frozenset({"flip", "return", "recycle"})

RULE_SET_EMPTY = "nimble.set_empty"
RULE_DISCARD_EMPTY = "nimble.discard_empty"
RULE_FRAME_MISMATCH = "nimble.frame_mismatch"
RULE_SET_NOT_EMPTY = "nimble.set_not_empty"
RULE_BUDGET_SPENT = "nimble.budget_spent"
RULE_NOT_TURN_MODE = "nimble.not_turn_mode"

REASON_FINISHED = "finished"
REASON_DEADLOCK = "deadlock"
REASON_STALEMATE = "stalemate"
REASON_FORFEIT = "forfeit"

# --------------------------------------------------------------------------- cards


def _circle(frame: int, k: int) -> int:
    return k if k < frame else k + 1


CARD_SET: tuple[int, ...] = tuple(c // SET_SIZE for c in range(NUM_SETS * SET_SIZE))
CARD_FRAME: tuple[int, ...] = tuple((c % SET_SIZE) // 5 for c in range(NUM_SETS * SET_SIZE))
CARD_CIRCLE: tuple[int, ...] = tuple(
    _circle((c % SET_SIZE) // 5, c % 5) for c in range(NUM_SETS * SET_SIZE)
)
# The stored form of a card in dump(): "<set>:<frame>:<circle>".
CARD_CODE: tuple[str, ...] = tuple(
    f"{CARD_SET[c]}:{COLOURS[CARD_FRAME[c]]}:{COLOURS[CARD_CIRCLE[c]]}"
    for c in range(NUM_SETS * SET_SIZE)
)
CODE_CARD: dict[str, int] = {code: card for card, code in enumerate(CARD_CODE)}


def card_of(set_index: int, frame: str, circle: str) -> int:
    """The engine's card for a Set and a face; raises ``ValueError`` for a card that does not
    exist (unknown colour, frame equal to circle, Set outside 0..3)."""
    try:
        return CODE_CARD[f"{set_index}:{frame}:{circle}"]
    except KeyError:
        raise ValueError(
            f"No such card: set {set_index}, {frame} frame, {circle} circle.") from None


def card_face(card: int) -> JSON:
    """The public form of a card: its Set (the owning seat) and its two colours."""
    return {"set": CARD_SET[card], "frame": COLOURS[CARD_FRAME[card]],
            "circle": COLOURS[CARD_CIRCLE[card]]}


def _face_or_none(pile: tuple[int, ...]) -> JSON | None:
    return card_face(pile[-1]) if pile else None


def frame_counts_of(sets: Sequence[Sequence[int]],
                    discards: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """Per seat, how many of its cards (Set and discard together) have each frame colour."""
    result = []
    for set_pile, discard in zip(sets, discards, strict=True):
        counts = [0] * len(COLOURS)
        for card in set_pile:
            counts[CARD_FRAME[card]] += 1
        for card in discard:
            counts[CARD_FRAME[card]] += 1
        result.append(tuple(counts))
    return tuple(result)


# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class NimbleMove:
    """One action: ``flip``, ``place`` (with ``stack`` 0..2), ``return``, ``recycle``, or
    ``end_turn`` (turn mode)."""

    action: str
    stack: int | None = None


FLIP = NimbleMove("flip")
RETURN = NimbleMove("return")
RECYCLE = NimbleMove("recycle")
END_TURN = NimbleMove("end_turn")
PLACE = tuple(NimbleMove("place", k) for k in range(NUM_STACKS))


@dataclass(frozen=True)
class NimbleState:
    """A Nimble position. Piles are tuples of card ints, top card last.

    ``frame_counts`` is derived from ``sets`` and ``discards`` (see :func:`frame_counts_of`); apply
    keeps it up to date and :meth:`NimbleEngine.load` recomputes it, so it is not stored in dumps.
    Build changed positions with :func:`with_piles`, which recounts it.
    """

    seed: str
    num_players: int
    mode: str  # "turns" or "race"
    budget: int  # hand actions per turn (turn mode)
    ramp: bool  # smaller round-1 budgets by turn-order position (turn mode, 3-4 players)
    finish_at: int  # a seat wins on reaching this many cards left
    start_seat: int  # the seat that dealt the first start card
    first_seat: int  # first in turn order (turn mode); the start seat in race mode
    sets: tuple[tuple[int, ...], ...]
    discards: tuple[tuple[int, ...], ...]
    stacks: tuple[tuple[int, ...], ...]
    frame_counts: tuple[tuple[int, ...], ...]
    forfeited: tuple[Seat, ...] = ()  # in the order the seats left
    to_move: Seat | None = None  # turn mode: the seat whose turn it is
    budget_left: int = 0  # turn mode: hand actions left this turn
    round: int = 1  # turn mode: rounds are counted from 1
    placed_this_round: bool = False  # turn mode: did anyone place in the current round
    idle_rounds: int = 0  # turn mode: whole rounds in a row without a placement
    outcome: Outcome | None = None

    def cards_left(self, seat: Seat) -> int:
        """Cards the seat still has to place: Set and discard together."""
        return len(self.sets[seat]) + len(self.discards[seat])

    def active_seats(self) -> tuple[Seat, ...]:
        """Seats still in play (not forfeited)."""
        return tuple(s for s in range(self.num_players) if s not in self.forfeited)

    @property
    def stall_cap(self) -> int:
        """Whole rounds without a placement that end a turn-mode match (spec T6)."""
        return -(-SET_SIZE // self.budget) + 2


def with_piles(state: NimbleState, **changes: Any) -> NimbleState:
    """``dataclasses.replace`` for positions built by hand (tests, tools): applies ``changes``
    and recounts ``frame_counts`` from the resulting piles."""
    state = dataclasses.replace(state, **changes)
    return dataclasses.replace(state, frame_counts=frame_counts_of(state.sets, state.discards))


def is_deadlocked(state: NimbleState) -> bool:
    """The exact deadlock test (spec section 9): no seat in play holds a card, anywhere in its Set
    or discard, whose frame equals the circle of a stack top. Any held card can be brought to the
    discard top by flips, returns and recycles alone, and the stack tops change only by
    placements, so this is true exactly when no placement can ever happen again."""
    circles = {CARD_CIRCLE[stack[-1]] for stack in state.stacks}
    for seat in state.active_seats():
        counts = state.frame_counts[seat]
        for colour in circles:
            if counts[colour]:
                return False
    return True


def _can_place(state: NimbleState, seat: Seat) -> bool:
    discard = state.discards[seat]
    if not discard:
        return False
    frame = CARD_FRAME[discard[-1]]
    return any(CARD_CIRCLE[stack[-1]] == frame for stack in state.stacks)


def _ranked_outcome(state: NimbleState, reason: str, winner: Seat | None = None) -> Outcome:
    """Seats in play ranked by fewest cards left (a finisher first), equal counts sharing a rank;
    forfeited seats below them, the first to leave last. Scores are the cards left."""
    left = tuple(state.cards_left(s) for s in range(state.num_players))
    keys = {s: (-1 if s == winner else left[s]) for s in state.active_seats()}
    return Outcome(ranks=forfeit_ranks(state.num_players, keys, state.forfeited),
                   scores=left, reason=reason)


def _ended_event(outcome: Outcome) -> JSON:
    return {"type": "match_ended", **outcome.as_dict()}


# --------------------------------------------------------------------------- engine


class NimbleEngine(EngineBase[NimbleState, NimbleMove]):
    """The Nimble rules; stateless, one shared instance (:data:`NIMBLE`)."""

    slug = "nimble"
    name = "Nimble"
    min_players = 2
    max_players = 4
    options = (
        Option("mode", "choice", "turns",
               gettext_noop("turns: seats take turns with a budget of hand actions; race: "
                            "everyone acts at once, in the order the server receives the "
                            "actions."), choices=MODES),
        Option("budget", "int", 3,
               gettext_noop("Turn mode: flips, returns and recycles per turn."),
               minimum=1, maximum=6),
        Option("ramp", "bool", None,
               gettext_noop("Turn mode, 3-4 players: smaller budgets in round 1 by turn-order "
                            "position (3 players 1, 2, 3; 4 players 2, 2, 3, 3, for a budget "
                            "of 3). Default: on for 3-4 players; ignored with 2.")),
        Option("two_player_finish_at", "int", 1,
               gettext_noop("Two players: a player wins on reaching this many cards left (Set "
                            "and discard)."),
               choices=(0, 1), minimum=0, maximum=1),
    )

    # ------------------------------------------------------------------- setup

    def initial_state(self, *, num_players: int, config: Mapping[str, Any] | None,
                      seed: str) -> NimbleState:
        if isinstance(num_players, bool) or not isinstance(num_players, int) or not (
                self.min_players <= num_players <= self.max_players):
            raise InvalidConfig(f"Nimble is for {self.min_players} to {self.max_players} players.",
                                option="num_players")
        if not isinstance(seed, str):
            raise InvalidConfig("The seed must be a string.")
        opts = normalize_options(self.options, config)
        ramp = num_players in RAMPS and (opts["ramp"] is None or opts["ramp"])
        finish_at = opts["two_player_finish_at"] if num_players == 2 else 0

        sets = []
        for seat in range(num_players):
            cards = list(range(seat * SET_SIZE, (seat + 1) * SET_SIZE))
            seeded_rng(seed, "set", seat).shuffle(cards)
            sets.append(cards)
        start_seat = seeded_rng(seed, "start").randrange(num_players)
        # Start cards: the top cards of the Sets, dealt round-robin from the start seat.
        stacks: list[tuple[int, ...]] = []
        dealing_order = [(start_seat + k) % num_players for k in range(num_players)]
        while len(stacks) < NUM_STACKS:
            seat = dealing_order[len(stacks) % num_players]
            stacks.append((sets[seat].pop(),))
        set_piles = tuple(tuple(cards) for cards in sets)
        discards = tuple(() for _ in range(num_players))

        mode = opts["mode"]
        if mode == "turns":
            # The seat holding the most cards starts; ties go to the earliest in dealing order.
            first_seat = max(dealing_order, key=lambda s: (len(set_piles[s]),
                                                           -dealing_order.index(s)))
        else:
            first_seat = start_seat
        state = NimbleState(
            seed=seed, num_players=num_players, mode=mode, budget=opts["budget"], ramp=ramp,
            finish_at=finish_at, start_seat=start_seat, first_seat=first_seat,
            sets=set_piles, discards=discards, stacks=tuple(stacks),
            frame_counts=frame_counts_of(set_piles, discards),
            to_move=first_seat if mode == "turns" else None,
        )
        if mode == "turns":
            state = dataclasses.replace(state, budget_left=self._turn_budget(state, first_seat, 1))
        if is_deadlocked(state):
            state = dataclasses.replace(state, to_move=None, budget_left=0,
                                        outcome=_ranked_outcome(state, REASON_DEADLOCK))
        return state

    @staticmethod
    def _turn_budget(state: NimbleState, seat: Seat, round_number: int) -> int:
        if state.ramp and round_number == 1 and state.num_players in RAMPS:
            position = (seat - state.first_seat) % state.num_players
            # The ramp lowers a round-1 budget by the spec's shortfall from 3, never below 1.
            return max(1, state.budget - 3 + RAMPS[state.num_players][position])
        return state.budget

    # ------------------------------------------------------------------- turn

    def actors(self, state: NimbleState) -> frozenset[Seat]:
        if state.outcome is not None:
            return frozenset()
        if state.mode == "race":
            return frozenset(state.active_seats())
        return frozenset() if state.to_move is None else frozenset((state.to_move,))

    # ------------------------------------------------------------------- moves

    def parse_move(self, data: Any) -> NimbleMove:
        check_move(types.NimbleMove, data)
        data = require_mapping(data, allowed={"action", "stack"}, required={"action"})
        action = data["action"]
        if not isinstance(action, str) or action not in ACTIONS:
            raise MalformedMove(f"Unknown action; expected one of {list(ACTIONS)}.",
                                field="action")
        if action == "place":
            if "stack" not in data:
                raise MalformedMove("A place move needs a stack (0, 1 or 2).", field="stack")
            stack = data["stack"]
            if isinstance(stack, bool) or not isinstance(stack, int) or not (
                    0 <= stack < NUM_STACKS):
                raise MalformedMove("The stack must be 0, 1 or 2.", field="stack")
            return PLACE[stack]
        if "stack" in data:
            raise MalformedMove(f"A {action} move has no stack.", field="stack")
        return NimbleMove(action)

    def dump_move(self, move: NimbleMove) -> JSON:
        if move.action == "place":
            return {"action": "place", "stack": move.stack}
        return {"action": move.action}

    def validate(self, state: NimbleState, seat: Seat, move: NimbleMove) -> None:
        if state.outcome is not None:
            raise GameOver("The match is over.")
        if not isinstance(move, NimbleMove) or move.action not in ACTIONS or (
                (move.action == "place") != (move.stack in (0, 1, 2))
                or isinstance(move.stack, bool)):
            raise MalformedMove("Not a Nimble move.")
        if seat not in self.actors(state):
            raise NotYourTurn("It is not your turn.", seat=seat)
        action = move.action
        if action == "end_turn":
            if state.mode != "turns":
                raise IllegalMove("There are no turns to end in race mode.",
                                  rule=RULE_NOT_TURN_MODE)
            return
        discard = state.discards[seat]
        if action == "place":
            stack = _stack_of(move)
            if not discard:
                raise IllegalMove("Your discard pile is empty.", rule=RULE_DISCARD_EMPTY)
            if CARD_FRAME[discard[-1]] != CARD_CIRCLE[state.stacks[stack][-1]]:
                raise IllegalMove("The card's frame must match the circle of the stack top.",
                                  rule=RULE_FRAME_MISMATCH, stack=stack)
            return
        if state.mode == "turns" and state.budget_left <= 0:
            raise IllegalMove("No hand actions are left this turn.", rule=RULE_BUDGET_SPENT)
        set_pile = state.sets[seat]
        if action == "flip":
            if not set_pile:
                raise IllegalMove("Your Set is empty.", rule=RULE_SET_EMPTY)
        elif action == "return":
            if not discard:
                raise IllegalMove("Your discard pile is empty.", rule=RULE_DISCARD_EMPTY)
        elif set_pile:  # recycle
            raise IllegalMove("You can take your discard back only once your Set is empty.",
                              rule=RULE_SET_NOT_EMPTY)
        elif not discard:
            raise IllegalMove("Your discard pile is empty.", rule=RULE_DISCARD_EMPTY)

    def legal_moves(self, state: NimbleState, seat: Seat) -> list[NimbleMove]:
        if seat not in self.actors(state):
            return []
        moves: list[NimbleMove] = []
        set_pile = state.sets[seat]
        discard = state.discards[seat]
        turns = state.mode == "turns"
        if not turns or state.budget_left > 0:
            if set_pile:
                moves.append(FLIP)
            if discard:
                moves.append(RETURN)
                if not set_pile:
                    moves.append(RECYCLE)
        if discard:
            frame = CARD_FRAME[discard[-1]]
            moves.extend(PLACE[k] for k, stack in enumerate(state.stacks)
                         if CARD_CIRCLE[stack[-1]] == frame)
        if turns:
            moves.append(END_TURN)
        return moves

    # ------------------------------------------------------------------- apply

    def apply(self, state: NimbleState, seat: Seat, move: NimbleMove) -> Transition[NimbleState]:
        self.validate(state, seat, move)
        action = move.action
        if action == "end_turn":
            events: list[JSON] = []
            state = self._pass_turn(state, seat, auto=False, events=events)
            return Transition(state, tuple(events))

        sets, discards = state.sets, state.discards
        set_pile, discard = sets[seat], discards[seat]
        changes: dict[str, Any] = {}
        if action == "place":
            card = discard[-1]
            discard = discard[:-1]
            stacks = list(state.stacks)
            stack = _stack_of(move)
            stacks[stack] = stacks[stack] + (card,)
            counts = list(state.frame_counts[seat])
            counts[CARD_FRAME[card]] -= 1
            frame_counts = list(state.frame_counts)
            frame_counts[seat] = tuple(counts)
            changes.update(discards=_replaced(discards, seat, discard), stacks=tuple(stacks),
                           frame_counts=tuple(frame_counts))
            if state.mode == "turns":
                changes["placed_this_round"] = True
            event = {"type": "placed", "seat": seat, "stack": move.stack,
                     "card": card_face(card), "discard_top": _face_or_none(discard)}
        elif action == "flip":
            card = set_pile[-1]
            discard = discard + (card,)
            changes.update(sets=_replaced(sets, seat, set_pile[:-1]),
                           discards=_replaced(discards, seat, discard))
            event = {"type": "flipped", "seat": seat, "card": card_face(card)}
        elif action == "return":
            card = discard[-1]
            discard = discard[:-1]
            changes.update(sets=_replaced(sets, seat, set_pile + (card,)),
                           discards=_replaced(discards, seat, discard))
            event = {"type": "returned", "seat": seat, "card": card_face(card),
                     "discard_top": _face_or_none(discard)}
        else:  # recycle: the first-discarded card becomes the Set's top
            changes.update(sets=_replaced(sets, seat, discard[::-1]),
                           discards=_replaced(discards, seat, ()))
            event = {"type": "recycled", "seat": seat, "count": len(discard)}
        if action in HAND_ACTIONS and state.mode == "turns":
            changes["budget_left"] = state.budget_left - 1
        state = dataclasses.replace(state, **changes)
        events = [event]

        if action == "place":
            if state.cards_left(seat) <= state.finish_at:
                return self._end(state, _ranked_outcome(state, REASON_FINISHED, winner=seat),
                                 events)
            if is_deadlocked(state):
                return self._end(state, _ranked_outcome(state, REASON_DEADLOCK), events)
        if state.mode == "turns" and state.budget_left <= 0 and not _can_place(state, seat):
            state = self._pass_turn(state, seat, auto=True, events=events)
        return Transition(state, tuple(events))

    def _pass_turn(self, state: NimbleState, seat: Seat, *, auto: bool,
                   events: list[JSON]) -> NimbleState:
        """Hand the turn from ``seat`` to the next seat in play clockwise, closing the round
        when the turn order wraps; the stall cap may end the match there."""
        n = state.num_players
        nxt = (seat + 1) % n
        while nxt in state.forfeited:
            nxt = (nxt + 1) % n
        round_number, placed, idle = state.round, state.placed_this_round, state.idle_rounds
        events.append({"type": "turn_ended", "seat": seat, "auto": auto})
        first = state.first_seat
        if (nxt - first) % n <= (seat - first) % n:
            idle = 0 if placed else idle + 1
            events.append({"type": "round_ended", "round": round_number,
                           "idle_rounds": idle})
            state = dataclasses.replace(state, idle_rounds=idle, placed_this_round=False)
            if idle >= state.stall_cap:
                return self._end(state, _ranked_outcome(state, REASON_STALEMATE), events).state
            round_number += 1
        budget = self._turn_budget(state, nxt, round_number)
        events.append({"type": "turn_started", "seat": nxt, "round": round_number,
                       "budget": budget})
        return dataclasses.replace(state, to_move=nxt, budget_left=budget, round=round_number)

    @staticmethod
    def _end(state: NimbleState, outcome: Outcome, events: list[JSON]) -> Transition[NimbleState]:
        events.append(_ended_event(outcome))
        state = dataclasses.replace(state, outcome=outcome, to_move=None, budget_left=0)
        return Transition(state, tuple(events))

    def forfeit(self, state: NimbleState, seat: Seat) -> Transition[NimbleState]:
        if state.outcome is not None:
            raise GameOver("The match is over.")
        if not 0 <= seat < state.num_players:
            raise ValueError(f"No seat {seat}.")
        if seat in state.forfeited:
            return Transition(state, ())
        state = dataclasses.replace(state, forfeited=state.forfeited + (seat,))
        events: list[JSON] = [{"type": "forfeited", "seat": seat}]
        active = state.active_seats()
        if len(active) == 1:
            outcome = _ranked_outcome(state, REASON_FORFEIT, winner=active[0])
            return self._end(state, outcome, events)
        # The leaver's cards are out of play, which may leave no placement possible.
        if is_deadlocked(state):
            return self._end(state, _ranked_outcome(state, REASON_DEADLOCK), events)
        if state.to_move == seat:
            state = self._pass_turn(state, seat, auto=True, events=events)
        return Transition(state, tuple(events))

    def is_realtime(self, state: NimbleState) -> bool:
        """Race matches run in real time: every seat acts whenever it likes."""
        return state.mode == "race"

    def end_stalemate(self, state: NimbleState) -> Transition[NimbleState]:
        """End a running match as a stalemate ranked by fewest cards left: the server's
        time-based stall guard in race mode (spec R6)."""
        if state.outcome is not None:
            raise GameOver("The match is over.")
        return self._end(state, _ranked_outcome(state, REASON_STALEMATE), [])

    # ------------------------------------------------------------------- hidden information

    def hidden_variant(self, state: NimbleState, seat: Seat | None, *,
                       history: Sequence[JSON], rng: random.Random) -> NimbleState:
        """The same position with the seed and, in every Set, the order of the cards never
        turned face up redrawn. Nimble hides the same things from everyone, the owner included,
        so the variant does not depend on ``seat``.

        Every card that leaves a Set is shown (a ``flipped`` event, or the start stacks), and
        the event log shows where it went from there: the discard piles, the cards returned
        onto a Set and a recycled Set are all known to a viewer who followed the log. What is
        left hidden is the order, within each Set, of the cards that were never flipped; only
        those are shuffled, each among the positions they hold."""
        if state.outcome is not None:
            return state
        shown = _shown_cards(history)
        sets = []
        for pile in state.sets:
            places = [i for i, card in enumerate(pile) if card not in shown]
            unseen = [pile[i] for i in places]
            rng.shuffle(unseen)
            cards = list(pile)
            for i, card in zip(places, unseen, strict=True):
                cards[i] = card
            sets.append(tuple(cards))
        return dataclasses.replace(state, sets=tuple(sets), seed=hidden_seed(rng))

    # ------------------------------------------------------------------- plans

    def plans_apply(self, state: NimbleState, seat: Seat) -> bool:
        """Plans apply to two-player matches in turns; a race runs in real time, and with
        three or four players there is no single other seat to reply to."""
        return state.mode == "turns" and state.num_players == 2 and 0 <= seat < 2

    def plan_key(self, state: NimbleState, mover: Seat, move: NimbleMove,
                 transition: Transition[NimbleState], viewer: Seat) -> JSON:
        """The action as the move log shows it; a flip adds the card it turned up, as the
        ``flipped`` event shows it to the viewer."""
        data = self.dump_move(move)
        if move.action == "flip":
            shown = [event["card"] for event in events_for(transition.events, viewer)
                     if event.get("type") == "flipped" and event.get("seat") == mover]
            data["card"] = shown[0]
        return data

    def plan_candidate(self, state: NimbleState, mover: Seat, key: Any, viewer: Seat, *,
                       history: Sequence[JSON]) -> tuple[NimbleMove, NimbleState] | None:
        """A flip key names the card turned up: the viewer knows the top of the mover's Set
        when that card was shown before (returned, recycled); otherwise any card of that Set
        never shown may be on top, and the candidate state swaps it there (a state the viewer
        cannot tell from this one). Any other key is the action itself."""
        if isinstance(key, Mapping) and key.get("action") == "flip":
            return self._flip_candidate(state, mover, key, history)
        found = super().plan_candidate(state, mover, key, viewer, history=history)
        if found is None or found[0].action == "flip":
            return None  # a flip key names its card
        return found

    def _flip_candidate(self, state: NimbleState, mover: Seat, key: Mapping[str, Any],
                        history: Sequence[JSON]) -> tuple[NimbleMove, NimbleState] | None:
        face = key.get("card")
        if set(key) != {"action", "card"} or not isinstance(face, Mapping) or set(face) != {
                "set", "frame", "circle"}:
            return None
        try:
            card = card_of(face["set"], face["frame"], face["circle"])
        except (ValueError, TypeError):
            return None
        if state.outcome is not None or mover not in self.actors(state):
            return None
        try:
            self.validate(state, mover, FLIP)
        except EngineError:
            return None
        pile = state.sets[mover]
        shown = _shown_cards(history)
        if pile[-1] in shown or card in shown or card not in pile:
            return (FLIP, state) if pile[-1] == card else None
        cards = list(pile)
        where = cards.index(card)
        cards[where], cards[-1] = cards[-1], cards[where]
        return FLIP, dataclasses.replace(state, sets=_replaced(state.sets, mover, tuple(cards)))

    def move_reveals(self, state: NimbleState, seat: Seat, move: NimbleMove) -> bool:
        """A flip turns up a card of the Set, whose order nobody sees: a dry run of a flip never
        shows the card. Every other action shows only cards that are face up, or known from the
        event log, before it."""
        return move.action == "flip"

    # ------------------------------------------------------------------- output

    def outcome(self, state: NimbleState) -> Outcome | None:
        return state.outcome

    def view(self, state: NimbleState, seat: Seat | None) -> JSON:
        if seat is not None and not (
                isinstance(seat, int) and 0 <= seat < state.num_players):
            raise ValueError(f"No seat {seat}.")
        actors = self.actors(state)
        turns = state.mode == "turns"
        data: JSON = {
            "game": self.slug,
            "mode": state.mode,
            "players": state.num_players,
            "you": seat,
            "options": {"mode": state.mode, "budget": state.budget, "ramp": state.ramp,
                        "finish_at": state.finish_at},
            "start_seat": state.start_seat,
            "seats": [
                {"seat": s, "set_count": len(state.sets[s]),
                 "discard_count": len(state.discards[s]), "cards_left": state.cards_left(s),
                 "discard_top": _face_or_none(state.discards[s]),
                 "forfeited": s in state.forfeited}
                for s in range(state.num_players)
            ],
            "stacks": [{"top": card_face(stack[-1]), "height": len(stack)}
                       for stack in state.stacks],
            "to_move": sorted(actors),
            "budget_left": state.budget_left if turns and state.outcome is None else None,
            "outcome": None if state.outcome is None else state.outcome.as_dict(),
        }
        if turns:
            data.update(round=state.round, first_seat=state.first_seat,
                        idle_rounds=state.idle_rounds, stall_cap=state.stall_cap)
        if seat is not None:
            data["legal_moves"] = [self.dump_move(m) for m in self.legal_moves(state, seat)]
        if state.outcome is not None:
            data["revealed"] = {
                "seed": state.seed,
                "sets": [[card_face(c) for c in pile] for pile in state.sets],
                "discards": [[card_face(c) for c in pile] for pile in state.discards],
                "stacks": [[card_face(c) for c in pile] for pile in state.stacks],
            }
        return data

    # ------------------------------------------------------------------- storage

    def dump(self, state: NimbleState) -> JSON:
        outcome = state.outcome
        return {
            "seed": state.seed,
            "num_players": state.num_players,
            "mode": state.mode,
            "budget": state.budget,
            "ramp": state.ramp,
            "finish_at": state.finish_at,
            "start_seat": state.start_seat,
            "first_seat": state.first_seat,
            "sets": [[CARD_CODE[c] for c in pile] for pile in state.sets],
            "discards": [[CARD_CODE[c] for c in pile] for pile in state.discards],
            "stacks": [[CARD_CODE[c] for c in pile] for pile in state.stacks],
            "forfeited": list(state.forfeited),
            "to_move": state.to_move,
            "budget_left": state.budget_left,
            "round": state.round,
            "placed_this_round": state.placed_this_round,
            "idle_rounds": state.idle_rounds,
            "outcome": None if outcome is None else {
                "ranks": list(outcome.ranks), "scores": list(outcome.scores),
                "reason": outcome.reason},
        }

    def load(self, data: Mapping[str, Any]) -> NimbleState:
        def piles(key: str) -> tuple[tuple[int, ...], ...]:
            return tuple(tuple(CODE_CARD[code] for code in pile) for pile in data[key])

        sets, discards = piles("sets"), piles("discards")
        outcome = data["outcome"]
        return NimbleState(
            seed=data["seed"], num_players=data["num_players"], mode=data["mode"],
            budget=data["budget"], ramp=data["ramp"], finish_at=data["finish_at"],
            start_seat=data["start_seat"], first_seat=data["first_seat"],
            sets=sets, discards=discards, stacks=piles("stacks"),
            frame_counts=frame_counts_of(sets, discards),
            forfeited=tuple(data["forfeited"]), to_move=data["to_move"],
            budget_left=data["budget_left"], round=data["round"],
            placed_this_round=data["placed_this_round"], idle_rounds=data["idle_rounds"],
            outcome=None if outcome is None else Outcome(
                ranks=tuple(outcome["ranks"]), scores=tuple(outcome["scores"]),
                reason=outcome["reason"]),
        )


def _shown_cards(history: Sequence[JSON]) -> set[int]:
    """The cards a viewer has seen turned up from a Set (``flipped`` events)."""
    shown: set[int] = set()
    for event in history:
        if event.get("type") == "flipped" and isinstance(event.get("card"), Mapping):
            face = event["card"]
            shown.add(card_of(face["set"], face["frame"], face["circle"]))
    return shown


def _stack_of(move: NimbleMove) -> int:
    """The stack of a place move (``validate`` has refused a place move without one)."""
    if move.stack is None:
        raise MalformedMove("A place move needs a stack (0, 1 or 2).", field="stack")
    return move.stack


def _replaced(piles: tuple[tuple[int, ...], ...], seat: Seat,
              pile: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return piles[:seat] + (pile,) + piles[seat + 1:]


NIMBLE = NimbleEngine()
