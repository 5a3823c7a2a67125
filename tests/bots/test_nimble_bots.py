"""Nimble bots: legal moves everywhere (with and without a history), reproducible choices, hidden
cards never change a move, level 3's memory rebuilt from the events, the look-ahead model against
the engine, level 3's time, a smoke arena. Strength is measured by ``bot_arena`` (docs/bots.md),
not here."""

from __future__ import annotations

import copy
import dataclasses
import random
import time

import pytest

from games.catalog import game as game_spec
from games.kit.arena import play_match, run_arena
from games.kit.protocol import apply_checked, events_for
from games.nimble.bots import (
    LEVEL4_BUDGET,
    NIMBLE_POLICIES,
    PlanBudget,
    candidate_moves,
    greedy_policy,
    legal_moves,
    make_memory_policy,
    plan_move,
    race_stalled,
    use_deep,
)
from games.nimble.bots.deep import _TurnSearch, deep_values, score_two, turn_key, turn_moves
from games.nimble.bots.memory import reconstruct, start_counts, world_from_memory
from games.nimble.bots.plan import finish_round, finish_turn, own_moves, score, stall_cost
from games.nimble.bots.sim import (
    END,
    FLIP,
    PLACE0,
    RECYCLE,
    RETURN,
    move_int,
    move_json,
    sim_from_view,
)
from games.nimble.engine import CARD_CIRCLE, CARD_FRAME, NIMBLE, card_face, card_of, with_piles

E = NIMBLE
TABLES = [(players, mode) for players in (2, 3, 4) for mode in ("turns", "race")]
LEVELS = (1, 2, 3, 4)
# Level 4's budget without its wall-clock safety net (which a loaded machine can reach): a search
# then depends on the fixed amount of work only.
UNCAPPED = dataclasses.replace(LEVEL4_BUDGET, max_seconds=600.0)
# Level 4's search, as many sampled worlds, a tenth of its work: for the checks over many
# positions of what its move may depend on. Where its move comes from (the view and the seat's
# history, never the hidden cards) does not depend on how long it searches; its full budget is
# checked on fewer positions in tests/bots/test_level4.py.
LIGHT = dataclasses.replace(UNCAPPED, max_nodes=LEVEL4_BUDGET.max_nodes // 10,
                            deep_nodes=LEVEL4_BUDGET.deep_nodes // 10)


def _play(state, seat: int, move: dict):
    return apply_checked(E, state, seat, E.parse_move(move)).state


def _move(level: int, state, seat: int, rng: random.Random, history: list) -> dict:
    return game_spec("nimble").choose_move(level, E.view(state, seat), seat, rng, history=history)


def _fixed_work_move(level: int, state, seat: int, rng: random.Random, history: list) -> dict:
    """:func:`_move`, level 4 decided by a fixed budget alone whatever the machine's load (the
    ``LIGHT`` one)."""
    if level != 4:
        return _move(level, state, seat, rng, history)
    return make_memory_policy(LIGHT)(E.view(state, seat), seat, rng, history=history)


def playout(players: int, mode: str, seed: str, count: int, every: int = 3,
            config: dict | None = None):
    """``(state, seat, history)`` for an acting seat and the events it was shown so far, taken
    along a match played by a mix of levels 1, 2 and 3 (a seat forfeits part-way in 3-4 player
    matches, so positions with a seat out are covered)."""
    state = E.initial_state(num_players=players, config={"mode": mode, **(config or {})},
                            seed=seed)
    histories: dict[int, list] = {s: [] for s in range(players)}

    def record(events) -> None:
        for s, history in histories.items():
            history.extend(events_for(events, s))

    rng = random.Random(seed)
    found = []
    step = 0
    while E.outcome(state) is None and len(found) < count and step < 5000:
        if players > 2 and step == 40 and (players - 1) not in state.forfeited:
            transition = E.forfeit(state, players - 1)
            record(transition.events)
            state = transition.state
            continue
        actors = sorted(E.actors(state))
        seat = actors[step % len(actors)]
        if step % every == 0:
            found.append((state, seat, list(histories[seat])))
        roll = rng.random()
        level = 1 if roll < 0.25 else 3 if roll < 0.45 else 2
        transition = apply_checked(E, state, seat, E.parse_move(
            _move(level, state, seat, rng, histories[seat])))
        record(transition.events)
        state = transition.state
        step += 1
    return found


@pytest.fixture(scope="module")
def table_positions():
    return {(players, mode): playout(players, mode, f"bots-{players}-{mode}", 40)
            for players, mode in TABLES}


# --------------------------------------------------------------------------- legality


@pytest.mark.parametrize(("players", "mode"), TABLES)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_a_legal_move(table_positions, players, mode, level):
    chosen = set()
    for number, (state, seat, history) in enumerate(table_positions[(players, mode)]):
        move = _move(level, state, seat, random.Random(number), history)
        _play(state, seat, move)  # raises unless the engine accepts it
        chosen.add(move["action"])
    assert chosen


@pytest.mark.parametrize(("players", "mode"), TABLES)
def test_level_3_plays_legally_without_a_usable_history(table_positions, players, mode):
    """No history, a history missing its start, a history with junk in it: level 3 still plays
    a legal move (it falls back to level 2 when the events do not lead to the view)."""
    policy = NIMBLE_POLICIES[3]
    for number, (state, seat, history) in enumerate(table_positions[(players, mode)][::2]):
        view = E.view(state, seat)
        for broken in ((), history[1:], history[:-1], [*history, {"type": "flipped"}],
                       [None, 7, "x", {}, *history], [{"type": "recycled", "seat": "0"}]):
            _play(state, seat, policy(view, seat, random.Random(number), history=broken))
        _play(state, seat, policy(view, seat, random.Random(number)))  # no history argument


@pytest.mark.parametrize(("players", "mode"), TABLES)
def test_legal_moves_rebuilt_from_a_view_without_them(table_positions, players, mode):
    for state, seat, _ in table_positions[(players, mode)]:
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


def test_only_levels_3_and_4_ask_for_the_history():
    assert [game_spec("nimble").needs_history(level)
            for level in LEVELS] == [False, False, True, True]


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
def test_same_view_history_and_seed_give_the_same_move(table_positions, level):
    for players, mode in TABLES:
        for number, (state, seat, history) in enumerate(table_positions[(players, mode)][::8]):
            view = E.view(state, seat)
            untouched = copy.deepcopy((view, history))
            first = _move(level, state, seat, random.Random(f"seed-{number}"), history)
            again = game_spec("nimble").choose_move(
                level, copy.deepcopy(view), seat, random.Random(f"seed-{number}"),
                history=copy.deepcopy(history))
            assert first == again
            assert (view, history) == untouched  # the policy writes into neither


# --------------------------------------------------------------------------- hidden cards


def _replant(state, never_seen: list[int], rng: random.Random):
    """The same public position with the cards nobody has seen reshuffled: the bottom
    ``never_seen[s]`` cards of each Set. The view and every event so far stay the same."""
    sets = []
    for set_pile, count in zip(state.sets, never_seen, strict=True):
        bottom = list(set_pile[:count])
        rng.shuffle(bottom)
        sets.append(tuple(bottom) + set_pile[count:])
    return with_piles(state, sets=tuple(sets))


@pytest.mark.parametrize("level", LEVELS)
def test_hidden_cards_never_change_a_move(table_positions, level):
    rng = random.Random(level)
    checked = 0
    for players, mode in TABLES:
        for number, (state, seat, history) in enumerate(table_positions[(players, mode)][::4]):
            memory = reconstruct(E.view(state, seat), history)
            assert memory is not None
            other = _replant(state, [m.hidden for m in memory.seats], rng)
            if other.sets == state.sets:
                continue
            view, other_view = E.view(state, seat), E.view(other, seat)
            assert view == other_view
            for seed in range(2):
                assert _fixed_work_move(level, state, seat, random.Random(seed), history) == \
                    _fixed_work_move(level, other, seat, random.Random(seed), history), \
                    (number, seed)
            checked += 1
    assert checked >= 10


# --------------------------------------------------------------------------- memory


def test_start_cards_follow_the_dealing_order():
    assert start_counts(2, 0) == [2, 1] and start_counts(2, 1) == [1, 2]
    assert start_counts(3, 2) == [1, 1, 1]
    assert start_counts(4, 1) == [0, 1, 1, 1]


@pytest.mark.parametrize(("players", "mode"), TABLES)
def test_memory_knows_every_discard_and_the_known_part_of_every_set(table_positions, players,
                                                                    mode):
    for state, seat, history in table_positions[(players, mode)]:
        memory = reconstruct(E.view(state, seat), history)
        assert memory is not None
        for s, known in enumerate(memory.seats):
            assert known.discard == list(state.discards[s])
            assert known.hidden + len(known.set_top) == len(state.sets[s])
            assert list(state.sets[s][known.hidden:]) == known.set_top
            assert set(state.sets[s][:known.hidden]) <= set(memory.unseen[s])


def test_memory_after_a_known_sequence_of_events():
    """Flips, a return, placements and a recycle: the seat knows its discard order below the top,
    the card it put back on its Set, and after the recycle its whole Set in order."""
    state = E.initial_state(num_players=2, config={"mode": "turns"}, seed="memory")
    seat = state.to_move
    history: list = []

    def act(move: dict) -> None:
        nonlocal state
        transition = apply_checked(E, state, seat, E.parse_move(move))
        history.extend(events_for(transition.events, seat))
        state = transition.state

    # Empty history at the start of the match: nothing known but the counts.
    memory = reconstruct(E.view(state, seat), [])
    assert memory is not None and memory.seats[seat].discard == []
    assert memory.seats[seat].hidden == len(state.sets[seat])
    act({"action": "flip"})
    act({"action": "flip"})
    act({"action": "flip"})
    flipped = [event["card"] for event in history if event["type"] == "flipped"]
    memory = reconstruct(E.view(state, seat), history)
    assert [card_face(c) for c in memory.seats[seat].discard] == flipped
    assert memory.seats[seat].discard == list(state.discards[seat])
    # The other seat passes; this seat puts its discard top back on its Set.
    while state.to_move != seat:
        transition = apply_checked(E, state, state.to_move, E.parse_move({"action": "end_turn"}))
        history.extend(events_for(transition.events, seat))
        state = transition.state
    act({"action": "return"})
    memory = reconstruct(E.view(state, seat), history)
    assert memory.seats[seat].set_top == [state.sets[seat][-1]]
    assert memory.seats[seat].discard == list(state.discards[seat])
    # Play on (the other seat passes) until this seat has taken its discard back.
    rng = random.Random(1)
    while E.outcome(state) is None and not any(
            e["type"] == "recycled" and e["seat"] == seat for e in history):
        mover = state.to_move
        move = greedy_policy(E.view(state, mover), mover, rng) if mover == seat else {
            "action": "end_turn"}
        transition = apply_checked(E, state, mover, E.parse_move(move))
        history.extend(events_for(transition.events, seat))
        state = transition.state
    assert E.outcome(state) is None
    memory = reconstruct(E.view(state, seat), history)
    assert memory.fully_known(seat)
    assert memory.seats[seat].set_top == list(state.sets[seat])
    assert memory.seats[seat].discard == list(state.discards[seat])


def test_memory_refuses_a_history_that_does_not_lead_to_the_view(table_positions):
    state, seat, history = table_positions[(2, "turns")][-1]
    view = E.view(state, seat)
    assert reconstruct(view, history) is not None
    assert reconstruct(view, []) is None  # mid-match: the history cannot be empty
    assert reconstruct(view, history[1:]) is None
    flips = [i for i, event in enumerate(history) if event["type"] == "flipped"]
    assert reconstruct(view, history[:flips[-1]] + history[flips[-1] + 1:]) is None
    assert reconstruct(view, [*history, {"type": "flipped", "seat": 0, "card": None}]) is None


def test_worlds_keep_what_the_seat_remembers(table_positions):
    for players, mode in TABLES:
        for state, seat, history in table_positions[(players, mode)][::5]:
            view = E.view(state, seat)
            memory = reconstruct(view, history)
            for seed in range(3):
                world = world_from_memory(view, memory, random.Random(seed))
                for s, known in enumerate(memory.seats):
                    assert world.discards[s] == list(state.discards[s])
                    assert len(world.sets[s]) == len(state.sets[s])
                    assert world.sets[s][known.hidden:] == known.set_top
                    assert set(world.sets[s][:known.hidden]) <= set(memory.unseen[s])
                    cards = world.sets[s] + world.discards[s]
                    assert len(set(cards)) == len(cards)
                    assert all(card // 30 == s for card in cards)
                    assert not set(cards) & {card for stack in state.stacks for card in stack[1:]}
                assert world.circles == [CARD_CIRCLE[stack[-1]] for stack in state.stacks]
                assert world.placed_this_round == (
                    mode == "turns" and state.placed_this_round)


def test_level_3_digs_for_a_buried_card_it_remembers():
    """Where the discard top does not fit but the card below it does, level 2 flips; level 3
    mostly returns the top to place the card below (it may still flip when that is better)."""
    counts = {"return": 0, "other": 0}
    for game in range(3):
        state = E.initial_state(num_players=2, config={"mode": "turns"}, seed=f"dig-{game}")
        histories: dict[int, list] = {0: [], 1: []}
        step = 0
        while E.outcome(state) is None:
            seat = state.to_move
            discard = state.discards[seat]
            circles = {CARD_CIRCLE[stack[-1]] for stack in state.stacks}
            move = _move(3, state, seat, random.Random(step), histories[seat])
            if len(discard) >= 2 and CARD_FRAME[discard[-1]] not in circles and \
                    CARD_FRAME[discard[-2]] in circles and state.budget_left:
                counts["return" if move["action"] == "return" else "other"] += 1
            transition = apply_checked(E, state, seat, E.parse_move(move))
            for s, history in histories.items():
                history.extend(events_for(transition.events, s))
            state = transition.state
            step += 1
    assert counts["return"] >= 10 and counts["return"] > counts["other"]


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
    times = []
    for players, mode in TABLES:
        for number, (state, seat, history) in enumerate(table_positions[(players, mode)][::2]):
            started = time.perf_counter()
            _move(3, state, seat, random.Random(number), history)
            times.append(time.perf_counter() - started)
    assert max(times) < 2.0
    assert sum(times) / len(times) < 0.05


def test_level_3_within_its_budget_with_six_actions_a_turn():
    positions = playout(4, "turns", "six", 30, every=2, config={"budget": 6})
    times = []
    for number, (state, seat, history) in enumerate(positions):
        started = time.perf_counter()
        _move(3, state, seat, random.Random(number), history)
        times.append(time.perf_counter() - started)
    assert max(times) < 2.0


def test_level_3_stops_at_its_time_limit(table_positions):
    hasty = make_memory_policy(PlanBudget(worlds=10_000, max_nodes=10**9, max_seconds=0.05))
    for players, mode in ((2, "turns"), (2, "race")):
        state, seat, history = table_positions[(players, mode)][5]
        started = time.perf_counter()
        move = hasty(E.view(state, seat), seat, random.Random(0), history=history)
        assert time.perf_counter() - started < 1.0
        _play(state, seat, move)


def test_level_3_with_one_candidate_plays_it_without_searching():
    spent = _position(top=("green", "red"), circles=("beige", "orange", "purple"),
                      budget_left=0, set_count=3)
    view = E.view(spent, 0)
    assert view["legal_moves"] == [{"action": "end_turn"}]
    assert plan_move(view, 0, random.Random(0), [], PlanBudget()) == (END, {})


def test_a_race_without_placements_falls_back_to_level_2():
    flips = [{"type": "flipped", "seat": 0, "card": card_face(0)}] * 80
    assert race_stalled(flips)
    assert not race_stalled(flips[:79])
    assert not race_stalled([*flips, {"type": "placed"}])


# --------------------------------------------------------------------------- arena


def test_smoke_arena():
    result = run_arena("nimble", 2, 1, games=4, config={"mode": "turns"}, seed="smoke")
    assert result.games == 4 and result.wins_a >= 3
    result = run_arena("nimble", 3, 2, games=2, config={"mode": "turns"}, seed="smoke")
    assert result.games == 2 and result.think_seconds[3]
    result = run_arena("nimble", 3, 1, games=2, config={"mode": "race"}, seed="smoke")
    assert result.games == 2
    for players, mode in ((3, "turns"), (4, "race")):
        levels = {seat: 3 if seat % 2 else 2 for seat in range(players)}
        outcome = play_match("nimble", levels, f"smoke-{players}", {"mode": mode})
        assert outcome is not None


# --------------------------------------------------------------------------- level 4


def _known_positions(count: int) -> list:
    """Two-player turn positions in which the seat to act knows every card of both seats."""
    found = []
    for k in range(8):
        for state, seat, history in playout(2, "turns", f"known-{k}", 300, every=2):
            memory = reconstruct(E.view(state, seat), history)
            if memory is not None and all(memory.fully_known(s) for s in range(2)):
                found.append((state, seat, history))
        if len(found) >= count:
            break
    return found[:count]


def test_level_4_searches_whole_turns_once_every_card_is_known():
    positions = _known_positions(4)
    assert len(positions) == 4
    for number, (state, seat, history) in enumerate(positions):
        view = E.view(state, seat)
        memory = reconstruct(view, history)
        assert memory is not None and use_deep(view, memory, LEVEL4_BUDGET)
        moves = candidate_moves([move_int(m) for m in view["legal_moves"]])
        values, depth = deep_values(view, seat, memory, random.Random(number), UNCAPPED, moves)
        assert 2 <= depth <= LEVEL4_BUDGET.deep_turns
        assert set(values) == set(moves)
        assert deep_values(view, seat, memory, random.Random(number), UNCAPPED,
                           moves) == (values, depth)
        _play(state, seat, _move(4, state, seat, random.Random(number), history))


def test_a_turn_search_lists_every_way_a_turn_can_end():
    state, seat, history = _known_positions(1)[0]
    view = E.view(state, seat)
    memory = reconstruct(view, history)
    assert memory is not None
    world = world_from_memory(view, memory, None)
    search = _TurnSearch(seat, LEVEL4_BUDGET, 10**9, time.perf_counter() + 600)
    ends = search.turn_ends(world, seat)
    keys = [turn_key(end, seat) for _, end in ends]
    assert len(keys) == len(set(keys))
    assert all(end.over or end.to_move != seat for _, end in ends)
    assert all(first in candidate_moves(world.legal(seat)) for first, _ in ends)
    greedy = world.copy()
    finish_turn(greedy, seat)
    assert turn_key(greedy, seat) in keys


def test_level_4_searches_whole_turns_only_with_two_players_in_turns(table_positions):
    for (players, mode), positions in table_positions.items():
        state, seat, history = positions[-1]
        view = E.view(state, seat)
        memory = reconstruct(view, history)
        assert memory is not None
        if players != 2 or mode != "turns":
            assert not use_deep(view, memory, LEVEL4_BUDGET)
    assert not use_deep(view, memory, PlanBudget())


def _unseen_positions(count: int) -> list:
    """Two-player turn positions in which the seat to act may flip and its next flip turns up
    a card it has never seen."""
    found = []
    for k in range(8):
        for state, seat, history in playout(2, "turns", f"unseen-{k}", 300, every=2):
            view = E.view(state, seat)
            memory = reconstruct(view, history)
            if (memory is not None and view["budget_left"] and memory.seats[seat].hidden
                    and not memory.seats[seat].set_top
                    and {"action": "flip"} in view["legal_moves"]):
                found.append((state, seat, history))
        if len(found) >= count:
            break
    return found[:count]


def test_the_turn_search_moves_and_score_are_the_planners(table_positions):
    """The whole-turn search lists a seat's moves and scores a position exactly as level 3's
    planner does (``turn_moves``, ``score_two``: the same, built directly for speed), and a
    copy for one seat's actions leaves the position it was copied from unchanged."""
    checked = 0
    for state, seat, history in table_positions[(2, "turns")]:
        view = E.view(state, seat)
        memory = reconstruct(view, history)
        assert memory is not None
        world = world_from_memory(view, memory, random.Random(checked))
        for last in (None, FLIP, RETURN, END):
            assert turn_moves(world, seat, last) == own_moves(world, seat, last)
        for s in (0, 1):
            lead = world.cards_left(1 - s) - world.cards_left(s)
            cost = stall_cost(world, lead, LEVEL4_BUDGET)
            if cost:
                assert score_two(world, s, LEVEL4_BUDGET) == pytest.approx(
                    score(world, s, LEVEL4_BUDGET) - cost, abs=1e-9)
            else:
                assert score_two(world, s, LEVEL4_BUDGET) == score(world, s, LEVEL4_BUDGET)
        before = world.copy()
        for move in turn_moves(world, seat, None):
            child = world.copy_for(seat)
            child.play(seat, move)
            whole = world.copy()
            whole.play(seat, move)
            assert (child.sets, child.discards, child.counts, child.circles, child.to_move,
                    child.budget_left) == (whole.sets, whole.discards, whole.counts,
                                           whole.circles, whole.to_move, whole.budget_left)
        assert (world.sets, world.discards, world.counts, world.circles) == (
            before.sets, before.discards, before.counts, before.circles)
        checked += 1
    assert checked >= 10


def _other_seat_to_move(count: int) -> list:
    """Worlds of known two-player turn positions played on to the other seat's turn (the seat
    to act ends its turn greedily), with that seat."""
    found = []
    for number, (state, seat, history) in enumerate(_known_positions(count)):
        view = E.view(state, seat)
        memory = reconstruct(view, history)
        assert memory is not None
        world = world_from_memory(view, memory, random.Random(number))
        finish_turn(world, seat)
        if not world.over:
            found.append((world, seat))
    return found


def _outlook(end, mover: int) -> float:
    """How a player who plans only its own turn values the end of it: its score once the other
    seat has answered with a greedy turn."""
    probe = end.copy()
    finish_round(probe, mover)
    return score(probe, mover, LEVEL4_BUDGET)


def test_level_4_expects_the_other_seat_to_plan_its_own_turn():
    """Level 4's search plays the other seat's turn as a player who plans its own turn would:
    the way to end it that scores best for that seat once level 4 has answered greedily (level
    3's outlook), not the one worst for level 4."""
    differs = 0
    positions = _other_seat_to_move(6)
    assert len(positions) >= 4
    for world, seat in positions:
        other = 1 - seat
        search = _TurnSearch(seat, LEVEL4_BUDGET, 10**9, time.perf_counter() + 600)
        ends = [end for _, end in search.turn_ends(world, other)]
        chosen = search.planned_turn(world, other)
        assert turn_key(chosen, other) in {turn_key(end, other) for end in ends}
        assert _outlook(chosen, other) == max(_outlook(end, other) for end in ends)
        worst = min(ends, key=lambda end: score_two(end, seat, LEVEL4_BUDGET))
        differs += turn_key(chosen, other) != turn_key(worst, other)
    assert differs >= 1


def test_a_search_expecting_a_planner_values_every_move_at_least_as_high_as_minimax():
    """The planner's turn is one of the turns the minimax search lets the other seat choose
    from, so with the same worlds and depth no first action is worth less to level 4."""
    minimax = dataclasses.replace(LEVEL4_BUDGET, deep_opponent="worst")
    checked = 0
    for state, seat, history in _known_positions(4):
        view = E.view(state, seat)
        memory = reconstruct(view, history)
        assert memory is not None
        world = world_from_memory(view, memory, None)
        moves = candidate_moves(world.legal(seat))
        for turns in (2, 3):
            values = {}
            for budget in (minimax, LEVEL4_BUDGET):
                search = _TurnSearch(seat, budget, 10**9, time.perf_counter() + 600)
                values[budget.deep_opponent] = search.root_values(world, turns, moves)
            assert all(values["planner"][move] >= values["worst"][move] - 1e-9
                       for move in moves)
            checked += 1
    assert checked == 8


def test_level_4_counts_rounds_without_a_placement_against_the_seat_behind():
    """A stalemate is won on fewer cards left, so level 4's search scores a seat behind on cards
    lower the more rounds in a row have passed without a placement: next to nothing after one,
    nearly the stalemate's loss at the cap, nothing once someone placed in the round. A seat
    level or ahead, and level 3's score, do not count them."""
    state = _position(top=("red", "green"), circles=("orange", "beige", "purple"))
    view = E.view(state, 0)
    ahead, behind = sorted((0, 1), key=lambda seat: view["seats"][seat]["cards_left"])
    assert view["seats"][ahead]["cards_left"] < view["seats"][behind]["cards_left"]
    values = []
    for idle in range(view["stall_cap"]):
        world = sim_from_view({**view, "idle_rounds": idle}, random.Random(0))
        values.append((score_two(world, behind, LEVEL4_BUDGET),
                       score_two(world, ahead, LEVEL4_BUDGET),
                       score(world, behind, LEVEL4_BUDGET)))
        world.placed_this_round = True
        assert score_two(world, behind, LEVEL4_BUDGET) == values[0][0]
    behind_values = [value for value, _, _ in values]
    assert behind_values == sorted(behind_values, reverse=True)
    assert len(set(behind_values)) == len(behind_values)
    assert behind_values[0] - behind_values[1] < 0.5
    half_win = LEVEL4_BUDGET.win / 2
    assert behind_values[0] - behind_values[-1] > 0.6 * half_win
    assert behind_values[-1] > behind_values[0] - half_win
    assert len({ahead for _, ahead, _ in values}) == 1
    assert len({planner for _, _, planner in values}) == 1
    assert stall_cost(world, -1, PlanBudget()) == 0


def test_level_4_searches_whole_turns_before_every_card_is_known():
    for number, (state, seat, history) in enumerate(_unseen_positions(2)):
        view = E.view(state, seat)
        memory = reconstruct(view, history)
        assert memory is not None and use_deep(view, memory, LEVEL4_BUDGET)
        moves = candidate_moves([move_int(m) for m in view["legal_moves"]])
        values, depth = deep_values(view, seat, memory, random.Random(number), UNCAPPED, moves)
        assert depth >= 2 and set(values) == set(moves)
        _play(state, seat, _move(4, state, seat, random.Random(number), history))
