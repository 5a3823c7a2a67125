"""Nimble bots: legal moves everywhere, reproducible choices, level 3's time, a smoke arena, the
look-ahead model against the engine, and no use of hidden information."""

from __future__ import annotations

import copy
import random
import time

import pytest

from games.bots.arena import run_arena
from games.bots.nimble import (
    NIMBLE_POLICIES,
    SearchBudget,
    candidate_moves,
    greedy_policy,
    legal_moves,
    make_search_policy,
    search_move,
)
from games.bots.nimble_sim import (
    END,
    FLIP,
    PLACE0,
    RECYCLE,
    RETURN,
    move_int,
    move_json,
    sim_from_view,
)
from games.engines.base import apply_checked
from games.engines.nimble import CARD_CIRCLE, CARD_FRAME, NIMBLE, card_of, with_piles

E = NIMBLE
TABLES = [(players, mode) for players in (2, 3, 4) for mode in ("turns", "race")]
LEVELS = (1, 2, 3)


def _play(state, seat: int, move: dict):
    return apply_checked(E, state, seat, E.parse_move(move)).state


def positions(players: int, mode: str, seed: str, count: int, every: int = 3):
    """``(state, seat)`` for an acting seat, taken along a playout by a mix of levels 1 and 2 (a
    seat forfeits part-way in 3-4 player matches, so positions with a seat out are covered)."""
    state = E.initial_state(num_players=players, config={"mode": mode}, seed=seed)
    rng = random.Random(seed)
    found = []
    step = 0
    while E.outcome(state) is None and len(found) < count and step < 5000:
        if players > 2 and step == 40 and (players - 1) not in state.forfeited:
            state = E.forfeit(state, players - 1).state
            continue
        actors = sorted(E.actors(state))
        seat = actors[step % len(actors)]
        if step % every == 0:
            found.append((state, seat))
        level = 1 if rng.random() < 0.3 else 2
        state = _play(state, seat, NIMBLE_POLICIES[level](E.view(state, seat), seat, rng))
        step += 1
    return found


@pytest.fixture(scope="module")
def table_positions():
    return {(players, mode): positions(players, mode, f"bots-{players}-{mode}", 40)
            for players, mode in TABLES}


# --------------------------------------------------------------------------- legality


@pytest.mark.parametrize(("players", "mode"), TABLES)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_a_legal_move(table_positions, players, mode, level):
    chosen = set()
    for number, (state, seat) in enumerate(table_positions[(players, mode)]):
        if level == 3 and number % 3:
            continue  # level 3 is slower; every third position is plenty
        move = NIMBLE_POLICIES[level](E.view(state, seat), seat, random.Random(number))
        _play(state, seat, move)  # raises unless the engine accepts it
        chosen.add(move["action"])
    assert chosen


@pytest.mark.parametrize(("players", "mode"), TABLES)
def test_legal_moves_rebuilt_from_a_view_without_them(table_positions, players, mode):
    for state, seat in table_positions[(players, mode)]:
        for viewer in range(players):
            view = E.view(state, viewer)
            expected = view.pop("legal_moves")
            assert legal_moves(view, viewer) == expected
            assert legal_moves(E.view(state, viewer), viewer) == expected
            for other in range(players):  # another seat's view: rebuilt, not the viewer's list
                assert legal_moves(E.view(state, viewer), other) == [
                    E.dump_move(m) for m in E.legal_moves(state, other)]
        assert legal_moves(E.view(state, None), seat) == [
            E.dump_move(m) for m in E.legal_moves(state, seat)]


def test_a_seat_without_a_move_is_refused():
    state = E.initial_state(num_players=2, config={"mode": "turns"}, seed="idle")
    idle = 1 - sorted(E.actors(state))[0]
    for level in LEVELS:
        with pytest.raises(ValueError):
            NIMBLE_POLICIES[level](E.view(state, idle), idle, random.Random(0))


# --------------------------------------------------------------------------- level 2


def _position(*, top, circles, set_count=5, discard_count=3, budget_left=3, mode="turns"):
    """Seat 0 to move in a two-player turn match with the given discard top (frame, circle) and
    stack circles."""
    state = E.initial_state(num_players=2, config={"mode": mode}, seed="greedy")
    pool = [card_of(0, f, c) for f in ("red", "orange", "beige", "light_blue", "green",
                                        "purple")
            for c in ("red", "orange", "beige", "light_blue", "green", "purple") if f != c]
    top_card = card_of(0, *top) if top else None
    rest = [card for card in pool if card != top_card]
    stacks = []
    for number, circle in enumerate(circles):
        frame = [c for c in ("red", "orange", "beige") if c != circle][number % 2]
        stacks.append((card_of(1, frame, circle),))
    discard = tuple(rest[:discard_count - 1]) + ((top_card,) if top_card is not None else ())
    other_set = tuple(c for c in state.sets[1] if (c,) not in stacks)
    sets = (tuple(rest[discard_count:discard_count + set_count]), other_set)
    return with_piles(state, sets=sets, discards=(discard, ()), stacks=tuple(stacks),
                      to_move=0 if mode == "turns" else None, first_seat=0,
                      budget_left=budget_left if mode == "turns" else 0)


def test_level_2_places_when_it_can_and_flips_otherwise():
    rng = random.Random(0)
    fits = _position(top=("green", "red"), circles=("beige", "green", "green"))
    assert greedy_policy(E.view(fits, 0), 0, rng) == {"action": "place", "stack": 1}
    stuck = _position(top=("green", "red"), circles=("beige", "orange", "purple"))
    assert greedy_policy(E.view(stuck, 0), 0, rng) == {"action": "flip"}
    empty_set = _position(top=("green", "red"), circles=("beige", "orange", "purple"),
                          set_count=0)
    assert greedy_policy(E.view(empty_set, 0), 0, rng) == {"action": "recycle"}
    spent = _position(top=("green", "red"), circles=("beige", "green", "purple"), budget_left=0)
    assert greedy_policy(E.view(spent, 0), 0, rng) == {"action": "place", "stack": 1}
    race = _position(top=("green", "red"), circles=("beige", "orange", "purple"), mode="race")
    assert greedy_policy(E.view(race, 0), 0, rng) == {"action": "flip"}


def test_placements_of_one_card_are_one_candidate():
    moves = [FLIP, RETURN, PLACE0 + 1, PLACE0 + 2, END]
    assert candidate_moves(moves) == [FLIP, RETURN, END, PLACE0 + 1]
    assert [move_int(move_json(m)) for m in (FLIP, RETURN, RECYCLE, END, PLACE0 + 2)] == [
        FLIP, RETURN, RECYCLE, END, PLACE0 + 2]


# --------------------------------------------------------------------------- reproducible


@pytest.mark.parametrize("level", LEVELS)
def test_same_view_and_seed_give_the_same_move(table_positions, level):
    for players, mode in TABLES:
        for number, (state, seat) in enumerate(table_positions[(players, mode)][::8]):
            view = E.view(state, seat)
            untouched = copy.deepcopy(view)
            first = NIMBLE_POLICIES[level](view, seat, random.Random(f"seed-{number}"))
            again = NIMBLE_POLICIES[level](copy.deepcopy(view), seat,
                                           random.Random(f"seed-{number}"))
            assert first == again
            assert view == untouched  # the policy does not write into the view


# --------------------------------------------------------------------------- hidden cards


def _replant(state, rng: random.Random):
    """The same public position with every Set and every buried discard reshuffled (and cards
    swapped between a seat's Set and its buried discard): only what nobody sees differs."""
    sets, discards = [], []
    for set_pile, discard in zip(state.sets, state.discards, strict=True):
        hidden = list(set_pile) + list(discard[:-1])
        rng.shuffle(hidden)
        sets.append(tuple(hidden[:len(set_pile)]))
        discards.append(tuple(hidden[len(set_pile):]) + discard[-1:])
    return with_piles(state, sets=tuple(sets), discards=tuple(discards))


@pytest.mark.parametrize("level", LEVELS)
def test_hidden_cards_never_change_a_move(table_positions, level):
    rng = random.Random(level)
    checked = 0
    for players, mode in TABLES:
        for number, (state, seat) in enumerate(table_positions[(players, mode)][::6]):
            other = _replant(state, rng)
            if (other.sets, other.discards) == (state.sets, state.discards):
                continue
            view, other_view = E.view(state, seat), E.view(other, seat)
            assert view == other_view
            for seed in range(2):
                assert NIMBLE_POLICIES[level](view, seat, random.Random(seed)) == \
                    NIMBLE_POLICIES[level](other_view, seat, random.Random(seed)), (number, seed)
            checked += 1
    assert checked >= 10


def test_determinisations_keep_what_the_view_shows(table_positions):
    for players, mode in TABLES:
        for state, seat in table_positions[(players, mode)][::5]:
            view = E.view(state, seat)
            for seed in range(3):
                world = sim_from_view(view, random.Random(seed),
                                      discard_match=SearchBudget().discard_match)
                for s, info in enumerate(view["seats"]):
                    assert len(world.sets[s]) == info["set_count"]
                    assert len(world.discards[s]) == info["discard_count"]
                    if info["discard_top"]:
                        assert world.discards[s][-1] == state.discards[s][-1]
                    cards = world.sets[s] + world.discards[s]
                    assert len(set(cards)) == len(cards)
                    assert all(card // 30 == s for card in cards)
                    assert not set(cards) & {stack[-1] for stack in state.stacks}
                assert world.circles == [CARD_CIRCLE[stack[-1]] for stack in state.stacks]


# --------------------------------------------------------------------------- the model


@pytest.mark.parametrize(("players", "mode"), TABLES)
def test_the_look_ahead_model_follows_the_engine(players, mode):
    """Random legal moves played on the engine and on :class:`Sim` (given the true hidden
    cards) keep both in the same position until the match ends."""
    for game in range(4):
        seed = f"sim-{players}-{mode}-{game}"
        state = E.initial_state(num_players=players, config={"mode": mode}, seed=seed)
        rng = random.Random(seed)
        hidden = {s: (list(state.sets[s]), list(state.discards[s][:-1]))
                  for s in range(players)}
        sim = sim_from_view(E.view(state, None), hidden=hidden)
        for step in range(600):
            if E.outcome(state) is not None:
                break
            actors = sorted(E.actors(state))
            seat = actors[step % len(actors)]
            engine_moves = [E.dump_move(m) for m in E.legal_moves(state, seat)]
            assert [move_json(m) for m in sim.legal(seat)] == engine_moves
            # Mostly greedy, so matches reach their end, with random moves mixed in.
            if rng.random() < 0.5:
                move = rng.choice(engine_moves)
            else:
                move = greedy_policy(E.view(state, seat), seat, rng)
            state = _play(state, seat, move)
            sim.play(seat, move_int(move))
            assert sim.sets == [list(p) for p in state.sets]
            assert sim.discards == [list(p) for p in state.discards]
            assert sim.circles == [CARD_CIRCLE[s[-1]] for s in state.stacks]
            assert sim.over == (E.outcome(state) is not None)
            if not sim.over and mode == "turns":
                assert (sim.to_move, sim.budget_left, sim.round, sim.idle_rounds) == (
                    state.to_move, state.budget_left, state.round, state.idle_rounds)
        outcome = E.outcome(state)
        if outcome is not None and outcome.reason == "finished":
            assert outcome.ranks[sim.winner] == 1


# --------------------------------------------------------------------------- level 3


def test_level_3_thinks_within_its_budget(table_positions):
    policy = NIMBLE_POLICIES[3]
    times = []
    for players, mode in TABLES:
        for number, (state, seat) in enumerate(table_positions[(players, mode)][::4]):
            started = time.perf_counter()
            policy(E.view(state, seat), seat, random.Random(number))
            times.append(time.perf_counter() - started)
    assert max(times) < 2.0
    assert sum(times) / len(times) < 0.1


def test_level_3_stops_at_its_time_limit(table_positions):
    hasty = make_search_policy(SearchBudget(samples=10_000, max_seconds=0.05))
    state, seat = table_positions[(2, "turns")][5]
    started = time.perf_counter()
    move = hasty(E.view(state, seat), seat, random.Random(0))
    assert time.perf_counter() - started < 1.0
    _play(state, seat, move)


def test_level_3_keeps_the_greedy_move_without_a_clear_gain():
    # One legal move: nothing to search.
    spent = _position(top=("green", "red"), circles=("beige", "orange", "purple"),
                      budget_left=0, set_count=3)
    view = E.view(spent, 0)
    assert view["legal_moves"] == [{"action": "end_turn"}]
    move, means = search_move(view, 0, random.Random(0), SearchBudget())
    assert move == END and list(means) == [END]
    # A placement that fits is kept: the search finds nothing clearly better.
    fits = _position(top=("green", "red"), circles=("beige", "green", "purple"))
    move, means = search_move(E.view(fits, 0), 0, random.Random(0), SearchBudget())
    assert move == PLACE0 + 1
    assert set(means) == {FLIP, RETURN, END, PLACE0 + 1}
    assert CARD_FRAME[fits.discards[0][-1]] == CARD_CIRCLE[fits.stacks[1][-1]]


# --------------------------------------------------------------------------- arena


def test_smoke_arena():
    result = run_arena("nimble", 2, 1, games=4, config={"mode": "turns"}, seed="smoke")
    assert result.games == 4 and result.wins_a >= 3
    result = run_arena("nimble", 3, 2, games=2, config={"mode": "turns"}, seed="smoke")
    assert result.games == 2 and result.think_seconds[3]
    result = run_arena("nimble", 3, 1, games=2, config={"mode": "race"}, seed="smoke")
    assert result.games == 2
