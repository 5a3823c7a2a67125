"""Plans made during the planner's own turn (openings): its own next moves first, then the
branches. Properties over random playouts of every game with plans: a line built by hand
validates, the planner's moves by hand prune it to exactly that line's branches, which then
play out as any plan; a move by hand that no opening starts with clears it; and whether such a
plan is accepted does not depend on what the planner cannot see. Then scenarios of the rules."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.kit.plans import (
    HandMove,
    Opening,
    PlanError,
    PlanIllegalReply,
    PlanMalformed,
    PlanNotWaiting,
    PlanNotYourTurn,
    PlanUnreachable,
    Reply,
    count_lines,
    dump_plan,
    is_opening,
    line_moves,
    parse_plan,
    plan_after,
    plan_checked,
)
from games.kit.protocol import AnyEngine, apply_checked, events_for
from games.nimble.engine import FLIP, NIMBLE
from tests.plans.playouts import (
    CASES,
    IDS,
    NIBBLE,
    SETTINGS,
    built_opening,
    history_of,
    playing_position,
)


def _opening_case(engine: AnyEngine, config: dict, seed: str, rng: random.Random,
                  siblings: bool = True):
    found = playing_position(engine, players=2, config=config, seed=seed, rng=rng)
    if found is None:
        return None
    state, log, planner = found
    built = built_opening(engine, state, planner, rng, siblings=siblings)
    if built is None:
        return None
    return state, history_of(log, planner), planner, built


def _checked_case(engine: AnyEngine, config: dict, seed: str):
    """A random position where a seat plays, openings built for it and checked: the state,
    the seat, the openings as JSON, the seat's moves and the line's steps, and the plan."""
    case = _opening_case(engine, config, seed, random.Random(seed))
    if case is None:
        return None
    state, history, planner, (data, mine, steps) = case
    plan = plan_checked(engine, state, planner, parse_plan(data), history=history)
    return state, planner, data, mine, steps, plan


def _by_hand(engine: AnyEngine, state: Any, planner: int, move: Any, plan: Any):
    """The planner's move by hand: what is left of the plan, and the position after it."""
    transition = apply_checked(engine, state, planner, move)
    step = plan_after(engine, state, planner, move, transition, planner, plan)
    assert isinstance(step, HandMove)
    return step.then, transition.state


@pytest.mark.parametrize(("engine", "config"), CASES, ids=IDS)
@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_an_opening_played_by_hand_becomes_its_branches_and_plays_out(
        engine: AnyEngine, config: dict, seed: int) -> None:
    case = _checked_case(engine, config, f"own-{seed}")
    if case is None:
        return
    state, planner, data, mine, steps, plan = case
    assert dump_plan(plan) == data and is_opening(plan)
    for move in mine:
        plan, state = _by_hand(engine, state, planner, move, plan)
    opening = next(node for node in data if node["mine"] == [engine.dump_move(m) for m in mine])
    assert dump_plan(plan) == opening["then"] and not is_opening(plan)
    for step in steps:
        result = plan_after(engine, step.before, step.mover, step.move, step.transition,
                            planner, plan)
        assert isinstance(result, Reply) and list(result.moves) == step.reply
        plan = result.then
    assert plan == ()


@pytest.mark.parametrize(("engine", "config"), CASES, ids=IDS)
@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_a_move_by_hand_no_opening_starts_with_clears_the_plan(
        engine: AnyEngine, config: dict, seed: int) -> None:
    case = _checked_case(engine, config, f"off-{seed}")
    if case is None:
        return
    state, planner, data, _, _, plan = case
    firsts = [node["mine"][0] for node in data]
    for move in engine.legal_moves(state, planner):
        left, _ = _by_hand(engine, state, planner, move, plan)
        played = engine.dump_move(move)
        if played not in firsts:
            assert left == ()
        else:
            assert count_lines(left) >= 1 or all(
                node["mine"] == [played] and not node["then"] for node in data
                if node["mine"][0] == played)


def _answer(state: Any, planner: int, history: list, data: Any) -> str:
    try:
        plan = plan_checked(NIMBLE, state, planner, parse_plan(data), history=history)
    except PlanError as error:
        return json.dumps({"code": error.code, "extra": error.extra}, sort_keys=True)
    return json.dumps(dump_plan(plan), sort_keys=True)


@SETTINGS
@given(seed=st.integers(0, 2**32), budget=st.sampled_from([1, 3]))
def test_nimble_accepts_an_opening_whatever_the_hidden_order_of_the_sets(seed: int,
                                                                        budget: int) -> None:
    rng = random.Random(seed)
    case = _opening_case(NIMBLE, {"budget": budget}, f"oh-{seed}", rng)
    if case is None:
        return
    state, history, planner, (data, _, _) = case
    flipped = [{"mine": [{"action": "flip"}], "then": []}, *data]
    variants = [NIMBLE.hidden_variant(state, planner, history=history, rng=random.Random(k))
                for k in range(3)]
    for plan in (data, flipped):
        answer = _answer(state, planner, history, plan)
        assert all(_answer(variant, planner, history, plan) == answer for variant in variants)
    assert not _answer(state, planner, history, data).startswith("{")


# --------------------------------------------------------------------------- scenarios


def _nibble_turn():
    """Seat 0 to play the first move of the board of seed "plans"; its legal moves."""
    state = NIBBLE.initial_state(num_players=2, config={"first_seat": 0}, seed="plans")
    return state, [NIBBLE.dump_move(m) for m in NIBBLE.legal_moves(state, 0)]


def _after(engine: AnyEngine, state: Any, seat: int, data: Any) -> Any:
    return apply_checked(engine, state, seat, engine.parse_move(data)).state


def test_the_root_is_branches_or_openings_and_each_has_its_turn() -> None:
    state, moves = _nibble_turn()
    mine = moves[0]
    after = _after(NIBBLE, state, 0, mine)
    key = NIBBLE.dump_move(NIBBLE.legal_moves(after, 1)[0])
    data = [{"mine": [mine], "then": [{"on": key}]}]
    plan = parse_plan(data)
    assert plan == (Opening((mine,), (parse_plan([{"on": key}])[0],)),)
    assert (count_lines(plan), line_moves(plan)) == (1, 2)
    assert dump_plan(plan_checked(NIBBLE, state, 0, plan, history=[])) == [
        {"mine": [mine], "then": [{"on": key, "reply": [], "then": []}]}]
    with pytest.raises(PlanNotYourTurn):
        plan_checked(NIBBLE, state, 1, parse_plan(data), history=[])
    with pytest.raises(PlanNotWaiting):
        plan_checked(NIBBLE, state, 0, parse_plan([{"on": key}]), history=[])
    for bad, path in (([{"mine": [mine]}, {"on": key}], [1]), ([{"mine": []}], [0, "mine"]),
                      ([{"mine": [mine], "then": [{"mine": [mine]}]}], [0, "then", 0]),
                      ([{"mine": mine}], [0, "mine"])):
        with pytest.raises(PlanMalformed) as refused:
            parse_plan(bad)
        assert refused.value.extra["path"] == path
    with pytest.raises(PlanMalformed) as refused:
        plan_checked(NIBBLE, state, 0, parse_plan([{"mine": [mine]}, {"mine": [mine]}]),
                     history=[])
    assert refused.value.extra["path"] == [1, "mine"]


def test_an_opening_is_checked_move_by_move_then_where_the_planner_waits() -> None:
    state, moves = _nibble_turn()
    with pytest.raises(PlanIllegalReply) as refused:
        plan_checked(NIBBLE, state, 0, parse_plan([{"mine": [moves[0], moves[1]]}]), history=[])
    assert refused.value.extra["path"] == [0, "mine", 1]
    assert refused.value.extra["cause"] == "not_your_turn"
    after = _after(NIBBLE, state, 0, moves[0])
    key = NIBBLE.dump_move(NIBBLE.legal_moves(after, 1)[0])
    with pytest.raises(PlanUnreachable) as refused:
        plan_checked(NIBBLE, state, 0, parse_plan(
            [{"mine": [moves[0]], "then": [{"on": key, "then": [{"on": key}]}]}]), history=[])
    assert refused.value.extra == {"path": [0, "then", 0, "then"], "reason": "planner_to_act"}


def test_a_nimble_opening_takes_no_flip_and_spans_a_turn_of_several_actions() -> None:
    state = NIMBLE.initial_state(num_players=2, config={"budget": 3}, seed="own-turn")
    seat = next(iter(NIMBLE.actors(state)))
    assert NIMBLE.dump_move(FLIP) == {"action": "flip"}
    with pytest.raises(PlanUnreachable) as refused:
        plan_checked(NIMBLE, state, seat, parse_plan([{"mine": [{"action": "flip"}]}]),
                     history=[])
    assert refused.value.extra == {"path": [0, "mine", 0], "reason": "revealed"}
    rng = random.Random(3)
    built = built_opening(NIMBLE, state, seat, rng, siblings=False)
    assert built is not None
    data, mine, _ = built
    plan = plan_checked(NIMBLE, state, seat, parse_plan(data), history=[])
    first = mine[0]
    transition = apply_checked(NIMBLE, state, seat, first)
    step = plan_after(NIMBLE, state, seat, first, transition, seat, plan)
    assert isinstance(step, HandMove)
    if len(mine) > 1:
        assert dump_plan(step.then) == [{"mine": data[0]["mine"][1:], "then": data[0]["then"]}]
    else:
        assert dump_plan(step.then) == data[0]["then"]
    assert events_for(transition.events, seat) is not None
