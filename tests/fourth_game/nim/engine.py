"""Nim: the rules engine.

Two or three players share a row of heaps of objects. In turn, each takes one or more objects
from a single heap, at most ``max_take`` when that option is set. Whoever takes the last object
wins (normal play); the others share second place. A seat that leaves (forfeits) is skipped
from then on and ranks below everyone who stayed; when one seat is left, it wins.

The state is a frozen dataclass that round-trips through JSON; the only random choice, the
first seat when the options leave it open, comes from the match seed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

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
    normalize_options,
    require_mapping,
    seeded_rng,
)

MAX_HEAPS = 6
MAX_HEAP = 15
DEFAULT_HEAPS = (3, 4, 5)

REASONS = ("last_object", "forfeit")


@dataclass(frozen=True)
class Take:
    """One turn: ``count`` objects from heap number ``heap`` (0-based)."""

    heap: int
    count: int


@dataclass(frozen=True)
class State:
    """A Nim position.

    ``start``: the heaps as dealt; ``heaps``: what is left of them. ``taken[seat]``: objects
    that seat has taken. ``left``: seats that forfeited, in the order they left. ``winner`` and
    ``reason`` are set once the match is over.
    """

    seed: str
    num_players: int
    start: tuple[int, ...]
    heaps: tuple[int, ...]
    max_take: int | None
    first_seat: int
    to_move: int
    taken: tuple[int, ...]
    turn: int = 0
    left: tuple[int, ...] = ()
    winner: int | None = None
    reason: str | None = None


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def most_from(state: State, heap: int) -> int:
    """The most objects one turn may take from ``heap`` now."""
    size = state.heaps[heap]
    return size if state.max_take is None else min(size, state.max_take)


class NimEngine(EngineBase[State, Take]):
    """The Nim rules (see the module docstring). Stateless: one instance serves every match."""

    slug = "nim"
    name = "Nim"
    min_players = 2
    max_players = 3
    private_moves = False
    options: tuple[Option, ...] = (
        Option("heaps", "json", DEFAULT_HEAPS,
               f"The heaps at the start: a list of 1 to {MAX_HEAPS} heap sizes, each from 1 to "
               f"{MAX_HEAP}."),
        Option("max_take", "int", None,
               "The most objects one turn may take. Default: no limit but the heap's size.",
               minimum=1, maximum=MAX_HEAP),
        Option("first_seat", "int", None,
               "The seat that moves first. Default: random from the match seed.",
               minimum=0, maximum=2),
    )

    # ----------------------------------------------------------------- setup

    def initial_state(self, *, num_players: int, config: Mapping[str, Any] | None,
                      seed: str) -> State:
        if not self.min_players <= num_players <= self.max_players:
            raise InvalidConfig("Nim is played by 2 or 3 players.", num_players=num_players)
        if not isinstance(seed, str):
            raise TypeError("the match seed must be a string")
        if isinstance(config, Mapping):
            # An explicit null asks for an option's default.
            known = {option.name for option in self.options}
            config = {k: v for k, v in config.items() if v is not None or k not in known}
        options = normalize_options(self.options, config)
        heaps = _checked_heaps(options["heaps"])
        first = options["first_seat"]
        if first is None:
            first = seeded_rng(seed, "first_seat").randrange(num_players)
        elif first >= num_players:
            raise InvalidConfig(f"Option first_seat: must be below {num_players}.",
                                option="first_seat")
        return State(seed=seed, num_players=num_players, start=heaps, heaps=heaps,
                     max_take=options["max_take"], first_seat=first, to_move=first,
                     taken=(0,) * num_players)

    # ----------------------------------------------------------------- turns

    def actors(self, state: State) -> frozenset[Seat]:
        if state.reason is not None:
            return frozenset()
        return frozenset((state.to_move,))

    def must_act(self, state: State) -> frozenset[Seat]:
        """Every actor must act: Nim has no optional actions."""
        return self.actors(state)

    def is_realtime(self, state: State) -> bool:
        """Nim is played in turns, never in real time."""
        return False

    def plans_apply(self, state: State, seat: Seat) -> bool:
        """Two players may plan their replies (keyed by the takes themselves); with three there
        is no single other seat to reply to."""
        return state.num_players == 2 and seat in (0, 1)

    def parse_move(self, data: Any) -> Take:
        data = require_mapping(data, {"heap", "count"}, {"heap", "count"})
        for field in ("heap", "count"):
            if not _whole(data[field]):
                raise MalformedMove(f"Field {field} must be a whole number.", field=field)
        return Take(heap=data["heap"], count=data["count"])

    def dump_move(self, move: Take) -> JSON:
        return {"heap": move.heap, "count": move.count}

    def validate(self, state: State, seat: Seat, move: Take) -> None:
        if state.reason is not None:
            raise GameOver("The match is over.")
        if seat != state.to_move:
            raise NotYourTurn("It is not your turn.", seat=seat)
        if not isinstance(move, Take):
            raise MalformedMove("Not a Nim move.")
        if not 0 <= move.heap < len(state.heaps):
            raise IllegalMove("There is no such heap.", rule="nim.no_such_heap",
                              heap=move.heap)
        if move.count < 1:
            raise IllegalMove("Take at least one object.", rule="nim.take_at_least_one")
        if move.count > state.heaps[move.heap]:
            raise IllegalMove("The heap does not hold that many objects.",
                              rule="nim.not_enough", heap=move.heap,
                              holds=state.heaps[move.heap])
        if state.max_take is not None and move.count > state.max_take:
            raise IllegalMove(f"Take at most {state.max_take} objects.", rule="nim.too_many",
                              max_take=state.max_take)

    def apply(self, state: State, seat: Seat, move: Take) -> Transition[State]:
        """Play a validated move (call :meth:`validate` first, or use ``apply_checked``)."""
        heaps = list(state.heaps)
        heaps[move.heap] -= move.count
        taken = list(state.taken)
        taken[seat] += move.count
        after = replace(state, heaps=tuple(heaps), taken=tuple(taken), turn=state.turn + 1,
                        to_move=_next_seat(state, seat))
        events: list[JSON] = [{"type": "objects_taken", "seat": seat, "heap": move.heap,
                               "count": move.count}]
        if not any(heaps):
            after = replace(after, to_move=seat, winner=seat, reason="last_object")
            events.append(self._ended_event(after))
        return Transition(after, tuple(events))

    def legal_moves(self, state: State, seat: Seat) -> list[Take]:
        """Every legal take for ``seat``, by heap then count; empty for a seat that may not
        move."""
        if state.reason is not None or seat != state.to_move:
            return []
        return [Take(heap, count) for heap in range(len(state.heaps))
                for count in range(1, most_from(state, heap) + 1)]

    def system_step(self, state: State) -> Transition[State] | None:
        return None

    def forfeit(self, state: State, seat: Seat) -> Transition[State]:
        if state.reason is not None:
            raise GameOver("The match is over.")
        if not _whole(seat) or not 0 <= seat < state.num_players or seat in state.left:
            raise NotYourTurn("That seat is not in play.", seat=seat)
        left = (*state.left, seat)
        after = replace(state, left=left)
        if seat == state.to_move:
            after = replace(after, to_move=_next_seat(after, seat))
        events: list[JSON] = [{"type": "forfeited", "seat": seat}]
        staying = _in_play(after)
        if len(staying) == 1:
            after = replace(after, to_move=staying[0], winner=staying[0], reason="forfeit")
            events.append(self._ended_event(after))
        return Transition(after, tuple(events))

    def end_stalemate(self, state: State) -> Transition[State]:
        """Nim is never played in real time, so the server's idle stall guard never ends a Nim
        match: being asked to is a bug in the caller, and no result is invented for it."""
        raise NotImplementedError("Nim matches never run in real time, so none ends as an "
                                  "idle stalemate.")

    # ----------------------------------------------------------------- results and views

    def outcome(self, state: State) -> Outcome | None:
        if state.reason is None:
            return None
        keys = {seat: 0 if seat == state.winner else 1 for seat in _in_play(state)}
        ranks = forfeit_ranks(state.num_players, keys, state.left)
        return Outcome(ranks=ranks, scores=tuple(float(n) for n in state.taken),
                       reason=state.reason)

    def view(self, state: State, seat: Seat | None) -> JSON:
        data: JSON = {
            "heaps": list(state.heaps),
            "start": list(state.start),
            "max_take": state.max_take,
            "taken": list(state.taken),
            "left": list(state.left),
            "objects_left": sum(state.heaps),
            "turn": state.turn,
            "first_seat": state.first_seat,
            "to_move": sorted(self.actors(state)),
            "you": seat,
        }
        if state.reason is None:
            if seat == state.to_move:
                # The compact form: from heap i a turn takes 1 to most[i] objects (none at 0).
                data["legal_moves"] = {"most": [most_from(state, heap)
                                                for heap in range(len(state.heaps))]}
        else:
            outcome = self.outcome(state)
            assert outcome is not None
            data["outcome"] = outcome.as_dict()
            data["seed"] = state.seed
        return data

    def _ended_event(self, state: State) -> JSON:
        outcome = self.outcome(state)
        assert outcome is not None
        return {"type": "match_ended", **outcome.as_dict()}

    # ----------------------------------------------------------------- storage

    def dump(self, state: State) -> JSON:
        return {
            "seed": state.seed,
            "num_players": state.num_players,
            "start": list(state.start),
            "heaps": list(state.heaps),
            "max_take": state.max_take,
            "first_seat": state.first_seat,
            "to_move": state.to_move,
            "taken": list(state.taken),
            "turn": state.turn,
            "left": list(state.left),
            "winner": state.winner,
            "reason": state.reason,
        }

    def load(self, data: Mapping[str, Any]) -> State:
        try:
            state = State(
                seed=str(data["seed"]),
                num_players=int(data["num_players"]),
                start=tuple(int(n) for n in data["start"]),
                heaps=tuple(int(n) for n in data["heaps"]),
                max_take=None if data["max_take"] is None else int(data["max_take"]),
                first_seat=int(data["first_seat"]),
                to_move=int(data["to_move"]),
                taken=tuple(int(n) for n in data["taken"]),
                turn=int(data["turn"]),
                left=tuple(int(n) for n in data["left"]),
                winner=None if data["winner"] is None else int(data["winner"]),
                reason=None if data["reason"] is None else str(data["reason"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a stored Nim state: {exc}") from exc
        _check_state(state)
        return state


def _in_play(state: State) -> list[int]:
    return [seat for seat in range(state.num_players) if seat not in state.left]


def _next_seat(state: State, seat: int) -> int:
    """The seat after ``seat`` in turn order that is still in play (``seat`` itself if none)."""
    for step in range(1, state.num_players + 1):
        other = (seat + step) % state.num_players
        if other not in state.left:
            return other
    return seat


def _checked_heaps(value: Any) -> tuple[int, ...]:
    if (not isinstance(value, list | tuple) or not 1 <= len(value) <= MAX_HEAPS
            or not all(_whole(n) and 1 <= n <= MAX_HEAP for n in value)):
        raise InvalidConfig(f"Option heaps: must list 1 to {MAX_HEAPS} heap sizes, each from 1 "
                            f"to {MAX_HEAP}.", option="heaps")
    return tuple(value)


def _check_state(state: State) -> None:
    """Refuse a stored state that breaks the game's bookkeeping."""
    problems = []
    n = state.num_players
    if not 2 <= n <= 3 or len(state.taken) != n:
        problems.append("2 or 3 seats, each with its count of objects taken")
    if (len(state.heaps) != len(state.start)
            or any(not 0 <= h <= s for h, s in zip(state.heaps, state.start, strict=False))
            or min(state.taken, default=0) < 0
            or sum(state.start) - sum(state.heaps) != sum(state.taken)):
        problems.append("every object taken is counted once")
    seats: Sequence[int] = (state.first_seat, state.to_move, *state.left)
    if any(not 0 <= s < n for s in seats) or len(set(state.left)) != len(state.left):
        problems.append("seats are numbered from 0")
    if state.reason is None:
        ended_right = state.winner is None
    else:
        ended_right = state.reason in REASONS and state.winner in range(n)
    if not ended_right:
        problems.append("winner and reason go together")
    if problems:
        raise ValueError("not a valid Nim state: " + "; ".join(problems))


NIM = NimEngine()
