"""Random reachable positions of any registered game, each with the whole event log, and every
answer a seat can get from the engine at a position, as one JSON text to compare byte for byte.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from games.kit.protocol import JSON, AnyEngine, EngineError, Seat, events_for, preview
from games.kit.registry import GameSpec

PREVIEW_CAP = 10  # legal moves previewed per seat and position
ODD_MOVES_CAP = 8  # moves from elsewhere in the match (mostly illegal here) per seat


@dataclass(frozen=True)
class Position:
    """A reachable state, the events that led to it (all of them, unfiltered) and moves seen
    elsewhere in the same match (legal at other times or for other seats)."""

    state: Any
    events: tuple[JSON, ...]
    odd_moves: tuple[JSON, ...]

    def history(self, seat: Seat | None) -> list[JSON]:
        """What ``seat`` was shown: ``events_for`` over the whole log."""
        return events_for(self.events, seat)


def configs(engine: AnyEngine) -> list[dict[str, Any]]:
    """The default options, then each other value of every choice option on its own."""
    found: list[dict[str, Any]] = [{}]
    for option in engine.options:
        if option.kind == "choice":
            found.extend({option.name: value} for value in option.choices
                         if value != option.default)
    return found


def positions(engine: AnyEngine, *, players: int, config: dict[str, Any], seed: str,
              count: int, max_steps: int = 400) -> Iterator[Position]:
    """About ``count`` positions of one random playout (random actor, random legal move,
    system steps when due, now and then a forfeit), taken at random steps."""
    rng = random.Random(f"positions:{seed}")
    state = engine.initial_state(num_players=players, config=config, seed=seed)
    events: list[JSON] = []
    odd: list[JSON] = [{"nonsense": True}, {}, []]
    length = rng.randint(count, max_steps)
    take = set(rng.sample(range(length), count))
    for step in range(length):
        if engine.outcome(state) is not None:
            break
        if step in take:
            yield Position(state, tuple(events), tuple(odd[-40:]))
        actors = sorted(engine.actors(state))
        if not actors:
            transition = engine.system_step(state)
            assert transition is not None, "nobody may act and no system step is due"
        elif players > 2 and rng.random() < 0.01:
            transition = engine.forfeit(state, rng.choice(actors))
        else:
            seat = rng.choice(actors)
            moves = engine.legal_moves(state, seat)
            move = rng.choice(list(moves))
            data = engine.dump_move(move)
            if len(odd) < 200 or rng.random() < 0.2:
                odd.append(data)
            transition = engine.apply(state, seat, engine.parse_move(data))
        state = transition.state
        events.extend(transition.events)
    if engine.outcome(state) is not None:
        yield Position(state, tuple(events), tuple(odd[-40:]))


def _answer(engine: AnyEngine, state: Any, seat: Seat, data: Any) -> JSON:
    try:
        return {"preview": preview(engine, state, seat, data)}
    except EngineError as error:
        return {"error": {"code": error.code, "message": error.message, "extra": error.extra}}


def answers(spec: GameSpec, state: Any, seat: Seat | None, odd_moves: Sequence[JSON], *,
            picture: bool = True) -> str:
    """Everything ``seat`` (``None``: a spectator) can get from the engine at ``state``, as one
    JSON text: the view with its legal moves, who may and must act, the outcome, the dry run
    of (up to a cap of) every legal move, the answers to moves from elsewhere in the match, and
    the picture of the view."""
    engine = spec.engine
    view = engine.view(state, seat)
    found: JSON = {
        "view": view,
        "actors": sorted(engine.actors(state)),
        "must_act": sorted(engine.must_act(state)),
        "realtime": engine.is_realtime(state),
        "outcome": None if (o := engine.outcome(state)) is None else o.as_dict(),
    }
    if seat is not None:
        legal = [engine.dump_move(m) for m in engine.legal_moves(state, seat)]
        found["legal_moves"] = legal
        # The sample depends on the legal moves alone, which must agree anyway.
        picker = random.Random(json.dumps(legal, sort_keys=True))
        tried = legal if len(legal) <= PREVIEW_CAP else picker.sample(legal, PREVIEW_CAP)
        found["previews"] = [_answer(engine, state, seat, data) for data in tried]
        odd = list(odd_moves)
        tried = odd if len(odd) <= ODD_MOVES_CAP else picker.sample(odd, ODD_MOVES_CAP)
        found["odd_moves"] = [_answer(engine, state, seat, data) for data in tried]
    if picture:
        drawn = dict(view)
        drawn.pop("legal_moves", None)
        found["picture"] = spec.render(drawn, None)
    return json.dumps(found, default=str)


def variants(spec: GameSpec, position: Position, seat: Seat | None, count: int,
             label: str) -> list[Any]:
    """``count`` hidden variants of the position for ``seat``, each checked to be a state the
    engine can store and load."""
    engine = spec.engine
    found = []
    for k in range(count):
        rng = random.Random(f"variant:{label}:{seat}:{k}")
        variant = engine.hidden_variant(position.state, seat,
                                        history=position.history(seat), rng=rng)
        assert engine.load(json.loads(json.dumps(engine.dump(variant)))) == variant
        found.append(variant)
    return found
