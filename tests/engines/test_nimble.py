"""Nimble engine: scenarios for every action and rule, the deadlock test against a brute-force
search, properties of random playouts, and hidden information in views and events."""

from __future__ import annotations

import json
import math
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.kit.protocol import (
    GameOver,
    IllegalMove,
    InvalidConfig,
    MalformedMove,
    NotYourTurn,
    apply_checked,
)
from games.nimble.engine import (
    CARD_CIRCLE,
    CARD_CODE,
    CARD_FRAME,
    CARD_SET,
    COLOURS,
    NIMBLE,
    NimbleMove,
    NimbleState,
    card_face,
    card_of,
    frame_counts_of,
    is_deadlocked,
    with_piles,
)

E = NIMBLE
RED, ORANGE, BEIGE, BLUE, GREEN, PURPLE = COLOURS
FLIP = {"action": "flip"}
RETURN = {"action": "return"}
RECYCLE = {"action": "recycle"}
END_TURN = {"action": "end_turn"}
ALL_MOVES = [E.parse_move(m) for m in (FLIP, RETURN, RECYCLE, END_TURN)] + [
    E.parse_move({"action": "place", "stack": k}) for k in range(3)]
FAST = settings(max_examples=25, deadline=None)


def place(stack: int) -> dict:
    return {"action": "place", "stack": stack}


def build(players: int, *, sets, discards, stacks, mode: str = "turns", config=None,
          **fields) -> NimbleState:
    """A hand-made position. ``sets``/``discards``: per seat, (frame, circle) pairs bottom to top,
    of that seat's own Set; ``stacks``: per stack, (set, frame, circle) cards bottom to top."""
    state = E.initial_state(num_players=players, config={"mode": mode, **(config or {})},
                            seed="scenario")
    return with_piles(
        state,
        sets=tuple(tuple(card_of(s, f, c) for f, c in pile) for s, pile in enumerate(sets)),
        discards=tuple(tuple(card_of(s, f, c) for f, c in pile)
                       for s, pile in enumerate(discards)),
        stacks=tuple(tuple(card_of(*card) for card in pile) for pile in stacks),
        **fields,
    )


def play(state: NimbleState, seat: int, move: dict):
    transition = apply_checked(E, state, seat, E.parse_move(move))
    return transition.state, list(transition.events)


def rule_of(state: NimbleState, seat: int, move: dict) -> str:
    with pytest.raises(IllegalMove) as info:
        apply_checked(E, state, seat, E.parse_move(move))
    assert info.value.extra["rule"] == info.value.rule
    return info.value.rule


# Three stacks whose tops show red, orange and orange circles; cards from Set 3.
STACKS_RED_ORANGE = [[(3, GREEN, RED)], [(3, RED, ORANGE)], [(3, BEIGE, ORANGE)]]


# --------------------------------------------------------------------------- cards and setup


def test_each_set_is_every_frame_circle_pair_once() -> None:
    for set_index in range(4):
        cards = range(set_index * 30, set_index * 30 + 30)
        pairs = {(CARD_FRAME[c], CARD_CIRCLE[c]) for c in cards}
        assert len(pairs) == 30
        assert all(frame != circle for frame, circle in pairs)
        assert {CARD_SET[c] for c in cards} == {set_index}
        assert Counter(f for f, _ in pairs) == Counter({f: 5 for f in range(6)})
    assert len(set(CARD_CODE)) == 120
    with pytest.raises(ValueError):
        card_of(0, RED, RED)


@pytest.mark.parametrize(("players", "sizes"), [
    (2, [28, 29]), (3, [29, 29, 29]), (4, [29, 29, 29, 30])])
def test_start_cards_are_dealt_round_robin_from_the_start_seat(players, sizes) -> None:
    start_seats = set()
    for n in range(12):
        state = E.initial_state(num_players=players, config={}, seed=f"deal-{n}")
        start = state.start_seat
        start_seats.add(start)
        order = [(start + k) % players for k in range(players)]
        assert [len(state.sets[s]) for s in order] == sizes
        assert len(state.stacks) == 3 and all(len(stack) == 1 for stack in state.stacks)
        assert [CARD_SET[stack[0]] for stack in state.stacks] == [order[k % players]
                                                                  for k in range(3)]
        assert all(not d for d in state.discards)
        assert not is_deadlocked(state) and state.outcome is None
        # The first in turn order holds the most cards (3 players: the start seat).
        expected_first = order[{2: 1, 3: 0, 4: 3}[players]]
        assert state.first_seat == expected_first == state.to_move
        assert E.actors(state) == {expected_first}
    assert len(start_seats) > 1, "the start seat is drawn from the seed"


def test_setup_follows_the_seed() -> None:
    a = E.initial_state(num_players=3, config={}, seed="same")
    assert a == E.initial_state(num_players=3, config={}, seed="same")
    assert a.sets != E.initial_state(num_players=3, config={}, seed="other").sets


def test_race_mode_lets_every_seat_act() -> None:
    state = E.initial_state(num_players=4, config={"mode": "race"}, seed="r")
    assert E.actors(state) == {0, 1, 2, 3}
    assert state.to_move is None
    for seat in range(4):
        assert [m["action"] for m in E.view(state, seat)["legal_moves"]][:1] == ["flip"]


@pytest.mark.parametrize(("players", "config"), [
    (1, {}), (5, {}), (True, {}), (2, {"mode": "blitz"}), (2, {"budget": 0}),
    (2, {"budget": 7}), (2, {"two_player_finish_at": 2}), (3, {"ramp": "yes"}),
    (2, {"colour": "red"}), (2, {"budget": True})])
def test_invalid_configs_are_refused(players, config) -> None:
    with pytest.raises(InvalidConfig):
        E.initial_state(num_players=players, config=config, seed="x")


# --------------------------------------------------------------------------- move syntax


def test_moves_round_trip_through_json() -> None:
    for move in ALL_MOVES:
        assert E.parse_move(json.loads(json.dumps(E.dump_move(move)))) == move
    assert E.parse_move({"action": "place", "stack": 2}) == NimbleMove("place", 2)


@pytest.mark.parametrize("data", [
    "flip", ["flip"], None, {}, {"action": "jump"}, {"action": 1}, {"action": None},
    {"action": "place"}, {"action": "place", "stack": 3}, {"action": "place", "stack": -1},
    {"action": "place", "stack": True}, {"action": "place", "stack": False},
    {"action": "place", "stack": "0"}, {"action": "place", "stack": 1.0},
    {"action": "flip", "stack": 0}, {"action": "flip", "extra": 1},
    {"action": "end_turn", "stack": None}, {"action": "FLIP"}])
def test_malformed_moves_are_refused(data) -> None:
    with pytest.raises(MalformedMove):
        E.parse_move(data)


def test_validate_refuses_foreign_move_objects() -> None:
    state = E.initial_state(num_players=2, config={"mode": "race"}, seed="m")
    for move in [object(), NimbleMove("place", None), NimbleMove("place", True),
                 NimbleMove("flip", 1), NimbleMove("dance")]:
        with pytest.raises(MalformedMove):
            E.validate(state, 0, move)


# --------------------------------------------------------------------------- actions


def test_flip_moves_the_set_top_to_the_discard_and_costs_budget() -> None:
    state = build(2, sets=[[(RED, GREEN), (BEIGE, PURPLE)], [(GREEN, RED)]], discards=[[], []],
                  stacks=STACKS_RED_ORANGE, to_move=0, first_seat=0, budget_left=3)
    after, events = play(state, 0, FLIP)
    assert after.sets[0] == (card_of(0, RED, GREEN),)
    assert after.discards[0] == (card_of(0, BEIGE, PURPLE),)
    assert after.budget_left == 2 and after.to_move == 0
    assert events == [{"type": "flipped", "seat": 0,
                       "card": {"set": 0, "frame": BEIGE, "circle": PURPLE}}]
    assert state.sets[0] == (card_of(0, RED, GREEN), card_of(0, BEIGE, PURPLE)), "not mutated"


def test_place_puts_the_discard_top_on_a_matching_stack() -> None:
    state = build(3, sets=[[(GREEN, BLUE)], [(RED, GREEN)], [(BLUE, RED)]],
                  discards=[[(BEIGE, GREEN), (ORANGE, PURPLE)], [], []],
                  stacks=STACKS_RED_ORANGE, to_move=0, first_seat=0, budget_left=1)
    moves = E.view(state, 0)["legal_moves"]
    assert place(1) in moves and place(2) in moves and place(0) not in moves
    after, events = play(state, 0, place(2))
    assert after.stacks[2][-1] == card_of(0, ORANGE, PURPLE) and len(after.stacks[2]) == 2
    assert after.discards[0] == (card_of(0, BEIGE, GREEN),)
    assert after.budget_left == 1, "placements are free"
    assert after.frame_counts == frame_counts_of(after.sets, after.discards)
    assert events == [{"type": "placed", "seat": 0, "stack": 2,
                       "card": {"set": 0, "frame": ORANGE, "circle": PURPLE},
                       "discard_top": {"set": 0, "frame": BEIGE, "circle": GREEN}}]
    assert after.placed_this_round


def test_return_puts_the_discard_top_back_on_the_set() -> None:
    state = build(2, sets=[[(RED, GREEN)], [(GREEN, RED)]],
                  discards=[[(BEIGE, GREEN), (PURPLE, RED)], []],
                  stacks=STACKS_RED_ORANGE, to_move=0, first_seat=0, budget_left=3)
    after, events = play(state, 0, RETURN)
    assert after.sets[0] == (card_of(0, RED, GREEN), card_of(0, PURPLE, RED))
    assert after.discards[0] == (card_of(0, BEIGE, GREEN),)
    assert after.budget_left == 2
    assert events == [{"type": "returned", "seat": 0,
                       "card": {"set": 0, "frame": PURPLE, "circle": RED},
                       "discard_top": {"set": 0, "frame": BEIGE, "circle": GREEN}}]
    # The returned card is the next one flipped.
    again, _ = play(after, 0, FLIP)
    assert again.discards[0][-1] == card_of(0, PURPLE, RED)


def test_recycle_puts_the_first_discarded_card_on_top() -> None:
    discard = [(BEIGE, GREEN), (PURPLE, RED), (GREEN, BLUE), (BLUE, BEIGE)]  # first one first
    state = build(2, sets=[[], [(GREEN, RED)]], discards=[discard, []],
                  stacks=[[(3, GREEN, RED)], [(3, RED, ORANGE)], [(3, BEIGE, ORANGE)]],
                  mode="race")
    after, events = play(state, 0, RECYCLE)
    assert events == [{"type": "recycled", "seat": 0, "count": 4}]
    assert after.discards[0] == ()
    assert after.sets[0][-1] == card_of(0, BEIGE, GREEN)
    # Flipping through the new Set meets the cards in the order they were first discarded.
    flipped = []
    for _ in discard:
        after, events = play(after, 0, FLIP)
        flipped.append(events[0]["card"])
    assert flipped == [{"set": 0, "frame": f, "circle": c} for f, c in discard]
    # RECYCLE gives the same Set as returning the cards one by one.
    returned = state
    for _ in discard:
        returned, _ = play(returned, 0, RETURN)
    assert returned.sets[0] == play(state, 0, RECYCLE)[0].sets[0]


def test_end_turn_passes_the_turn_with_budget_unspent() -> None:
    state = E.initial_state(num_players=2, config={}, seed="pass")
    first = state.to_move
    after, events = play(state, first, END_TURN)
    assert after.to_move == 1 - first and after.budget_left == 3
    assert events[0] == {"type": "turn_ended", "seat": first, "auto": False}
    assert events[-1] == {"type": "turn_started", "seat": 1 - first, "round": 1, "budget": 3}
    with pytest.raises(NotYourTurn):
        apply_checked(E, after, first, E.parse_move(FLIP))


# --------------------------------------------------------------------------- rule codes


def test_rule_set_empty() -> None:
    state = build(2, sets=[[], [(GREEN, RED)]], discards=[[(BEIGE, GREEN)], []],
                  stacks=STACKS_RED_ORANGE, mode="race")
    assert rule_of(state, 0, FLIP) == "nimble.set_empty"


def test_rule_discard_empty_for_place_return_and_recycle() -> None:
    state = build(2, sets=[[(BEIGE, GREEN)], [(GREEN, RED)]], discards=[[], []],
                  stacks=STACKS_RED_ORANGE, mode="race")
    assert rule_of(state, 0, place(0)) == "nimble.discard_empty"
    assert rule_of(state, 0, RETURN) == "nimble.discard_empty"
    empty = with_piles(state, sets=((), state.sets[1]))
    assert rule_of(empty, 0, RECYCLE) == "nimble.discard_empty"


def test_rule_frame_mismatch() -> None:
    state = build(2, sets=[[], [(GREEN, RED)]], discards=[[(BEIGE, GREEN)], []],
                  stacks=STACKS_RED_ORANGE, mode="race")
    # Stack 0 shows a green frame: frame onto circle only, never circle onto frame.
    for stack in range(3):
        assert rule_of(state, 0, place(stack)) == "nimble.frame_mismatch"


def test_rule_set_not_empty() -> None:
    state = build(2, sets=[[(RED, GREEN)], [(GREEN, RED)]], discards=[[(BEIGE, GREEN)], []],
                  stacks=STACKS_RED_ORANGE, mode="race")
    assert rule_of(state, 0, RECYCLE) == "nimble.set_not_empty"
    no_discard = with_piles(state, discards=((), ()))
    assert rule_of(no_discard, 0, RECYCLE) == "nimble.set_not_empty"


def test_rule_budget_spent_for_hand_actions_only() -> None:
    # The discard top (orange frame) can be placed, so the turn does not end by itself.
    state = build(2, sets=[[(RED, GREEN)], [(GREEN, RED)]],
                  discards=[[(BEIGE, GREEN), (ORANGE, PURPLE)], []], stacks=STACKS_RED_ORANGE,
                  to_move=0, first_seat=0, budget_left=0)
    assert rule_of(state, 0, FLIP) == "nimble.budget_spent"
    assert rule_of(state, 0, RETURN) == "nimble.budget_spent"
    recycle_state = with_piles(state, sets=((), state.sets[1]))
    assert rule_of(recycle_state, 0, RECYCLE) == "nimble.budget_spent"
    assert E.view(state, 0)["legal_moves"] == [place(1), place(2), END_TURN]
    after, events = play(state, 0, place(1))
    assert [e["type"] for e in events] == ["placed", "turn_ended", "turn_started"]
    assert events[1]["auto"] is True and after.to_move == 1


def test_rule_not_turn_mode() -> None:
    state = E.initial_state(num_players=2, config={"mode": "race"}, seed="race")
    assert rule_of(state, 0, END_TURN) == "nimble.not_turn_mode"


def test_illegal_moves_leave_the_state_alone() -> None:
    state = build(2, sets=[[], [(GREEN, RED)]], discards=[[(BEIGE, GREEN)], []],
                  stacks=STACKS_RED_ORANGE, mode="race")
    before = E.dump(state)
    for move in (FLIP, place(0)):
        with pytest.raises(IllegalMove):
            apply_checked(E, state, 0, E.parse_move(move))
    assert E.dump(state) == before


# --------------------------------------------------------------------------- turns


def test_turn_ends_by_itself_when_only_end_turn_is_left() -> None:
    stacks = STACKS_RED_ORANGE
    # Budget 1. Flipping a card that cannot be placed ends the turn.
    state = build(2, sets=[[(BEIGE, GREEN), (GREEN, BLUE)], [(GREEN, RED), (ORANGE, BEIGE)]],
                  discards=[[], []], stacks=stacks, config={"budget": 1}, to_move=0,
                  first_seat=0, budget_left=1)
    after, events = play(state, 0, FLIP)
    assert after.to_move == 1 and after.budget_left == 1
    assert [e["type"] for e in events] == ["flipped", "turn_ended", "turn_started"]
    assert events[1] == {"type": "turn_ended", "seat": 0, "auto": True}
    # Flipping a placeable card keeps the turn: placing it is still possible.
    state = with_piles(state, sets=((card_of(0, PURPLE, GREEN), card_of(0, BEIGE, GREEN),
                                     card_of(0, RED, ORANGE)), state.sets[1]))
    after, events = play(state, 0, FLIP)
    assert after.to_move == 0 and after.budget_left == 0
    assert E.view(after, 0)["legal_moves"] == [place(0), END_TURN]
    # Placing it exposes nothing placeable, so the turn ends.
    after, events = play(after, 0, place(0))
    assert after.to_move == 1
    assert [e["type"] for e in events] == ["placed", "turn_ended", "turn_started"]


def test_placement_chains_are_free_during_the_turn() -> None:
    # Red frame on the red circle, then the orange-framed card below on its orange circle...
    state = build(2, sets=[[(GREEN, PURPLE), (BEIGE, RED)], [(GREEN, RED)]],
                  discards=[[(PURPLE, BLUE), (BLUE, PURPLE), (ORANGE, BLUE), (RED, ORANGE)], []],
                  stacks=[[(3, GREEN, RED)], [(3, RED, GREEN)], [(3, BEIGE, GREEN)]],
                  config={"budget": 1}, to_move=0, first_seat=0, budget_left=1)
    state, _ = play(state, 0, place(0))
    state, _ = play(state, 0, place(0))
    state, _ = play(state, 0, place(0))
    state, _ = play(state, 0, place(0))
    assert state.to_move == 0 and state.budget_left == 1
    assert [card_face(c)["frame"] for c in state.stacks[0]] == [GREEN, RED, ORANGE, BLUE, PURPLE]


@pytest.mark.parametrize(("players", "config", "budgets"), [
    (3, {}, [1, 2, 3]),
    (4, {}, [2, 2, 3, 3]),
    (2, {}, [3, 3]),
    (2, {"ramp": True}, [3, 3]),
    (3, {"ramp": False}, [3, 3, 3]),
    (4, {"ramp": False, "budget": 2}, [2, 2, 2, 2]),
    (3, {"budget": 5}, [3, 4, 5]),
    (4, {"budget": 1}, [1, 1, 1, 1]),
])
def test_ramp_sets_round_one_budgets_by_turn_order(players, config, budgets) -> None:
    state = E.initial_state(num_players=players, config=config, seed="ramp")
    order = [(state.first_seat + k) % players for k in range(players)]
    seen = []
    for seat in order:
        assert state.to_move == seat and state.round == 1
        seen.append(state.budget_left)
        state, _ = play(state, seat, END_TURN)
    assert seen == budgets
    full = config.get("budget", 3)
    for seat in order:
        assert state.to_move == seat and state.round == 2 and state.budget_left == full
        state, _ = play(state, seat, END_TURN)


@pytest.mark.parametrize(("budget", "cap"), [(3, 12), (1, 32), (4, 10), (6, 7)])
def test_stall_cap_ends_the_match_as_a_stalemate(budget, cap) -> None:
    state = E.initial_state(num_players=2, config={"budget": budget}, seed="stall")
    assert state.stall_cap == cap == math.ceil(30 / budget) + 2
    rounds = 0
    while state.outcome is None:
        state, events = play(state, state.to_move, END_TURN)
        ended = [e for e in events if e["type"] == "round_ended"]
        if ended:
            rounds += 1
            assert ended[0]["idle_rounds"] == rounds
    assert rounds == cap
    assert events[-1]["type"] == "match_ended" and events[-1]["reason"] == "stalemate"
    start = state.start_seat  # placed two start cards, so holds 28 against 29
    assert state.outcome.reason == "stalemate"
    assert state.outcome.ranks[start] == 1 and state.outcome.ranks[1 - start] == 2
    assert state.outcome.scores[start] == 28 and state.outcome.scores[1 - start] == 29
    assert E.actors(state) == frozenset()


def test_a_placement_resets_the_stall_count() -> None:
    state = build(2, sets=[[(GREEN, BLUE), (BEIGE, GREEN)], [(GREEN, RED), (PURPLE, RED)]],
                  discards=[[(RED, PURPLE)], []], stacks=STACKS_RED_ORANGE, to_move=0,
                  first_seat=0, budget_left=3, idle_rounds=11, round=20)
    state, _ = play(state, 0, place(0))
    state, _ = play(state, 0, END_TURN)
    state, events = play(state, 1, END_TURN)
    assert events[1] == {"type": "round_ended", "round": 20, "idle_rounds": 0}
    assert state.outcome is None and state.round == 21 and state.idle_rounds == 0
    # Without a placement the eleventh idle round is not the end; the twelfth is.
    state = with_piles(state, idle_rounds=10)
    for _ in range(2):
        state, _ = play(state, 0, END_TURN)
        state, events = play(state, 1, END_TURN)
    assert state.outcome is not None and state.outcome.reason == "stalemate"


# --------------------------------------------------------------------------- end of the match


def test_two_players_win_on_reaching_one_card() -> None:
    state = build(2, sets=[[], [(GREEN, RED), (BLUE, PURPLE)]],
                  discards=[[(ORANGE, GREEN), (RED, ORANGE)], [(PURPLE, RED)]],
                  stacks=STACKS_RED_ORANGE, mode="race")
    after, events = play(state, 0, place(0))
    assert after.outcome is not None
    assert after.outcome.reason == "finished"
    assert after.outcome.ranks == (1, 2) and after.outcome.scores == (1, 3)
    assert events[-1] == {"type": "match_ended", "ranks": [1, 2], "scores": [1, 3],
                          "winners": [0], "reason": "finished"}
    with pytest.raises(GameOver):
        apply_checked(E, after, 1, E.parse_move(FLIP))
    # With two_player_finish_at 0 the last card must go too.
    state = with_piles(state, finish_at=0)
    after, _ = play(state, 0, place(0))
    assert after.outcome is None
    after, _ = play(after, 0, place(0))  # orange frame on the orange circle just placed
    assert after.outcome is not None and after.outcome.scores == (0, 3)
    assert E.initial_state(num_players=2, config={"two_player_finish_at": 0},
                           seed="x").finish_at == 0


def test_three_players_finish_at_zero_and_ties_share_a_rank() -> None:
    state = build(3, sets=[[], [(GREEN, RED), (BLUE, PURPLE)], [(GREEN, BEIGE), (BLUE, RED)]],
                  discards=[[(RED, ORANGE)], [], []], stacks=STACKS_RED_ORANGE, mode="race")
    assert state.finish_at == 0
    after, _ = play(state, 0, place(0))
    assert after.outcome.reason == "finished"
    assert after.outcome.ranks == (1, 2, 2) and after.outcome.scores == (0, 2, 2)


def test_a_placement_that_leaves_no_possible_placement_ends_in_deadlock() -> None:
    state = build(3, sets=[[(BEIGE, GREEN)], [(GREEN, BEIGE), (BLUE, RED)],
                           [(BEIGE, RED), (GREEN, PURPLE)]],
                  discards=[[(RED, PURPLE)], [], []], stacks=STACKS_RED_ORANGE, mode="race")
    assert not is_deadlocked(state)
    after, events = play(state, 0, place(0))
    assert is_deadlocked(after)
    assert after.outcome.reason == "deadlock"
    assert after.outcome.ranks == (1, 2, 2) and after.outcome.scores == (1, 2, 2)
    assert events[-1]["type"] == "match_ended" and events[-1]["winners"] == [0]
    assert E.actors(after) == frozenset()


def test_a_player_stuck_right_now_is_not_a_deadlock() -> None:
    # Once seat 0 has placed, seat 1's only matching card (orange frame) lies at the bottom of
    # its discard.
    state = build(2, sets=[[(BEIGE, GREEN), (GREEN, BLUE)], []],
                  discards=[[(RED, PURPLE)], [(ORANGE, BLUE), (GREEN, BEIGE), (BLUE, GREEN)]],
                  stacks=STACKS_RED_ORANGE, mode="race")
    after, _ = play(state, 0, place(0))
    assert after.outcome is None and not is_deadlocked(after)
    assert [m.action for m in E.legal_moves(after, 1)] == ["return", "recycle"]


# --------------------------------------------------------------------------- forfeits


def test_two_player_forfeit_gives_the_other_the_win() -> None:
    state = E.initial_state(num_players=2, config={}, seed="ff")
    transition = E.forfeit(state, state.to_move)
    outcome = transition.state.outcome
    assert outcome.reason == "forfeit"
    assert outcome.ranks[state.to_move] == 2 and outcome.ranks[1 - state.to_move] == 1
    assert [e["type"] for e in transition.events] == ["forfeited", "match_ended"]
    with pytest.raises(GameOver):
        E.forfeit(transition.state, 0)


def test_three_player_forfeit_passes_the_turn_and_play_goes_on() -> None:
    state = E.initial_state(num_players=3, config={}, seed="ff3")
    first = state.to_move
    second, third = (first + 1) % 3, (first + 2) % 3
    transition = E.forfeit(state, first)
    state = transition.state
    assert state.outcome is None and state.forfeited == (first,)
    assert state.to_move == second and state.budget_left == 2  # ramp: second position
    assert [e["type"] for e in transition.events] == ["forfeited", "turn_ended", "turn_started"]
    state, _ = play(state, second, END_TURN)
    assert state.to_move == third
    state, events = play(state, third, END_TURN)
    assert state.to_move == second and state.round == 2, "the forfeited seat is skipped"
    assert E.view(state, None)["seats"][first]["forfeited"] is True
    assert E.forfeit(state, first).state == state, "a second forfeit changes nothing"
    # The seat not on turn leaves: the match ends with the one left first.
    transition = E.forfeit(state, third)
    outcome = transition.state.outcome
    assert outcome.reason == "forfeit"
    assert outcome.ranks[second] == 1 and outcome.ranks[third] == 2 and outcome.ranks[first] == 3


def test_four_player_forfeits_rank_the_first_to_leave_last() -> None:
    state = E.initial_state(num_players=4, config={"mode": "race"}, seed="ff4")
    state = E.forfeit(state, 2).state
    assert E.actors(state) == {0, 1, 3}
    with pytest.raises(NotYourTurn):
        apply_checked(E, state, 2, E.parse_move(FLIP))
    state, _ = play(state, 1, FLIP)
    state = E.forfeit(state, 0).state
    assert state.outcome is None and E.actors(state) == {1, 3}
    state = E.forfeit(state, 3).state
    assert state.outcome.ranks == (3, 1, 4, 2) and state.outcome.reason == "forfeit"


def test_a_forfeit_that_takes_the_last_matching_cards_ends_in_deadlock() -> None:
    state = build(3, sets=[[(BEIGE, GREEN)], [(GREEN, BEIGE), (BLUE, RED), (BEIGE, BLUE)],
                           [(RED, PURPLE)]],
                  discards=[[], [], [(ORANGE, GREEN)]], stacks=STACKS_RED_ORANGE, mode="race")
    transition = E.forfeit(state, 2)
    outcome = transition.state.outcome
    assert outcome.reason == "deadlock"
    assert outcome.ranks == (1, 2, 3) and outcome.scores == (1, 3, 2)


# --------------------------------------------------------------------------- deadlock vs search


def can_ever_place(state: NimbleState) -> bool:
    """Brute force: for each seat in play, explore every position its flips, returns and
    recycles reach (race mode, so no budget) and look for a legal placement."""
    state = with_piles(state, mode="race", to_move=None, outcome=None)
    for seat in state.active_seats():
        seen = set()
        frontier = [state]
        while frontier:
            current = frontier.pop()
            key = (current.sets[seat], current.discards[seat])
            if key in seen:
                continue
            seen.add(key)
            moves = E.legal_moves(current, seat)
            if any(m.action == "place" for m in moves):
                return True
            frontier.extend(E.apply(current, seat, m).state for m in moves)
    return False


@st.composite
def small_positions(draw) -> NimbleState:
    players = draw(st.integers(2, 4))
    tops = draw(st.lists(st.integers(0, 119), min_size=3, max_size=3, unique=True))
    sets, discards = [], []
    for seat in range(players):
        own = [c for c in range(seat * 30, seat * 30 + 30) if c not in tops]
        cards = draw(st.lists(st.sampled_from(own), min_size=1, max_size=5, unique=True))
        cut = draw(st.integers(0, len(cards)))
        sets.append(tuple(cards[:cut]))
        discards.append(tuple(cards[cut:]))
    forfeited = draw(st.lists(st.integers(0, players - 1), unique=True,
                              max_size=players - 1))
    base = E.initial_state(num_players=players, config={"mode": "race"}, seed="small")
    return with_piles(base, sets=tuple(sets), discards=tuple(discards),
                      stacks=tuple((c,) for c in tops), forfeited=tuple(forfeited))


@settings(max_examples=300, deadline=None)
@given(small_positions())
def test_deadlock_test_agrees_with_brute_force_search(state) -> None:
    assert is_deadlocked(state) == (not can_ever_place(state))


def test_brute_force_comparison_sees_both_answers() -> None:
    rng = random.Random(7)
    answers = Counter()
    for _ in range(400):
        players = rng.randint(2, 4)
        tops = rng.sample(range(120), 3)
        sets, discards = [], []
        for seat in range(players):
            own = [c for c in range(seat * 30, seat * 30 + 30) if c not in tops]
            cards = rng.sample(own, rng.randint(1, 4))
            cut = rng.randint(0, len(cards))
            sets.append(tuple(cards[:cut]))
            discards.append(tuple(cards[cut:]))
        base = E.initial_state(num_players=players, config={"mode": "race"}, seed="sweep")
        state = with_piles(base, sets=tuple(sets), discards=tuple(discards),
                           stacks=tuple((c,) for c in tops))
        deadlocked = is_deadlocked(state)
        assert deadlocked == (not can_ever_place(state))
        answers[deadlocked] += 1
    assert answers[True] >= 20 and answers[False] >= 20


# --------------------------------------------------------------------------- random playouts


def random_playout(players: int, seed: str, mode: str, rng: random.Random, *,
                   max_steps: int = 1500, forfeit_rate: float = 0.0, check=None):
    """Random legal moves (and, at ``forfeit_rate``, a forfeit) until the end or ``max_steps``;
    returns the final state and the (seat, move) trail, forfeits as (seat, None)."""
    state = E.initial_state(num_players=players, config={"mode": mode}, seed=seed)
    trail = []
    for _ in range(max_steps):
        if state.outcome is not None:
            break
        if forfeit_rate and rng.random() < forfeit_rate:
            seat = rng.randrange(players)
            transition = E.forfeit(state, seat)
            trail.append((seat, None))
        else:
            seat = rng.choice(sorted(E.actors(state)))
            move = rng.choice(E.legal_moves(state, seat))
            transition = E.apply(state, seat, move)
            trail.append((seat, move))
        if check is not None:
            check(state, transition)
        state = transition.state
    return state, trail


def replay(players: int, seed: str, mode: str, trail) -> NimbleState:
    state = E.initial_state(num_players=players, config={"mode": mode}, seed=seed)
    for seat, move in trail:
        state = (E.forfeit(state, seat) if move is None else apply_checked(E, state, seat, move)
                 ).state
    return state


def check_invariants(before: NimbleState, transition) -> None:
    state = transition.state
    players = state.num_players
    every = [c for pile in (*state.sets, *state.discards, *state.stacks) for c in pile]
    assert sorted(every) == list(range(30 * players)), "cards are conserved"
    for stack in state.stacks:
        for lower, upper in zip(stack, stack[1:], strict=False):
            assert CARD_FRAME[upper] == CARD_CIRCLE[lower], "frame on circle"
    assert state.frame_counts == frame_counts_of(state.sets, state.discards)
    assert E.load(json.loads(json.dumps(E.dump(state)))) == state
    if state.outcome is None:
        for seat in E.actors(state):
            legal = E.legal_moves(state, seat)
            assert legal
            for move in ALL_MOVES:
                if move in legal:
                    E.validate(state, seat, move)
                else:
                    with pytest.raises(IllegalMove):
                        E.validate(state, seat, move)
        assert not is_deadlocked(state)
    else:
        assert state.outcome.reason in {"finished", "deadlock", "stalemate", "forfeit"}
        assert list(state.outcome.scores) == [state.cards_left(s) for s in range(players)]
        assert min(state.outcome.ranks) == 1


@FAST
@given(players=st.integers(2, 4), mode=st.sampled_from(["race", "turns"]),
       seed=st.text(min_size=1, max_size=8), rng=st.randoms(use_true_random=False))
def test_random_playouts_conserve_cards_and_replay_exactly(players, mode, seed, rng) -> None:
    state, trail = random_playout(players, seed, mode, rng, forfeit_rate=0.0005,
                                  check=check_invariants)
    assert replay(players, seed, mode, trail) == state


def test_random_playouts_end_in_every_way() -> None:
    reasons = Counter()
    for n in range(30):
        for players in (2, 3, 4):
            for mode in ("race", "turns"):
                rng = random.Random(f"{n}-{players}-{mode}")
                state, _ = random_playout(players, f"end-{n}", mode, rng, max_steps=6000)
                reasons[state.outcome.reason if state.outcome else None] += 1
    assert {"finished", "stalemate"} <= set(reasons)
    assert reasons[None] <= 5


# --------------------------------------------------------------------------- hidden information


def faces_in(data) -> list[dict]:
    """Every card-shaped dict inside a JSON value."""
    found = []
    if isinstance(data, dict):
        if set(data) == {"set", "frame", "circle"}:
            found.append(data)
        for value in data.values():
            found.extend(faces_in(value))
    elif isinstance(data, list):
        for value in data:
            found.extend(faces_in(value))
    return found


def face_key(face: dict) -> tuple:
    return face["set"], face["frame"], face["circle"]


def public_cards(state: NimbleState) -> set[int]:
    return {d[-1] for d in state.discards if d} | {c for s in state.stacks for c in s}


@pytest.mark.parametrize(("players", "mode", "seed"), [
    (2, "race", "h1"), (3, "race", "h2"), (2, "turns", "h3"), (4, "turns", "h4")])
def test_buried_cards_stay_hidden_until_they_surface(players, mode, seed) -> None:
    state = E.initial_state(num_players=players, config={"mode": mode}, seed=seed)
    # Seat 0 has already flipped ten cards; one of them lies third from the bottom of its
    # discard. Seat 1's Set holds a card four from the bottom.
    set0 = state.sets[0]
    state = with_piles(state, sets=(set0[:-10], *state.sets[1:]),
                       discards=(set0[-10:][::-1], *state.discards[1:]))
    planted = {state.discards[0][2], state.sets[1][3]}
    hidden = set(planted)
    rng = random.Random(seed)
    steps_hidden = Counter()
    for _ in range(8000):
        if state.outcome is not None:
            break
        seat = rng.choice(sorted(E.actors(state)))
        transition = E.apply(state, seat, rng.choice(E.legal_moves(state, seat)))
        # An event shows only cards that are face up before or after it: discard tops and
        # stacks (a returned card was the discard top; a flipped one becomes it).
        public = public_cards(state) | public_cards(transition.state)
        assert {face_key(f) for f in faces_in(list(transition.events))} <= {
            face_key(card_face(c)) for c in public}
        state = transition.state
        # A card surfaces when it becomes a discard top (or goes onto a stack from there).
        hidden -= public_cards(state)
        if state.outcome is not None:
            break
        shown = json.dumps([list(transition.events)]
                           + [E.view(state, viewer) for viewer in [None, *range(players)]])
        assert state.seed not in shown
        faces = faces_in(json.loads(shown))
        for card in hidden:
            steps_hidden[card] += 1
            assert card_face(card) not in faces
            assert CARD_CODE[card] not in shown
        # Nothing below a discard top or inside a Set is ever shown.
        buried = {c for d in state.discards for c in d[:-1]} | {c for s in state.sets for c in s}
        shown_now = {face_key(f) for f in faces_in(
            [E.view(state, viewer) for viewer in [None, *range(players)]])}
        assert not shown_now & {face_key(card_face(c)) for c in buried}
    assert state.outcome is not None
    assert all(steps_hidden[card] >= 5 for card in planted), "the planted cards were tested"
    # At the end every pile is revealed in order, with the seed.
    for viewer in [None, *range(players)]:
        view = E.view(state, viewer)
        revealed = view["revealed"]
        assert revealed["seed"] == seed
        assert revealed["sets"] == [[card_face(c) for c in p] for p in state.sets]
        assert revealed["discards"] == [[card_face(c) for c in p] for p in state.discards]
        assert revealed["stacks"] == [[card_face(c) for c in p] for p in state.stacks]
        every = faces_in([revealed["sets"], revealed["discards"], revealed["stacks"]])
        assert len({face_key(f) for f in every}) == 30 * players


def test_view_shows_counts_tops_and_legal_moves_only() -> None:
    state = build(2, sets=[[(GREEN, BLUE), (BEIGE, GREEN)], [(GREEN, RED)]],
                  discards=[[(PURPLE, BLUE), (RED, PURPLE)], [(BLUE, GREEN)]],
                  stacks=STACKS_RED_ORANGE, to_move=0, first_seat=0, budget_left=2)
    view = E.view(state, 0)
    assert view["seats"][0] == {"seat": 0, "set_count": 2, "discard_count": 2, "cards_left": 4,
                                "discard_top": {"set": 0, "frame": RED, "circle": PURPLE},
                                "forfeited": False}
    assert view["stacks"][1] == {"top": {"set": 3, "frame": RED, "circle": ORANGE},
                                 "height": 1}
    assert view["to_move"] == [0] and view["budget_left"] == 2 and view["mode"] == "turns"
    assert view["legal_moves"] == [FLIP, RETURN, place(0), END_TURN]
    assert E.view(state, 1)["legal_moves"] == []
    assert "legal_moves" not in E.view(state, None)
    assert "revealed" not in view and view["outcome"] is None
    assert faces_in(view["seats"]) == [{"set": 0, "frame": RED, "circle": PURPLE},
                                       {"set": 1, "frame": BLUE, "circle": GREEN}]
    race = E.view(E.initial_state(num_players=3, config={"mode": "race"}, seed="v"), None)
    assert race["to_move"] == [0, 1, 2] and race["budget_left"] is None
    assert "round" not in race


def test_state_round_trips_and_system_step_is_none() -> None:
    state = E.initial_state(num_players=4, config={"mode": "turns", "budget": 4}, seed="rt")
    data = json.loads(json.dumps(E.dump(state)))
    assert E.load(data) == state
    assert E.system_step(state) is None
    assert "frame_counts" not in data


def test_the_server_can_end_a_stalled_race() -> None:
    state = E.initial_state(num_players=3, config={"mode": "race"}, seed="stalled")
    state, _ = play(state, 0, FLIP)
    transition = E.end_stalemate(state)
    outcome = transition.state.outcome
    assert outcome.reason == "stalemate" and outcome.scores == (29, 29, 29)
    assert outcome.ranks == (1, 1, 1)
    assert transition.events[-1]["type"] == "match_ended"
    with pytest.raises(GameOver):
        E.end_stalemate(transition.state)
