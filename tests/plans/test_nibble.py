"""Plans in Nibble: the keys are the other seat's takes; scenarios of the rules."""

from __future__ import annotations

import pytest

from games.kit.plans import (
    HandMove,
    NotCovered,
    PlanIllegalKey,
    PlanIllegalReply,
    PlanMalformed,
    PlanNotWaiting,
    PlansUnavailable,
    PlanUnreachable,
    Reply,
    ReplyRefused,
    dump_plan,
    parse_plan,
    plan_after,
    plan_checked,
    plans_allowed,
)
from games.kit.protocol import apply_checked, events_for
from games.nibble.engine import NibbleEngine

NIBBLE = NibbleEngine()


def _take(*cells: tuple[int, int]) -> dict:
    return {"take": [list(cell) for cell in cells]}


def _play(state, seat, data, log):
    move = NIBBLE.parse_move(data)
    transition = apply_checked(NIBBLE, state, seat, move)
    log.extend(transition.events)
    return transition


@pytest.fixture
def waiting():
    """Seat 0 has taken a corner; seat 0 waits for seat 1 (the board of seed "plans")."""
    state = NIBBLE.initial_state(num_players=2, config={"first_seat": 0}, seed="plans")
    log: list = []
    state = _play(state, 0, _take((0, 0)), log).state
    return state, log


def _legal(state, seat) -> list[dict]:
    return [NIBBLE.dump_move(m) for m in NIBBLE.legal_moves(state, seat)]


def test_a_line_plays_out_reply_after_reply(waiting) -> None:
    state, log = waiting
    first = _legal(state, 1)[0]
    after_first = _play(state, 1, first, []).state
    reply = _legal(after_first, 0)[0]
    after_reply = apply_checked(NIBBLE, after_first, 0, NIBBLE.parse_move(reply)).state
    second = _legal(after_reply, 1)[-1]
    after_second = _play(after_reply, 1, second, []).state
    reply2 = _legal(after_second, 0)[-1]
    data = [{"on": first, "reply": [reply],
             "then": [{"on": second, "reply": [reply2]}]}]
    plan = plan_checked(NIBBLE, state, 0, parse_plan(data), history=events_for(log, 0))
    assert dump_plan(plan)[0]["then"][0]["reply"] == [reply2]

    transition = _play(state, 1, first, log)
    step = plan_after(NIBBLE, state, 1, NIBBLE.parse_move(first), transition, 0, plan)
    assert isinstance(step, Reply) and step.moves == (reply,) and step.key == first
    state = _play(transition.state, 0, reply, log).state
    transition = _play(state, 1, second, log)
    step = plan_after(NIBBLE, state, 1, NIBBLE.parse_move(second), transition, 0, step.then)
    assert isinstance(step, Reply) and step.moves == (reply2,) and step.then == ()


def test_pruning_keeps_exactly_the_matching_lines(waiting) -> None:
    state, log = waiting
    moves = _legal(state, 1)
    assert len(moves) >= 3
    lines = []
    for move in moves[:3]:
        after = _play(state, 1, move, []).state
        replies = _legal(after, 0)[:2]
        lines.append({"on": move, "reply": [replies[0]],
                      "then": [{"on": _legal(_play(after, 0, r, []).state, 1)[0]}
                               for r in replies[:1]]})
    plan = plan_checked(NIBBLE, state, 0, parse_plan(lines), history=events_for(log, 0))
    transition = _play(state, 1, moves[1], [])
    step = plan_after(NIBBLE, state, 1, NIBBLE.parse_move(moves[1]), transition, 0, plan)
    assert isinstance(step, Reply)
    assert step.then == plan[1].then
    assert dump_plan(step.then) == [{**lines[1]["then"][0], "reply": [], "then": []}]


def test_a_move_the_plan_does_not_cover_clears_it_and_names_the_move(waiting) -> None:
    state, log = waiting
    moves = _legal(state, 1)
    plan = plan_checked(NIBBLE, state, 0, parse_plan([{"on": moves[0]}]),
                        history=events_for(log, 0))
    transition = _play(state, 1, moves[1], [])
    assert plan_after(NIBBLE, state, 1, NIBBLE.parse_move(moves[1]), transition, 0,
                      plan) == NotCovered(moves[1])


def test_keys_are_taken_in_the_engine_form(waiting) -> None:
    state, log = waiting
    moves = _legal(state, 1)
    move = next((m for m in moves if len(m["take"]) == 2), moves[0])
    backwards = {"take": list(reversed(move["take"]))}
    plan = plan_checked(NIBBLE, state, 0, parse_plan([{"on": backwards}]),
                        history=events_for(log, 0))
    assert plan[0].on == move
    with pytest.raises(PlanMalformed) as refused:
        plan_checked(NIBBLE, state, 0, parse_plan([{"on": move}, {"on": backwards}]),
                     history=events_for(log, 0))
    assert refused.value.extra["path"] == [1, "on"]


def test_illegal_keys_and_replies_are_refused_with_their_path(waiting) -> None:
    state, log = waiting
    history = events_for(log, 0)
    move = _legal(state, 1)[0]
    with pytest.raises(PlanIllegalKey) as refused:
        plan_checked(NIBBLE, state, 0, parse_plan([{"on": _take((4, 4))}]), history=history)
    assert refused.value.extra["path"] == [0, "on"]
    with pytest.raises(PlanIllegalKey):
        plan_checked(NIBBLE, state, 0, parse_plan([{"on": "anything"}]), history=history)
    with pytest.raises(PlanIllegalReply) as refused:
        plan_checked(NIBBLE, state, 0, parse_plan([{"on": move, "reply": [_take((0, 0))]}]),
                     history=history)
    assert refused.value.extra == {"path": [0, "reply", 0], "cause": "illegal_move",
                                   "rule": "nibble.no_disc"}
    after = _play(state, 1, move, []).state
    reply = _legal(after, 0)[0]
    with pytest.raises(PlanIllegalReply) as refused:
        plan_checked(NIBBLE, state, 0, parse_plan([{"on": move, "reply": [reply, reply]}]),
                     history=history)
    assert refused.value.extra["cause"] == "not_your_turn"
    with pytest.raises(PlanUnreachable) as refused:
        plan_checked(NIBBLE, state, 0, parse_plan([{"on": move, "then": [{"on": reply}]}]),
                     history=history)
    assert refused.value.extra == {"path": [0, "then"], "reason": "planner_to_act"}


def test_a_plan_is_saved_only_while_waiting_and_an_empty_one_deletes(waiting) -> None:
    state, log = waiting
    assert plans_allowed(NIBBLE, state, 0) and plans_allowed(NIBBLE, state, 1)
    with pytest.raises(PlanNotWaiting):
        plan_checked(NIBBLE, state, 1, parse_plan([{"on": _take((0, 8))}]), history=[])
    assert plan_checked(NIBBLE, state, 1, (), history=[]) == ()
    over = NIBBLE.forfeit(state, 1).state
    with pytest.raises(PlansUnavailable):
        plan_checked(NIBBLE, over, 0, (), history=[])


def test_a_refused_reply_drops_the_plan_and_a_hand_move_clears_it(waiting) -> None:
    state, log = waiting
    move = _legal(state, 1)[0]
    plan = parse_plan([{"on": move, "reply": [_take((0, 0))]}])  # as if checked elsewhere
    transition = _play(state, 1, move, [])
    step = plan_after(NIBBLE, state, 1, NIBBLE.parse_move(move), transition, 0, plan)
    assert isinstance(step, ReplyRefused) and step.index == 0
    assert step.error.code == "illegal_move"
    own = NIBBLE.parse_move(_legal(transition.state, 0)[0])
    assert plan_after(NIBBLE, state, 0, own, transition, 0, plan) == HandMove()
