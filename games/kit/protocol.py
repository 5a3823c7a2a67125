"""The engine protocol every game implements, and the pieces engines share.

Engines are pure Python: they import nothing from Django, DRF or Celery. A game is one
stateless engine object; its state is an immutable value that round-trips through JSON
(``load(dump(s)) == s``). The platform talks to a game only through :class:`Engine`, which
names every method and attribute the platform uses; engines inherit :class:`EngineBase` for the
defaults of the hooks most games leave alone.

What an engine may return to a seat
-----------------------------------

A seat's *information set* is what it may know at a position: everything its views and the
events addressed to it (public ones and its own private ones) have shown since the match began.
Every answer the platform gives a seat (``None``: a spectator) must be a function of that
information set alone:

- ``view(state, seat)`` (with its legal moves), ``actors``, ``must_act``, ``is_realtime`` and
  ``outcome`` while the match runs;
- the coded error of any move the seat may send (message and ``extra`` included);
- the dry run of a move (:func:`preview`): its events filtered for the seat and the seat's next
  view, unless :meth:`Engine.move_reveals` declares that the move's result depends on something
  the seat does not know yet (the card a flip turns up, the other seats' hidden placements, a
  deal), in which case the dry run shows nothing of the result;
- the pictures drawn from the view, and the bots' choices made from it;
- whether a plan of replies is accepted (``games.kit.plans``), and the key by which a plan
  recognises another seat's move (:meth:`Engine.plan_key`).

The engine states what is hidden through :meth:`Engine.hidden_variant`: a state that differs
from the given one only in what the seat may not know (unseen card orders, other seats' hands
and pending choices, the seed) and agrees with everything it has been shown. The property
tests in ``tests/hidden`` build such variants for every registered game at random positions
and require every answer above to be byte-identical between the two states. A game without
hidden information needs neither hook: the defaults in :class:`EngineBase` change only the
seed, and no move reveals anything. Once the match is over, everything may be shown.

Plans
-----

A seat may plan its replies ahead (``games.kit.plans``): for each move the other seat may make,
as the planner will see it, the reply to play. Three hooks say how a game takes part:
:meth:`Engine.plans_apply` (whether a seat may hold a plan; the default is no),
:meth:`Engine.plan_key` (what the planner sees of another seat's move: the value a plan is
keyed by) and :meth:`Engine.plan_candidate` (a move showing a given key, in a state the planner
cannot tell from the real one, or ``None`` when the planner can already rule the key out).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

Seat = int
JSON = dict[str, Any]

# An engine's own state and move types. Each engine names its concrete ones
# (``Engine[NimbleState, NimbleMove]``); code that serves every game holds ``AnyEngine``.
StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")

# What code that serves every game holds of a state: a value it passes back to the engine it
# came from, without looking inside.
State = Any


# --------------------------------------------------------------------------- errors


class EngineError(Exception):
    """A coded error raised by an engine; ``code`` is stable and clients switch on it."""

    code = "engine_error"

    def __init__(self, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.extra: dict[str, Any] = extra


class MalformedMove(EngineError):
    """The move is not of the game's move syntax (wrong shape, types or fields)."""

    code = "malformed_move"


class NotYourTurn(EngineError):
    """The seat may not act now."""

    code = "not_your_turn"


class IllegalMove(EngineError):
    """The move is well formed but breaks a rule; ``rule`` names which one."""

    code = "illegal_move"

    def __init__(self, message: str, *, rule: str, **extra: Any) -> None:
        super().__init__(message, rule=rule, **extra)
        self.rule = rule


class GameOver(EngineError):
    """The match is over; nothing more can be played."""

    code = "game_over"


class InvalidConfig(EngineError):
    """The match options are not valid for this game and player count."""

    code = "invalid_config"


# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class Transition(Generic[StateT]):
    """The result of applying a move: the new state and the events it produced.

    Events are small JSON dicts with a ``type``. An event that only one seat may see carries
    ``"private_to": seat``; :func:`events_for` filters them for a viewer.
    """

    state: StateT
    events: tuple[JSON, ...] = ()


@dataclass(frozen=True)
class Outcome:
    """How a finished match ended.

    ``ranks[seat]`` is the seat's place, 1 being best; tied seats share a rank (standard
    competition ranking: 1, 1, 3). ``scores[seat]`` is the game's score for the seat, ``reason``
    a stable code such as ``"empty_board"`` or ``"deadlock"``, ``title`` the name a solo result
    earns (Nimalia's rank titles), if any. Every result field is here, so the match's stored
    outcome, the final view and the ``match_ended`` event all carry the same one
    (:meth:`as_dict`).
    """

    ranks: tuple[int, ...]
    scores: tuple[float, ...]
    reason: str
    title: str | None = None

    @property
    def winners(self) -> frozenset[Seat]:
        return frozenset(seat for seat, rank in enumerate(self.ranks) if rank == 1)

    def as_dict(self) -> JSON:
        return {
            "ranks": list(self.ranks),
            "scores": list(self.scores),
            "winners": sorted(self.winners),
            "reason": self.reason,
            **({} if self.title is None else {"title": self.title}),
        }


def ranks_from_keys(keys: Sequence[Any]) -> tuple[int, ...]:
    """Competition ranks for seats sorted by ``keys`` (lower key = better place).

    ``ranks_from_keys([3, 1, 1, 5]) == (3, 1, 1, 4)``.
    """
    return tuple(1 + sum(1 for other in keys if other < key) for key in keys)


# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class Option:
    """One match option of a game.

    ``kind`` is ``"int"``, ``"bool"``, ``"choice"`` (one of ``choices``) or ``"json"`` (free
    form, checked by the engine). A ``default`` of ``None`` means the engine derives it (for
    example from the number of players).
    """

    name: str
    kind: str
    default: Any
    description: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def as_dict(self) -> JSON:
        data: JSON = {"name": self.name, "type": self.kind, "default": self.default,
                      "description": self.description}
        if self.choices:
            data["choices"] = list(self.choices)
        if self.minimum is not None:
            data["minimum"] = self.minimum
        if self.maximum is not None:
            data["maximum"] = self.maximum
        return data


def normalize_options(options: Sequence[Option], config: Mapping[str, Any] | None) -> JSON:
    """Check ``config`` against ``options`` and fill in defaults.

    Raises :class:`InvalidConfig` for an unknown option or a value of the wrong kind. Checks that
    involve several options or the player count are the engine's.
    """
    if config is None:
        config = {}
    if not isinstance(config, Mapping):
        raise InvalidConfig("The options must be a JSON object.")
    known = {option.name: option for option in options}
    unknown = sorted(set(config) - set(known))
    if unknown:
        raise InvalidConfig(f"Unknown option: {unknown[0]}.", option=unknown[0],
                            known=sorted(known))
    result: JSON = {}
    for option in options:
        value = config.get(option.name, option.default)
        if value is None and option.default is not None:
            raise InvalidConfig(f"Option {option.name} may not be null.", option=option.name)
        if value is not None:
            value = _checked_option_value(option, value)
        result[option.name] = value
    return result


def _checked_option_value(option: Option, value: Any) -> Any:
    def bad(why: str) -> InvalidConfig:
        return InvalidConfig(f"Option {option.name}: {why}", option=option.name)

    if option.kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise bad("must be a whole number.")
        if option.minimum is not None and value < option.minimum:
            raise bad(f"must be at least {option.minimum}.")
        if option.maximum is not None and value > option.maximum:
            raise bad(f"must be at most {option.maximum}.")
        if option.choices and value not in option.choices:
            raise bad(f"must be one of {list(option.choices)}.")
    elif option.kind == "bool":
        if not isinstance(value, bool):
            raise bad("must be true or false.")
    elif option.kind == "choice":
        if isinstance(value, bool) or value not in option.choices:
            raise bad(f"must be one of {list(option.choices)}.")
    return value


# --------------------------------------------------------------------------- protocol


@runtime_checkable
class Engine(Protocol[StateT, MoveT]):
    """What the platform needs of a game. Seats are 0-based ints; engines never see users.

    The platform uses every member. ``private_moves`` and the hooks at the end
    (``system_step``, ``must_act``, ``is_realtime``, ``end_stalemate``, ``hidden_variant``,
    ``move_reveals``, ``plans_apply``, ``plan_key``, ``plan_candidate``) have defaults in
    :class:`EngineBase`, which every engine inherits.
    """

    slug: str
    name: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    # True when a move's payload must stay hidden from other seats while the match runs
    # (Nimalia's simultaneous placements); the reveal then comes as a public event.
    private_moves: bool

    def initial_state(self, *, num_players: int, config: Mapping[str, Any] | None,
                      seed: str) -> StateT: ...

    def actors(self, state: StateT) -> frozenset[Seat]:
        """The seats that may act now; empty when the match is over or a system step is due."""
        ...

    def parse_move(self, data: Any) -> MoveT:
        """The move a JSON payload describes; raises :class:`MalformedMove`."""
        ...

    def dump_move(self, move: MoveT) -> JSON: ...

    def validate(self, state: StateT, seat: Seat, move: MoveT) -> None:
        """Raise a coded :class:`EngineError` when ``seat`` may not play ``move`` now."""
        ...

    def apply(self, state: StateT, seat: Seat, move: MoveT) -> Transition[StateT]:
        """Play a move (checked first: use :func:`apply_checked`); never mutates ``state``."""
        ...

    def legal_moves(self, state: StateT, seat: Seat) -> Sequence[MoveT]: ...

    def forfeit(self, state: StateT, seat: Seat) -> Transition[StateT]: ...

    def view(self, state: StateT, seat: Seat | None) -> JSON:
        """What ``seat`` (``None``: a spectator) may see, JSON-ready."""
        ...

    def outcome(self, state: StateT) -> Outcome | None: ...

    def dump(self, state: StateT) -> JSON: ...

    def load(self, data: Mapping[str, Any]) -> StateT: ...

    # ------------------------------------------------------------------ hooks with defaults

    def system_step(self, state: StateT) -> Transition[StateT] | None:
        """The automatic work due now (Nimalia scores a round and deals the next), or None.
        Due exactly when the match runs and nobody may act."""
        ...

    def must_act(self, state: StateT) -> frozenset[Seat]:
        """The actors the match waits for: turns, deadlines and bot turns follow these. A
        subset of :meth:`actors`, smaller when some actors may act without having to (a
        Nimalia seat that has placed may still take its card back)."""
        ...

    def is_realtime(self, state: StateT) -> bool:
        """Whether every seat may act at any moment (a Nimble race): bots then act on their
        own clock instead of taking turns, and an idle match ends by :meth:`end_stalemate`."""
        ...

    def end_stalemate(self, state: StateT) -> Transition[StateT]:
        """End a real-time match nobody has touched for a while (the server's stall guard).
        Called only while :meth:`is_realtime` holds."""
        ...

    def hidden_variant(self, state: StateT, seat: Seat | None, *, history: Sequence[JSON],
                       rng: random.Random) -> StateT:
        """Another state that ``seat`` (``None``: a spectator) cannot tell from ``state``.

        It differs only in what the seat may not know, redrawn at random from ``rng`` (the
        seed; the order of cards never shown; other seats' hands, pending choices and the
        undealt deck, among the cards the seat has not seen), and agrees with everything the
        seat has been shown: its view now and ``history``, the events it was shown since the
        match began (``events_for`` over the whole log), in order. Every answer listed in the
        module notes must be the same for both states. A finished match hides nothing, so its
        variant is the state itself."""
        ...

    def move_reveals(self, state: StateT, seat: Seat, move: MoveT) -> bool:
        """Whether playing ``move`` (a legal move of ``seat``) would show the seat something
        its information set does not determine: then a dry run answers only that the move is
        legal. Decided from what the seat knows, so the answer itself reveals nothing."""
        ...

    def plans_apply(self, state: StateT, seat: Seat) -> bool:
        """Whether ``seat`` may hold a plan of replies in this match (``games.kit.plans``).
        Decided from public facts (the mode, the number of players); never true for a match
        that runs in real time (:func:`games.kit.plans.plans_allowed` also checks that)."""
        ...

    def plan_key(self, state: StateT, mover: Seat, move: MoveT, transition: Transition[StateT],
                 viewer: Seat) -> Any:
        """What ``viewer`` sees of ``mover``'s ``move``, played in ``state`` with the result
        ``transition``: a JSON value, the key a plan recognises the move by. It holds nothing
        the viewer cannot see: the move as its move log shows it, and what the events the
        viewer is shown (``events_for(transition.events, viewer)``) tell of it."""
        ...

    def plan_candidate(self, state: StateT, mover: Seat, key: Any, viewer: Seat, *,
                       history: Sequence[JSON]) -> tuple[MoveT, StateT] | None:
        """A move of ``mover`` that ``viewer`` would see as ``key``, and a state ``viewer``
        cannot tell from ``state`` (given ``history``, the events it was shown) in which that
        move, applied, shows exactly ``key``; ``None`` when the viewer can already rule the
        key out (not a legal move of ``mover`` now, a card that cannot be turned up). The
        answer depends only on what the viewer knows, never on the hidden part of ``state``,
        so that accepting or refusing a plan reveals nothing."""
        ...


AnyEngine = Engine[Any, Any]


class EngineBase(Engine[StateT, MoveT]):
    """The defaults of :class:`Engine`'s hooks, for engines to inherit: no secret moves, no
    system steps, every actor must act, no real-time play (so no stalemate to end), no
    hidden information but the seed (so no move reveals anything), and no plans (with keys
    that are the moves themselves, should a game of public moves opt in)."""

    private_moves: bool = False

    def system_step(self, state: StateT) -> Transition[StateT] | None:
        return None

    def must_act(self, state: StateT) -> frozenset[Seat]:
        return self.actors(state)

    def is_realtime(self, state: StateT) -> bool:
        return False

    def end_stalemate(self, state: StateT) -> Transition[StateT]:
        # Reaching this is a bug in the caller: a match that never runs in real time has no
        # idle stall guard, and no outcome could be invented for it here.
        raise NotImplementedError(
            f"{self.slug} matches never run in real time, so none ends as an idle stalemate.")

    def hidden_variant(self, state: StateT, seat: Seat | None, *, history: Sequence[JSON],
                       rng: random.Random) -> StateT:
        """A game of perfect information hides only its seed, stored as ``dump()["seed"]``:
        the variant is the same position with another seed."""
        if self.outcome(state) is not None:
            return state
        data = self.dump(state)
        if "seed" not in data:
            return state
        return self.load({**data, "seed": hidden_seed(rng)})

    def move_reveals(self, state: StateT, seat: Seat, move: MoveT) -> bool:
        return False

    def plans_apply(self, state: StateT, seat: Seat) -> bool:
        """No plans unless the game says so."""
        return False

    def plan_key(self, state: StateT, mover: Seat, move: MoveT, transition: Transition[StateT],
                 viewer: Seat) -> Any:
        """The move as dumped when moves are public; with ``private_moves``, only the events
        the viewer is shown."""
        if self.private_moves:
            return events_for(transition.events, viewer)
        return self.dump_move(move)

    def plan_candidate(self, state: StateT, mover: Seat, key: Any, viewer: Seat, *,
                       history: Sequence[JSON]) -> tuple[MoveT, StateT] | None:
        """For public moves, the key is the move itself: the move it parses to when that is a
        legal move of ``mover`` in ``state`` (legality depends on public facts only in a game
        whose moves are public and reveal nothing). Private moves give no candidate."""
        if self.private_moves:
            return None
        if self.outcome(state) is not None or mover not in self.actors(state):
            return None
        try:
            move = self.parse_move(key)
            self.validate(state, mover, move)
        except EngineError:
            return None
        return move, state


# --------------------------------------------------------------------------- helpers


def apply_checked(engine: Engine[StateT, MoveT], state: StateT, seat: Seat,
                  move: MoveT) -> Transition[StateT]:
    """The one checked entry point: game over, then turn, then the game's own rules."""
    if engine.outcome(state) is not None:
        raise GameOver("The match is over.")
    if seat not in engine.actors(state):
        raise NotYourTurn("It is not your turn.", seat=seat)
    engine.validate(state, seat, move)
    return engine.apply(state, seat, move)


def seats_to_act(engine: Engine[StateT, Any], state: StateT) -> frozenset[Seat]:
    """The seats the match waits for: ``engine.must_act(state)``."""
    return engine.must_act(state)


def is_realtime(engine: Engine[StateT, Any], state: StateT) -> bool:
    """Whether the match runs in real time now: ``engine.is_realtime(state)``."""
    return engine.is_realtime(state)


def preview(engine: Engine[StateT, MoveT], state: StateT, seat: Seat, data: Any) -> JSON:
    """A dry run of the move ``data`` (JSON) for ``seat``: the coded error that forbids it, or
    what the seat may learn from it before playing it.

    ``reveals_hidden`` is the engine's :meth:`Engine.move_reveals`; when it holds, the answer
    shows nothing of the result (no events, no view). Otherwise it carries the move's events as
    the seat would see them and the seat's next view without its legal moves (``None`` when the
    move would end the match: a final view shows what only the real end may reveal, and the
    events carry the result)."""
    move = engine.parse_move(data)
    transition = apply_checked(engine, state, seat, move)
    if engine.move_reveals(state, seat, move):
        return {"legal": True, "reveals_hidden": True, "events": [], "view": None}
    view = None
    if engine.outcome(transition.state) is None:
        view = engine.view(transition.state, seat)
        view.pop("legal_moves", None)
    return {"legal": True, "reveals_hidden": False,
            "events": events_for(transition.events, seat), "view": view}


def hidden_seed(rng: random.Random) -> str:
    """A fresh seed for a hidden variant, in the form the server draws match seeds."""
    return f"{rng.getrandbits(128):032x}"


def seeded_rng(seed: str, *parts: object) -> random.Random:
    """A generator derived from the match seed and a step label; stable across processes."""
    return random.Random(":".join([seed, *map(str, parts)]))


def events_for(events: Sequence[JSON], seat: Seat | None) -> list[JSON]:
    """The events a viewer may see: public ones, and private ones addressed to that seat."""
    return [event for event in events
            if "private_to" not in event or event["private_to"] == seat]


def require_mapping(data: Any, allowed: set[str], required: set[str]) -> Mapping[str, Any]:
    """Common move-syntax check: a JSON object with exactly the allowed keys."""
    if not isinstance(data, Mapping):
        raise MalformedMove("A move must be a JSON object.")
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise MalformedMove(f"Unknown field in move: {unknown[0]}.", field=unknown[0])
    missing = sorted(required - set(data))
    if missing:
        raise MalformedMove(f"Missing field in move: {missing[0]}.", field=missing[0])
    return data


def forfeit_ranks(num_players: int, active_keys: Mapping[Seat, Any],
                  forfeited: Sequence[Seat]) -> tuple[int, ...]:
    """Ranks where seats still in play rank by ``active_keys`` (lower = better) and forfeited
    seats rank below all of them, the first to leave last."""
    ranks = [0] * num_players
    active = list(active_keys)
    for seat, rank in zip(active, ranks_from_keys([active_keys[s] for s in active]), strict=True):
        ranks[seat] = rank
    place = len(active) + 1
    for seat in reversed(list(forfeited)):
        ranks[seat] = place
        place += 1
    return tuple(ranks)
