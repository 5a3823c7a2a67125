"""The engine contract every built-in game keeps, run over Nim with the contract's own checks,
and Nim's own rules."""

from __future__ import annotations

import json

import pytest

from games.kit.protocol import (
    GameOver,
    IllegalMove,
    InvalidConfig,
    MalformedMove,
    NotYourTurn,
    apply_checked,
    is_realtime,
    seats_to_act,
)
from tests.engines.test_contract import SEEDS
from tests.engines.test_contract import (
    test_engine_describes_itself as engine_describes_itself,
)
from tests.engines.test_contract import (
    test_every_option_choice_keeps_the_contract as option_keeps_the_contract,
)
from tests.engines.test_contract import (
    test_forfeits_end_the_match_or_let_play_go_on as forfeits_end_the_match_or_let_play_go_on,
)
from tests.engines.test_contract import (
    test_random_playout_keeps_the_contract as random_playout_keeps_the_contract,
)
from tests.fourth_game.nim.engine import NIM, State, Take

pytestmark = pytest.mark.usefixtures("nim")

CASES = [pytest.param(players, seed, id=f"{players}p-{seed[14:16]}")
         for players in range(NIM.min_players, NIM.max_players + 1) for seed in SEEDS]


# --------------------------------------------------------------------------- the contract


@pytest.mark.parametrize(("players", "seed"), CASES)
def test_random_playout_keeps_the_contract(players, seed):
    random_playout_keeps_the_contract(NIM, players, seed)


@pytest.mark.parametrize(("players", "seed"), CASES[::5])
def test_forfeits_end_the_match_or_let_play_go_on(players, seed):
    forfeits_end_the_match_or_let_play_go_on(NIM, players, seed)


# The contract's option variants cover choice options; Nim's options are numbers and a list,
# so their telling values are named here.
VARIANTS = [{"max_take": 1}, {"max_take": 3}, {"heaps": [1]}, {"heaps": [15] * 6},
            {"heaps": [2, 9], "max_take": 4, "first_seat": 1}]


@pytest.mark.parametrize("config", VARIANTS, ids=lambda config: json.dumps(config))
@pytest.mark.parametrize("players", [2, 3])
def test_every_option_keeps_the_contract(config, players):
    for seed in SEEDS[:3]:
        option_keeps_the_contract(NIM, config, players, seed)


def test_engine_describes_itself():
    engine_describes_itself(NIM)


# --------------------------------------------------------------------------- Nim's rules


def start(players=2, **config) -> State:
    return NIM.initial_state(num_players=players, config={"first_seat": 0, **config},
                             seed="nim-rules")


def play(state: State, seat: int, heap: int, count: int) -> State:
    return apply_checked(NIM, state, seat, NIM.parse_move({"heap": heap, "count": count})).state


def test_whoever_takes_the_last_object_wins():
    state = start(heaps=[2, 1])
    state = play(state, 0, 0, 2)
    assert NIM.outcome(state) is None and NIM.actors(state) == {1}
    last = apply_checked(NIM, state, 1, Take(1, 1))
    outcome = NIM.outcome(last.state)
    assert outcome.ranks == (2, 1) and outcome.scores == (2.0, 1.0)
    assert outcome.reason == "last_object"
    assert [event["type"] for event in last.events] == ["objects_taken", "match_ended"]


def test_three_players_take_turns_and_the_losers_share_second_place():
    state = start(players=3, heaps=[3])
    state = play(state, 0, 0, 1)
    state = play(state, 1, 0, 1)
    assert NIM.actors(state) == {2}
    state = play(state, 2, 0, 1)
    assert NIM.outcome(state).ranks == (2, 2, 1)


def test_a_seat_that_leaves_is_skipped_and_ranks_last():
    state = start(players=3, heaps=[5])
    state = NIM.forfeit(state, 0).state
    assert NIM.actors(state) == {1} and NIM.outcome(state) is None
    state = play(state, 1, 0, 1)
    assert NIM.actors(state) == {2}
    state = play(state, 2, 0, 4)
    assert NIM.outcome(state).ranks == (3, 2, 1)
    with pytest.raises(GameOver):
        NIM.forfeit(state, 1)


@pytest.mark.parametrize(("move", "rule"), [
    ({"heap": 3, "count": 1}, "nim.no_such_heap"),
    ({"heap": -1, "count": 1}, "nim.no_such_heap"),
    ({"heap": 0, "count": 0}, "nim.take_at_least_one"),
    ({"heap": 0, "count": 4}, "nim.not_enough"),
    ({"heap": 2, "count": 3}, "nim.too_many"),
])
def test_illegal_takes_name_their_rule(move, rule):
    state = start(heaps=[3, 4, 5], max_take=2)
    with pytest.raises(IllegalMove) as caught:
        NIM.validate(state, 0, NIM.parse_move(move))
    assert caught.value.rule == rule


@pytest.mark.parametrize("data", [
    None, [], {"heap": 0}, {"heap": 0, "count": 1, "more": 1}, {"heap": "0", "count": 1},
    {"heap": 0, "count": True}, {"heap": 0, "count": 1.5},
])
def test_malformed_moves_are_refused(data):
    with pytest.raises(MalformedMove):
        NIM.parse_move(data)


def test_the_wrong_seat_may_not_move():
    with pytest.raises(NotYourTurn):
        apply_checked(NIM, start(), 1, Take(0, 1))


@pytest.mark.parametrize(("players", "config", "option"), [
    (2, {"heaps": []}, "heaps"),
    (2, {"heaps": [0]}, "heaps"),
    (2, {"heaps": [16]}, "heaps"),
    (2, {"heaps": [1] * 7}, "heaps"),
    (2, {"heaps": "3,4,5"}, "heaps"),
    (2, {"max_take": 0}, "max_take"),
    (2, {"first_seat": 2}, "first_seat"),
    (3, {"first_seat": 3}, "first_seat"),
    (2, {"speed": "fast"}, "speed"),
])
def test_options_the_engine_refuses(players, config, option):
    with pytest.raises(InvalidConfig) as caught:
        NIM.initial_state(num_players=players, config=config, seed="s")
    assert caught.value.extra["option"] == option


@pytest.mark.parametrize("players", [1, 4])
def test_two_or_three_players(players):
    with pytest.raises(InvalidConfig):
        NIM.initial_state(num_players=players, config={}, seed="s")


def test_the_take_limit_bounds_the_legal_moves_and_the_view():
    state = start(heaps=[1, 5], max_take=3)
    assert NIM.legal_moves(state, 0) == [Take(0, 1), Take(1, 1), Take(1, 2), Take(1, 3)]
    assert NIM.view(state, 0)["legal_moves"] == {"most": [1, 3]}
    assert "legal_moves" not in NIM.view(state, 1)
    assert NIM.legal_moves(state, 1) == []


def test_the_first_seat_comes_from_the_seed_unless_given():
    firsts = {NIM.initial_state(num_players=3, config={}, seed=f"s{n}").to_move
              for n in range(30)}
    assert firsts == {0, 1, 2}
    again = NIM.initial_state(num_players=3, config={"first_seat": None}, seed="s7")
    assert again == NIM.initial_state(num_players=3, config={}, seed="s7")


def test_the_seed_shows_only_once_the_match_is_over():
    state = start(heaps=[1])
    assert "nim-rules" not in json.dumps(NIM.view(state, None))
    over = play(state, 0, 0, 1)
    assert NIM.view(over, None)["seed"] == "nim-rules"
    assert NIM.view(over, 1)["outcome"]["winners"] == [0]


def test_turns_only_never_real_time_so_never_an_idle_stalemate():
    state = start()
    assert NIM.must_act(state) == NIM.actors(state) == seats_to_act(NIM, state)
    assert NIM.is_realtime(state) is False and is_realtime(NIM, state) is False
    with pytest.raises(NotImplementedError):
        NIM.end_stalemate(state)


@pytest.mark.parametrize("change", [
    {"heaps": [9, 4, 5]},
    {"taken": [1, 0]},
    {"to_move": 2},
    {"winner": 0},
    {"reason": "bored", "winner": 0},
    {"reason": "forfeit"},
    {"left": [0, 0]},
])
def test_a_broken_stored_state_is_refused(change):
    data = {**NIM.dump(start()), **change}
    with pytest.raises(ValueError):
        NIM.load(data)
