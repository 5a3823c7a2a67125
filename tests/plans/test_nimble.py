"""Plans in Nimble: two players in turns only, keyed by what the planner sees of each action
(a flip with the card it showed), checked without the hidden order of the Sets."""

from __future__ import annotations

import pytest

from games.kit.plans import (
    NotCovered,
    PlanIllegalKey,
    PlanIllegalReply,
    PlansUnavailable,
    PlanUnreachable,
    Reply,
    parse_plan,
    plan_after,
    plan_checked,
    plans_allowed,
)
from games.kit.protocol import apply_checked, events_for
from games.nimble.engine import NIMBLE, card_face

FLIP = {"action": "flip"}
END = {"action": "end_turn"}


def _play(state, seat, data, log):
    transition = apply_checked(NIMBLE, state, seat, NIMBLE.parse_move(data))
    log.extend(transition.events)
    return transition


def _start(**config):
    state = NIMBLE.initial_state(num_players=2, config=config, seed="nimble-plans")
    return state, state.to_move, 1 - state.to_move


def test_plans_apply_to_two_players_in_turns_only() -> None:
    state, mover, planner = _start()
    assert plans_allowed(NIMBLE, state, planner) and plans_allowed(NIMBLE, state, mover)
    race = NIMBLE.initial_state(num_players=2, config={"mode": "race"}, seed="r")
    assert not plans_allowed(NIMBLE, race, 0)
    three = NIMBLE.initial_state(num_players=3, config={}, seed="t")
    assert not any(plans_allowed(NIMBLE, three, seat) for seat in range(3))
    with pytest.raises(PlansUnavailable):
        plan_checked(NIMBLE, race, 0, parse_plan([{"on": FLIP}]), history=[])


def test_a_flip_is_keyed_by_the_card_it_showed() -> None:
    state, mover, planner = _start()
    transition = _play(state, mover, FLIP, [])
    card = card_face(state.sets[mover][-1])
    key = {"action": "flip", "card": card}
    assert NIMBLE.plan_key(state, mover, NIMBLE.parse_move(FLIP), transition, planner) == key
    plan = plan_checked(NIMBLE, state, planner, parse_plan([{"on": key}]), history=[])
    step = plan_after(NIMBLE, state, mover, NIMBLE.parse_move(FLIP), transition, planner, plan)
    assert step == Reply(key, (), ())
    # Any card of the mover's Set never turned up may come; the planner cannot tell which.
    other = card_face(state.sets[mover][0])
    plan = plan_checked(NIMBLE, state, planner, parse_plan([{"on": {**key, "card": other}}]),
                        history=[])
    assert plan_after(NIMBLE, state, mover, NIMBLE.parse_move(FLIP), transition, planner,
                      plan) == NotCovered(key)
    # A flip key names its card; a card of the planner's own Set cannot come.
    for bad in (FLIP, {"action": "flip", "card": card_face(state.sets[planner][0])},
                {"action": "flip", "card": {**card, "set": 7}}):
        with pytest.raises(PlanIllegalKey):
            plan_checked(NIMBLE, state, planner, parse_plan([{"on": bad}]), history=[])


def test_a_returned_card_is_the_only_one_a_flip_can_show() -> None:
    state, mover, planner = _start()
    log: list = []
    state = _play(state, mover, FLIP, log).state
    returned = state.discards[mover][-1]
    state = _play(state, mover, {"action": "return"}, log).state
    history = events_for(log, planner)
    known = {"action": "flip", "card": card_face(returned)}
    assert plan_checked(NIMBLE, state, planner, parse_plan([{"on": known}]), history=history)
    unseen = {"action": "flip", "card": card_face(state.sets[mover][0])}
    with pytest.raises(PlanIllegalKey):
        plan_checked(NIMBLE, state, planner, parse_plan([{"on": unseen}]), history=history)


def _spend_turn(state, seat, log):
    """End ``seat``'s turn at once; the state and the transition."""
    transition = _play(state, seat, END, log)
    return transition.state, transition


def test_a_turn_of_several_actions_then_a_reply_then_the_next_turn() -> None:
    state, mover, planner = _start()
    top = card_face(state.sets[mover][-1])
    flip = {"action": "flip", "card": top}
    plan = plan_checked(NIMBLE, state, planner, parse_plan([
        {"on": flip, "then": [{"on": END, "reply": [END], "then": [{"on": END}]}]},
    ]), history=[])
    log: list = []
    first = _play(state, mover, FLIP, log)
    step = plan_after(NIMBLE, state, mover, NIMBLE.parse_move(FLIP), first, planner, plan)
    assert isinstance(step, Reply) and step.moves == ()
    ended = _play(first.state, mover, END, log)
    step = plan_after(NIMBLE, first.state, mover, NIMBLE.parse_move(END), ended, planner,
                      step.then)
    assert isinstance(step, Reply) and step.moves == (END,)
    assert [b.on for b in step.then] == [END]


def test_nothing_follows_a_flip_in_a_reply() -> None:
    state, mover, planner = _start()
    with pytest.raises(PlanIllegalReply) as refused:
        plan_checked(NIMBLE, state, planner,
                     parse_plan([{"on": END, "reply": [FLIP, END]}]), history=[])
    assert refused.value.extra == {"path": [0, "reply", 1], "cause": "after_reveal"}
    with pytest.raises(PlanUnreachable) as refused:
        plan_checked(NIMBLE, state, planner,
                     parse_plan([{"on": END, "reply": [FLIP], "then": [{"on": END}]}]),
                     history=[])
    assert refused.value.extra["reason"] == "revealed"
    plan = plan_checked(NIMBLE, state, planner, parse_plan([{"on": END, "reply": [FLIP]}]),
                        history=[])
    assert plan[0].reply == (FLIP,)
