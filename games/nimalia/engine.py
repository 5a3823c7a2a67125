"""The Nimalia rules engine: a simultaneous card draft in which every seat builds a 6 x 6 reserve.

Flow of a match. Set-up shuffles the deck from the seed, picks four objectives and deals 3 cards
to every seat. A round is three draft turns. In a draft turn every seat places one card from its
hand in its own reserve; the placement stays hidden (pending) and may be taken back until the last
seat places, then all placements are revealed together and the hands pass on (solo: the two cards
left are discarded and 3 new ones dealt). After the third turn nobody may act and a system step
is due: it scores the round's objectives and deals the next round, or ends the match.

Undo and actors. While a draft turn runs, every seat is an actor. A seat without a pending
placement may place (its legal moves are all placements); a seat with one may only take it back
(its one legal move is ``{"undo": true}``) and placing again is ``nimalia.already_placed``. The
turn ends the moment the last seat places, so a random playout ends every turn with probability
1: a seat that undoes re-places on its next pick. ``must_act`` names the seats the turn still
waits for (those without a pending placement); the platform runs deadlines and bot turns on it,
so bots never undo.
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
    GameOver,
    IllegalMove,
    InvalidConfig,
    MalformedMove,
    NotYourTurn,
    Option,
    Outcome,
    Seat,
    Transition,
    forfeit_ranks,
    hidden_seed,
    normalize_options,
    require_mapping,
    seeded_rng,
)
from games.nimalia import types
from games.nimalia.cards import CARD_IDS, CARDS, ROTATIONS, Square
from games.nimalia.grid import (
    Cell,
    bounds,
    legal_anchors,
    placement_problem,
    visible_cards,
    visible_squares,
)
from games.nimalia.objectives import (
    LEFT,
    OBJECTIVES,
    PASS_DIRECTION,
    ROUND_COLOURS,
    round_objectives,
    select_objectives,
)
from games.nimalia.scoring import most_of_one_species, score_round

HAND_SIZE = 3
TURNS_PER_ROUND = 3
COORDINATE_LIMIT = 99  # |row| and |col| of a move; anything beyond is malformed

MOST_OF_ONE_SPECIES = "most_of_one_species"
FEWEST_COVERED_SQUARES = "fewest_covered_squares"

# Reasons an outcome gives.
FINISHED = "finished"
FORFEIT = "forfeit"
SOLO_FINISHED = "solo_finished"

# The solo rank table: titles from worst to best and, per round count, the lowest final total
# that earns each. The bands come from a simulation of a random and a greedy solo player
# (tests/engines/nimalia/solo_sim.py; figures in games/nimalia/RULES.md).
SOLO_TITLES = (
    "Lost in the bush",
    "Trainee keeper",
    "Keeper",
    "Head keeper",
    "Reserve warden",
    "Reserve director",
    "Legendary naturalist",
)
SOLO_THRESHOLDS: dict[int, tuple[int, ...]] = {
    5: (0, 35, 60, 85, 105, 125, 145),
    4: (0, 25, 40, 55, 70, 85, 100),
}


def solo_title(total: int, rounds: int = 5) -> str:
    """The solo rank title a final total earns in a game of ``rounds`` rounds."""
    title = SOLO_TITLES[0]
    for threshold, name in zip(SOLO_THRESHOLDS[rounds], SOLO_TITLES, strict=True):
        if total >= threshold:
            title = name
    return title


# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class Place:
    """Put ``card`` from the hand with its top-left square at (row, col), turned clockwise."""

    card: int
    row: int
    col: int
    rotation: int

    def as_dict(self) -> JSON:
        return {"card": self.card, "row": self.row, "col": self.col, "rotation": self.rotation}

    def as_tuple(self) -> tuple[int, int, int, int]:
        return (self.card, self.row, self.col, self.rotation)


@dataclass(frozen=True)
class Undo:
    """Take back this turn's pending placement."""


Move = Place | Undo


@dataclass(frozen=True)
class RoundScore:
    """One round's scoring: ``points[seat][i]`` is the raw score of ``objectives[i]``."""

    round: int
    objectives: tuple[int, ...]
    points: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class State:
    num_players: int
    seed: str
    rounds: int
    tie_break: str
    objectives: tuple[int, ...]                  # yellow, blue, green, red
    deck: tuple[int, ...]                        # face-down cards, next dealt first
    hands: tuple[tuple[int, ...], ...]           # sorted card ids per seat
    pending: tuple[Place | None, ...]            # this turn's hidden placement per seat
    reserves: tuple[tuple[Place, ...], ...]      # revealed placements per seat, oldest first
    discards: tuple[int, ...]                    # solo: cards set aside, in order
    round: int                                   # 1 .. rounds
    turn: int                                    # draft turns completed in this round, 0 .. 3
    totals: tuple[int, ...]
    history: tuple[RoundScore, ...]
    forfeited: tuple[int, ...]                   # seats in the order they left
    ended: str | None                            # the outcome reason once the match is over

    @property
    def solo(self) -> bool:
        return self.num_players == 1


# --------------------------------------------------------------------------- options

OPTIONS = (
    Option("rounds", "int", 5,
           gettext_noop("5 rounds (the published game) or 4 (the first four rounds of the "
                        "round card)."), choices=(4, 5)),
    Option("objectives", "json", "random",
           gettext_noop("How the four objectives are chosen: \"random\", \"easy\" (easy and "
                        "medium), \"hard\" (medium and difficult), \"first_game\" (4, 5, 16, "
                        "19) or a list of 4 ids, one per colour, from four different objective "
                        "cards. Solo never uses objectives that compare players.")),
    Option("tie_break", "choice", MOST_OF_ONE_SPECIES,
           gettext_noop("Who wins a tie on points: the most animals of one species, or the "
                        "fewest squares covered by later cards. Still tied: shared place."),
           choices=(MOST_OF_ONE_SPECIES, FEWEST_COVERED_SQUARES)),
)


# --------------------------------------------------------------------------- helpers


def _deal(deck: tuple[int, ...], count: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return tuple(sorted(deck[:count])), deck[count:]


def _pass_target(state: State, seat: Seat) -> Seat:
    """The seat this seat's hand goes to after a draft turn of the current round."""
    step = 1 if PASS_DIRECTION[state.round] == LEFT else -1
    return (seat + step) % state.num_players


def _grids(state: State) -> list[dict[Cell, Square]]:
    return [visible_squares(p.as_tuple() for p in reserve) for reserve in state.reserves]


def _tie_break_keys(state: State) -> list[int]:
    """Per seat, lower is better."""
    grids = _grids(state)
    if state.tie_break == FEWEST_COVERED_SQUARES:
        return [4 * len(reserve) - len(grid) for reserve, grid in zip(state.reserves, grids,
                                                                       strict=True)]
    return [-most_of_one_species(grid) for grid in grids]


def _hand_event(seat: Seat, cards: Sequence[int], why: str) -> JSON:
    return {"type": "hand", "seat": seat, "cards": list(cards), "why": why, "private_to": seat}


def _card_json(card_id: int) -> JSON:
    return {"id": card_id, "squares": [
        {"animal": s.animal, "terrain": s.terrain, "river": s.river or None}
        for s in CARDS[card_id]]}


def _int(data: Mapping[str, Any], key: str) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedMove(f"Field {key} must be a whole number.", field=key)
    return value


# --------------------------------------------------------------------------- the engine


class NimaliaEngine(EngineBase[State, Move]):
    slug = "nimalia"
    name = "Nimalia"
    min_players = 1
    max_players = 4
    options = OPTIONS
    private_moves = True

    # ----------------------------------------------------------------- set-up

    def initial_state(self, *, num_players: int, config: Mapping[str, Any] | None,
                      seed: str) -> State:
        if (isinstance(num_players, bool) or not isinstance(num_players, int)
                or not self.min_players <= num_players <= self.max_players):
            raise InvalidConfig("Nimalia is for 1 to 4 players.", players=num_players)
        options = normalize_options(self.options, config)
        objectives = select_objectives(options["objectives"], num_players,
                                       seeded_rng(seed, "objectives"))
        deck = list(CARD_IDS)
        seeded_rng(seed, "deck").shuffle(deck)
        remaining = tuple(deck)
        hands = []
        for _ in range(num_players):
            hand, remaining = _deal(remaining, HAND_SIZE)
            hands.append(hand)
        return State(
            num_players=num_players, seed=seed, rounds=options["rounds"],
            tie_break=options["tie_break"], objectives=objectives, deck=remaining,
            hands=tuple(hands), pending=(None,) * num_players,
            reserves=((),) * num_players, discards=(), round=1, turn=0,
            totals=(0,) * num_players, history=(), forfeited=(), ended=None,
        )

    # ----------------------------------------------------------------- turns

    def actors(self, state: State) -> frozenset[Seat]:
        if state.ended is not None or state.turn >= TURNS_PER_ROUND:
            return frozenset()
        return frozenset(range(state.num_players))

    def must_act(self, state: State) -> frozenset[Seat]:
        """The seats the draft turn waits for: those without a pending placement."""
        return frozenset(seat for seat in self.actors(state) if state.pending[seat] is None)

    def parse_move(self, data: Any) -> Move:
        check_move(types.NimaliaMove, data)
        if isinstance(data, Mapping) and "undo" in data:
            require_mapping(data, {"undo"}, {"undo"})
            if data["undo"] is not True:
                raise MalformedMove("Field undo must be true.", field="undo")
            return Undo()
        fields = {"card", "row", "col", "rotation"}
        data = require_mapping(data, fields, fields)
        card, row, col, rotation = (_int(data, key) for key in ("card", "row", "col", "rotation"))
        if card not in CARDS:
            raise MalformedMove("Field card must be a card id from 1 to 60.", field="card")
        if rotation not in ROTATIONS:
            raise MalformedMove("Field rotation must be 0, 90, 180 or 270.", field="rotation")
        for key, value in (("row", row), ("col", col)):
            if abs(value) > COORDINATE_LIMIT:
                raise MalformedMove(f"Field {key} must be between -{COORDINATE_LIMIT} and "
                                    f"{COORDINATE_LIMIT}.", field=key)
        return Place(card=card, row=row, col=col, rotation=rotation)

    def dump_move(self, move: Move) -> JSON:
        if isinstance(move, Undo):
            return {"undo": True}
        return move.as_dict()

    def validate(self, state: State, seat: Seat, move: Move) -> None:
        if state.ended is not None:
            raise GameOver("The match is over.")
        if not isinstance(move, Place | Undo):
            raise MalformedMove("Not a Nimalia move.")
        if seat not in self.actors(state):
            raise NotYourTurn("It is not your turn.", seat=seat)
        pending = state.pending[seat]
        if isinstance(move, Undo):
            if pending is None:
                raise IllegalMove("You have no pending placement to take back.",
                                  rule="nimalia.nothing_to_undo")
            return
        if pending is not None:
            raise IllegalMove("You have already placed a card this turn; undo it first.",
                              rule="nimalia.already_placed")
        if move.card not in state.hands[seat]:
            raise IllegalMove("That card is not in your hand.", rule="nimalia.card_not_in_hand",
                              card=move.card)
        occupied = visible_squares(p.as_tuple() for p in state.reserves[seat])
        problem = placement_problem(occupied, move.row, move.col)
        if problem == "no_overlap":
            raise IllegalMove("A card must cover 1 to 4 squares of your reserve.",
                              rule="nimalia.no_overlap")
        if problem == "exceeds_6x6":
            raise IllegalMove("Your reserve must stay within 6 x 6 squares.",
                              rule="nimalia.exceeds_6x6")

    def legal_moves(self, state: State, seat: Seat) -> list[Move]:
        if seat not in self.actors(state):
            return []
        if state.pending[seat] is not None:
            return [Undo()]
        anchors = legal_anchors(visible_squares(p.as_tuple() for p in state.reserves[seat]))
        return [Place(card, row, col, rotation)
                for card in state.hands[seat]
                for rotation in ROTATIONS
                for row, col in anchors]

    def apply(self, state: State, seat: Seat, move: Move) -> Transition[State]:
        self.validate(state, seat, move)
        hands = list(state.hands)
        pending = list(state.pending)
        if isinstance(move, Undo):
            placed = pending[seat]
            assert placed is not None
            pending[seat] = None
            hands[seat] = tuple(sorted((*hands[seat], placed.card)))
            events: tuple[JSON, ...] = (
                {"type": "placement_withdrawn", "seat": seat},
                {"type": "placement_undone", "seat": seat, **placed.as_dict(),
                 "private_to": seat},
            )
            return Transition(dataclasses.replace(state, hands=tuple(hands),
                                                  pending=tuple(pending)), events)
        if not state.reserves[seat]:
            move = dataclasses.replace(move, row=0, col=0)  # the first card anchors the grid
        pending[seat] = move
        hands[seat] = tuple(card for card in hands[seat] if card != move.card)
        state = dataclasses.replace(state, hands=tuple(hands), pending=tuple(pending))
        events = ({"type": "card_placed", "seat": seat},
                  {"type": "placement_pending", "seat": seat, **move.as_dict(),
                   "private_to": seat})
        if any(p is None for p in pending):
            return Transition(state, events)
        revealed = self._reveal(state)
        return Transition(revealed.state, events + revealed.events)

    def _reveal(self, state: State) -> Transition[State]:
        """Every seat has placed: show all placements, then pass (or discard and deal)."""
        placements = [p for p in state.pending if p is not None]
        reserves = tuple((*reserve, placed)
                         for reserve, placed in zip(state.reserves, placements, strict=True))
        turn = state.turn + 1
        events: list[JSON] = [{
            "type": "placements_revealed", "round": state.round, "turn": turn,
            "placements": [{"seat": seat, **placed.as_dict()}
                           for seat, placed in enumerate(placements)],
        }]
        state = dataclasses.replace(state, reserves=reserves, pending=(None,) * state.num_players,
                                    turn=turn)
        if state.solo:
            discarded = state.hands[0]
            deck = state.deck
            hand: tuple[int, ...] = ()
            if turn < TURNS_PER_ROUND:
                hand, deck = _deal(deck, HAND_SIZE)
            events.append({"type": "cards_discarded", "seat": 0, "cards": list(discarded)})
            if hand:
                events.append(_hand_event(0, hand, "dealt"))
            state = dataclasses.replace(state, hands=(hand,), deck=deck,
                                        discards=state.discards + discarded)
        elif turn < TURNS_PER_ROUND:
            hands: list[tuple[int, ...]] = [()] * state.num_players
            for seat, hand in enumerate(state.hands):
                hands[_pass_target(state, seat)] = hand
            events.append({"type": "hands_passed", "direction": PASS_DIRECTION[state.round]})
            events.extend(_hand_event(seat, hand, "passed") for seat, hand in enumerate(hands))
            state = dataclasses.replace(state, hands=tuple(hands))
        if turn == TURNS_PER_ROUND:
            events.append({"type": "round_complete", "round": state.round})
        return Transition(state, tuple(events))

    # ----------------------------------------------------------------- system step

    def system_step(self, state: State) -> Transition[State] | None:
        if state.ended is not None or state.turn < TURNS_PER_ROUND:
            return None
        scored = round_objectives(state.objectives, state.round)
        raw, totals = score_round(scored, _grids(state), state.totals)
        record = RoundScore(round=state.round, objectives=scored,
                            points=tuple(tuple(points) for points in raw), totals=tuple(totals))
        state = dataclasses.replace(state, totals=tuple(totals),
                                    history=(*state.history, record))
        events: list[JSON] = [{
            "type": "round_scored", "round": record.round,
            "points": {str(seat): {str(oid): p for oid, p in zip(scored, points, strict=True)}
                       for seat, points in enumerate(raw)},
            "totals": list(totals),
        }]
        if state.round >= state.rounds:
            state = dataclasses.replace(state, ended=SOLO_FINISHED if state.solo else FINISHED)
            events.append(self._ended_event(state))
            return Transition(state, tuple(events))
        deck = state.deck
        hands = []
        for _ in range(state.num_players):
            hand, deck = _deal(deck, HAND_SIZE)
            hands.append(hand)
        state = dataclasses.replace(state, round=state.round + 1, turn=0, deck=deck,
                                    hands=tuple(hands))
        events.append({"type": "round_started", "round": state.round,
                       "pass_direction": None if state.solo else PASS_DIRECTION[state.round],
                       "objectives": list(round_objectives(state.objectives, state.round))})
        events.extend(_hand_event(seat, hand, "dealt") for seat, hand in enumerate(hands))
        return Transition(state, tuple(events))

    # ----------------------------------------------------------------- forfeits and the end

    def forfeit(self, state: State, seat: Seat) -> Transition[State]:
        if state.ended is not None:
            raise GameOver("The match is over.")
        if not 0 <= seat < state.num_players:
            raise NotYourTurn("No such seat.", seat=seat)
        if seat in state.forfeited:
            return Transition(state, ())
        forfeited = (*state.forfeited, seat)
        state = dataclasses.replace(state, forfeited=forfeited)
        events: list[JSON] = [{"type": "seat_forfeited", "seat": seat}]
        if state.num_players - len(forfeited) <= 1:
            state = dataclasses.replace(state, ended=FORFEIT)
            events.append(self._ended_event(state))
        return Transition(state, tuple(events))

    def outcome(self, state: State) -> Outcome | None:
        if state.ended is None:
            return None
        if state.solo:
            title = (solo_title(state.totals[0], state.rounds)
                     if state.ended == SOLO_FINISHED else None)
            return Outcome(ranks=(1,), scores=(state.totals[0],), reason=state.ended,
                           title=title)
        staying = [s for s in range(state.num_players) if s not in state.forfeited]
        if state.ended == FORFEIT:
            keys: dict[Seat, Any] = dict.fromkeys(staying, 0)
        else:
            tie_breaks = _tie_break_keys(state)
            keys = {s: (-state.totals[s], tie_breaks[s]) for s in staying}
        return Outcome(ranks=forfeit_ranks(state.num_players, keys, state.forfeited),
                       scores=tuple(state.totals), reason=state.ended)

    def _ended_event(self, state: State) -> JSON:
        outcome = self.outcome(state)
        assert outcome is not None
        return {"type": "match_ended", **outcome.as_dict()}

    # ----------------------------------------------------------------- hidden information

    def hidden_variant(self, state: State, seat: Seat | None, *, history: Sequence[JSON],
                       rng: random.Random) -> State:
        """Another deal and other pending placements that ``seat`` cannot tell apart.

        What a seat knows of the cards in play: the reserves and the solo discards (public),
        its own hand and pending placement, and the hands it passed on this round. After ``k``
        draft turns of a round, the hand a seat holds was dealt ``k`` seats back against the
        pass direction, so the seat has held (and knows the cards of) the hands now held by
        itself and the next ``k`` seats in the pass direction; each of those still holds what
        the seat passed, less the placements revealed since. Which of those cards another seat
        has placed face down, and where, it does not know. A spectator knows no hand.

        The variant deals the cards the seat has not seen (the undealt deck and the hands it
        never held) anew, keeping every hand's size, and redraws every other seat's pending
        placement (the same card count, a card of that seat's, a legal spot), and the seed.
        Everything is derived from ``state``: ``history`` adds nothing the state does not
        determine."""
        if state.ended is not None:
            return state
        n = state.num_players
        known: set[Seat] = set()
        if seat is not None:
            step = 1 if state.solo or PASS_DIRECTION[state.round] == LEFT else -1
            known = {(seat + j * step) % n for j in range(state.turn + 1)}

        def held(t: Seat) -> list[int]:
            placed = state.pending[t]
            return [*state.hands[t], *(() if placed is None else (placed.card,))]

        unknown = [t for t in range(n) if t not in known]
        pool = list(state.deck)
        for t in unknown:
            pool.extend(held(t))
        rng.shuffle(pool)
        contents: dict[Seat, list[int]] = {}
        for t in unknown:
            size = len(held(t))
            contents[t], pool = pool[:size], pool[size:]
        for t in known - {seat}:
            contents[t] = held(t)
        hands = list(state.hands)
        pending = list(state.pending)
        for t, cards in sorted(contents.items()):
            if state.pending[t] is None:
                hands[t] = tuple(sorted(cards))
                continue
            card = rng.choice(sorted(cards))
            row, col = rng.choice(legal_anchors(
                visible_squares(p.as_tuple() for p in state.reserves[t])))
            pending[t] = Place(card=card, row=row, col=col, rotation=rng.choice(ROTATIONS))
            hands[t] = tuple(sorted(c for c in cards if c != card))
        return dataclasses.replace(state, deck=tuple(pool), hands=tuple(hands),
                                   pending=tuple(pending), seed=hidden_seed(rng))

    def plans_apply(self, state: State, seat: Seat) -> bool:
        """Never: every seat drafts at once, hidden, so there is no other seat's move to
        reply to (see RULES.md, "Plans")."""
        return False

    def move_reveals(self, state: State, seat: Seat, move: Move) -> bool:
        """The placement that completes a draft turn reveals every seat's pending placement
        and passes (or deals) the hands: its dry run shows nothing. An undo, or a placement
        that others have still to match, shows only what the seat already knows."""
        return isinstance(move, Place) and all(
            placed is not None for t, placed in enumerate(state.pending) if t != seat)

    # ----------------------------------------------------------------- views

    def view(self, state: State, seat: Seat | None) -> JSON:
        over = state.ended is not None
        placing = not over and state.turn < TURNS_PER_ROUND
        view: JSON = {
            "game": self.slug,
            "players": state.num_players,
            "you": seat,
            "phase": "finished" if over else ("placing" if placing else "scoring"),
            "round": state.round,
            "rounds": state.rounds,
            "turn": min(state.turn + 1, TURNS_PER_ROUND),
            "turns_per_round": TURNS_PER_ROUND,
            "pass_direction": None if state.solo else PASS_DIRECTION[state.round],
            "objectives": [OBJECTIVES[i].as_dict() for i in state.objectives],
            "round_card": [
                {"round": n, "colours": list(ROUND_COLOURS[n]),
                 "objectives": list(round_objectives(state.objectives, n)),
                 "pass_direction": None if state.solo else PASS_DIRECTION[n]}
                for n in range(1, state.rounds + 1)],
            "options": {"rounds": state.rounds, "tie_break": state.tie_break},
            "placed": [p is not None for p in state.pending],
            "hand_sizes": [len(hand) + (p is not None)
                           for hand, p in zip(state.hands, state.pending, strict=True)],
            "deck_size": len(state.deck),
            "reserves": [self._reserve_view(reserve) for reserve in state.reserves],
            "scores": self._scores_view(state),
            "forfeited": list(state.forfeited),
            "actors": sorted(self.actors(state)),
            "waiting_for": sorted(self.must_act(state)),
        }
        if seat is not None and 0 <= seat < state.num_players:
            pending = state.pending[seat]
            view["hand"] = [_card_json(card) for card in state.hands[seat]]
            view["pending"] = ({**pending.as_dict(), "squares": _card_json(pending.card)["squares"]}
                               if pending is not None else None)
            if not state.solo:
                view["pass_to"] = _pass_target(state, seat)
            view["legal_moves"] = self._compact_moves(state, seat) if placing else None
        if state.solo:
            view["solo_titles"] = [
                {"min_total": t, "title": name}
                for t, name in zip(SOLO_THRESHOLDS[state.rounds], SOLO_TITLES, strict=True)]
        if over:
            outcome = self.outcome(state)
            assert outcome is not None
            view["outcome"] = outcome.as_dict()
            view["seed"] = state.seed
            view["deck"] = list(state.deck)
            view["discards"] = list(state.discards)
            view["hands"] = [list(hand) for hand in state.hands]
            view["placements"] = [[p.as_dict() for p in reserve] for reserve in state.reserves]
        return view

    def _compact_moves(self, state: State, seat: Seat) -> JSON:
        """Any hand card, any rotation, any anchor; or only the undo."""
        if state.pending[seat] is not None:
            return {"undo": True, "cards": [], "rotations": [], "anchors": []}
        anchors = legal_anchors(visible_squares(p.as_tuple() for p in state.reserves[seat]))
        return {"undo": False, "cards": list(state.hands[seat]), "rotations": list(ROTATIONS),
                "anchors": [[row, col] for row, col in anchors]}

    @staticmethod
    def _reserve_view(reserve: Sequence[Place]) -> JSON:
        cells = visible_cards(p.as_tuple() for p in reserve)
        squares = [{"row": r, "col": c, "animal": s.animal, "terrain": s.terrain,
                    "river": s.river or None, "card": card}
                   for (r, c), (s, card) in sorted(cells.items())]
        shown = sorted({card for _, card in cells.values()})
        box = None
        if cells:
            top, left, bottom, right = bounds(cells)
            box = {"top": top, "left": left, "bottom": bottom, "right": right}
        return {"squares": squares, "cards": shown, "cards_placed": len(reserve),
                "covered_squares": 4 * len(reserve) - len(cells), "bounds": box}

    @staticmethod
    def _scores_view(state: State) -> JSON:
        by_objective: list[dict[str, int]] = [{} for _ in range(state.num_players)]
        rounds = []
        for record in state.history:
            for seat, points in enumerate(record.points):
                for oid, p in zip(record.objectives, points, strict=True):
                    by_objective[seat][str(oid)] = by_objective[seat].get(str(oid), 0) + p
            rounds.append({
                "round": record.round, "objectives": list(record.objectives),
                "points": {str(seat): {str(oid): p for oid, p in zip(record.objectives, points,
                                                                     strict=True)}
                           for seat, points in enumerate(record.points)},
                "totals": list(record.totals)})
        return {"totals": list(state.totals), "rounds": rounds,
                "by_objective": {str(seat): sums for seat, sums in enumerate(by_objective)}}

    # ----------------------------------------------------------------- storage

    def dump(self, state: State) -> JSON:
        return {
            "num_players": state.num_players,
            "seed": state.seed,
            "rounds": state.rounds,
            "tie_break": state.tie_break,
            "objectives": list(state.objectives),
            "deck": list(state.deck),
            "hands": [list(hand) for hand in state.hands],
            "pending": [None if p is None else list(p.as_tuple()) for p in state.pending],
            "reserves": [[list(p.as_tuple()) for p in reserve] for reserve in state.reserves],
            "discards": list(state.discards),
            "round": state.round,
            "turn": state.turn,
            "totals": list(state.totals),
            "history": [{"round": r.round, "objectives": list(r.objectives),
                         "points": [list(points) for points in r.points],
                         "totals": list(r.totals)} for r in state.history],
            "forfeited": list(state.forfeited),
            "ended": state.ended,
        }

    def load(self, data: Mapping[str, Any]) -> State:
        return State(
            num_players=data["num_players"],
            seed=data["seed"],
            rounds=data["rounds"],
            tie_break=data["tie_break"],
            objectives=tuple(data["objectives"]),
            deck=tuple(data["deck"]),
            hands=tuple(tuple(hand) for hand in data["hands"]),
            pending=tuple(None if p is None else Place(*p) for p in data["pending"]),
            reserves=tuple(tuple(Place(*p) for p in reserve) for reserve in data["reserves"]),
            discards=tuple(data["discards"]),
            round=data["round"],
            turn=data["turn"],
            totals=tuple(data["totals"]),
            history=tuple(RoundScore(round=r["round"], objectives=tuple(r["objectives"]),
                                     points=tuple(tuple(points) for points in r["points"]),
                                     totals=tuple(r["totals"])) for r in data["history"]),
            forfeited=tuple(data["forfeited"]),
            ended=data["ended"],
        )


NIMALIA = NimaliaEngine()

__all__ = ["NIMALIA", "NimaliaEngine", "Place", "RoundScore", "State", "Undo",
           "solo_title"]
