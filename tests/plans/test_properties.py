"""Properties of plans over random playouts of every game that has them: a line of legal
replies always validates and plays out to the very moves played by hand; its keys show nothing
the planner was not shown; and in Nimble, whose Sets hide their order, whether a plan is
accepted does not depend on that order."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.kit.plans import (
    PlanError,
    Reply,
    dump_plan,
    parse_plan,
    plan_after,
    plan_checked,
)
from games.kit.protocol import AnyEngine, apply_checked, events_for
from games.nimble.engine import NIMBLE, NUM_SETS, SET_SIZE, card_face
from tests.plans.playouts import (
    CASES,
    IDS,
    SETTINGS,
    built_line,
    history_of,
    waiting_position,
)


@pytest.mark.parametrize(("engine", "config"), CASES, ids=IDS)
@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_a_line_played_by_hand_validates_and_plays_out_the_same(engine: AnyEngine,
                                                              config: dict, seed: int) -> None:
    rng = random.Random(seed)
    found = waiting_position(engine, players=2, config=config, seed=f"line-{seed}", rng=rng)
    if found is None:
        return
    state, log, planner = found
    data, steps = built_line(engine, state, planner, rng)
    plan = plan_checked(engine, state, planner, parse_plan(data), history=history_of(log, planner))
    assert dump_plan(plan) == data  # the keys and replies were already in the engine's form
    for step in steps:
        result = plan_after(engine, step.before, step.mover, step.move, step.transition,
                            planner, plan)
        assert isinstance(result, Reply)
        assert list(result.moves) == step.reply
        after = step.transition.state
        for move in result.moves:
            after = apply_checked(engine, after, planner, engine.parse_move(move)).state
        plan = result.then
    assert plan == ()


def _nested(value: Any) -> list[Any]:
    """A JSON value and every value nested in it."""
    inner = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return [value, *(found for item in inner for found in _nested(item))]


def _shown_in(key: Any, sources: list[Any]) -> bool:
    """Whether ``key`` is made of what ``sources`` show: every field of a key object is a field
    with the same value of some object in the sources; any other key is a value found there."""
    values = [found for source in sources for found in _nested(source)]
    if isinstance(key, dict):
        objects = [value for value in values if isinstance(value, dict)]
        return all(any(name in obj and obj[name] == item for obj in objects)
                   for name, item in key.items())
    return key in values


@pytest.mark.parametrize(("engine", "config"), CASES, ids=IDS)
@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_a_key_holds_only_what_the_planner_sees(engine: AnyEngine, config: dict,
                                                seed: int) -> None:
    rng = random.Random(seed)
    found = waiting_position(engine, players=2, config=config, seed=f"key-{seed}", rng=rng)
    if found is None:
        return
    state, _, planner = found
    _, steps = built_line(engine, state, planner, rng, siblings=False)
    for step in steps:
        key = engine.plan_key(step.before, step.mover, step.move, step.transition, planner)
        seen = [engine.dump_move(step.move), events_for(step.transition.events, planner)]
        assert _shown_in(key, seen), key
        assert json.loads(json.dumps(key)) == key


def _random_key(rng: random.Random, state: Any, other: int) -> Any:
    """A key the other seat may or may not be able to show: an action, or a flip naming a card
    of either Set (its own Set's cards most often), now and then something else."""
    roll = rng.random()
    if roll < 0.5:
        pile = state.sets[other] or (0,)
        card = rng.choice(pile) if rng.random() < 0.8 else rng.randrange(NUM_SETS * SET_SIZE)
        return {"action": "flip", "card": card_face(card)}
    if roll < 0.95:
        return rng.choice([{"action": "place", "stack": rng.randrange(3)},
                           {"action": "return"}, {"action": "recycle"},
                           {"action": "end_turn"}, {"action": "flip"}])
    return rng.choice([{"action": "flip", "card": None}, [], "flip", {"take": []}])


def _random_reply(rng: random.Random) -> list[Any]:
    actions = [{"action": "place", "stack": k} for k in range(3)] + [
        {"action": a} for a in ("flip", "return", "recycle", "end_turn")]
    return [rng.choice(actions) for _ in range(rng.choice((0, 0, 1, 1, 2, 3)))]


def _random_plan(rng: random.Random, state: Any, other: int, depth: int) -> list[Any]:
    return [{"on": _random_key(rng, state, other), "reply": _random_reply(rng),
             "then": _random_plan(rng, state, other, depth - 1) if depth and rng.random() < 0.6
             else []}
            for _ in range(rng.randint(1, 3))]


def _answer(state: Any, planner: int, history: list, data: Any) -> str:
    try:
        plan = plan_checked(NIMBLE, state, planner, parse_plan(data), history=history)
    except PlanError as error:
        return json.dumps({"code": error.code, "message": error.message, "extra": error.extra},
                          sort_keys=True)
    return json.dumps(dump_plan(plan), sort_keys=True)


@SETTINGS
@given(seed=st.integers(0, 2**32), budget=st.sampled_from([1, 3]))
def test_nimble_accepts_a_plan_whatever_the_hidden_order_of_the_sets(seed: int,
                                                                      budget: int) -> None:
    rng = random.Random(seed)
    found = waiting_position(NIMBLE, players=2, config={"budget": budget}, seed=f"h-{seed}",
                             rng=rng)
    if found is None:
        return
    state, log, planner = found
    history = history_of(log, planner)
    other = 1 - planner
    line, _ = built_line(NIMBLE, state, planner, rng)
    plans = [line, _random_plan(rng, state, other, 3), _random_plan(rng, state, other, 2)]
    variants = [NIMBLE.hidden_variant(state, planner, history=history, rng=random.Random(k))
                for k in range(2)]
    for data in plans:
        answer = _answer(state, planner, history, data)
        for variant in variants:
            assert _answer(variant, planner, history, data) == answer
    assert not _answer(state, planner, history, line).startswith("{")  # the line is accepted
