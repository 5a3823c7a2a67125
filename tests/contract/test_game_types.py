"""Every game's JSON conforms to the types its package declares (``games.kit.jsontypes``):
each view of every seat and of a spectator, each event, each outcome and each legal move, at
every step of the golden playthroughs and of random matches between level-1 bots (race mode
too), and the moves the engines accept."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.catalog import game, games
from games.kit.jsontypes import GameTypes, problems
from games.kit.protocol import apply_checked, events_for
from tests.engines.playthroughs.replay import apply_step, files

# Every registered game that declares its types.
TYPED = sorted(slug for slug, spec in games().items() if spec.types is not None)


def _types(slug: str) -> GameTypes:
    types = game(slug).types
    assert types is not None
    return types


def _check(tp: Any, value: Any, what: str) -> None:
    found = problems(tp, value)
    assert not found, f"{what}: {found[:5]}\n{json.dumps(value)[:800]}"


def _check_position(slug: str, engine: Any, state: Any, players: int, what: str) -> None:
    types = _types(slug)
    for seat in [*range(players), None]:
        view = engine.view(state, seat)
        _check(types.view, view, f"{what}: view of {seat}")
        if view.get("legal_moves") is not None:
            _check(types.legal_moves, view["legal_moves"], f"{what}: legal moves of {seat}")
        if seat is not None:
            for move in list(engine.legal_moves(state, seat))[:50]:
                _check(types.move, engine.dump_move(move), f"{what}: a legal move of {seat}")
    outcome = engine.outcome(state)
    if outcome is not None:
        _check(types.outcome, outcome.as_dict(), f"{what}: outcome")


def _check_events(slug: str, events: Any, what: str) -> None:
    by_type = _types(slug).event_types()
    for event in events:
        assert event["type"] in by_type, f"{what}: undeclared event {event['type']}"
        _check(by_type[event["type"]], event, f"{what}: event {event['type']}")


@pytest.mark.parametrize("path", files(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_golden_playthroughs_conform(path):
    data = json.loads(path.read_text())
    slug = data["game"]
    if slug not in TYPED:
        pytest.skip("untyped game")
    engine = game(slug).engine
    state = engine.initial_state(num_players=data["players"], config=data["config"],
                                 seed=data["seed"])
    _check_position(slug, engine, state, data["players"], "start")
    for i, step in enumerate(data["steps"]):
        transition = apply_step(engine, state, step)
        state = transition.state
        _check_events(slug, transition.events, f"step {i}")
        if i % 3 == 0 or engine.outcome(state) is not None:
            _check_position(slug, engine, state, data["players"], f"step {i}")


@pytest.mark.parametrize("slug, players, config", [
    # Every typed game with its fewest players and its default options, then other variants.
    *((slug, game(slug).engine.min_players, {}) for slug in TYPED),
    ("nimble", 3, {"mode": "race"}),
    ("nimble", 4, {"ramp": False}),
    ("nimalia", 3, {"rounds": 4}),
])
@pytest.mark.parametrize("seed", ["a", "b"])
def test_random_bot_matches_conform(slug, players, config, seed):
    spec = game(slug)
    engine, rng = spec.engine, random.Random(seed)
    state = engine.initial_state(num_players=players, config=config, seed=f"types-{seed}")
    for step in range(2000):
        if engine.outcome(state) is not None:
            break
        due = engine.system_step(state)
        if due is None:
            seat = rng.choice(sorted(engine.must_act(state) or engine.actors(state)))
            move = spec.choose_move(1, engine.view(state, seat), seat, rng)
            _check(_types(slug).move, move, f"bot move at {step}")
            due = apply_checked(engine, state, seat, engine.parse_move(move))
        state = due.state
        for viewer in [*range(players), None]:
            _check_events(slug, events_for(due.events, viewer), f"step {step}")
        if step % 5 == 0:
            _check_position(slug, engine, state, players, f"step {step}")
    assert engine.outcome(state) is not None
    _check_position(slug, engine, state, players, "end")


@pytest.mark.parametrize("slug, bad", [
    ("nibble", {"take": [[0, "0"]]}),
    ("nibble", {"take": [[0, 0, 0]]}),
    ("nibble", {"take": [[0, 0]], "extra": 1}),
    ("nimble", {"action": "place"}),
    ("nimble", {"action": "place", "stack": 3}),
    ("nimble", {"action": "fly"}),
    ("nimalia", {"undo": False}),
    ("nimalia", {"card": 1, "row": 0, "col": 0, "rotation": 45}),
    ("nimalia", {"card": True, "row": 0, "col": 0, "rotation": 0}),
])
def test_the_types_refuse_what_the_engines_refuse(slug, bad):
    from games.kit.protocol import MalformedMove

    assert problems(_types(slug).move, bad)
    with pytest.raises(MalformedMove):
        game(slug).engine.parse_move(bad)
