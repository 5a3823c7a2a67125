"""Nimalia bots: legal moves for 1 to 4 players, reproducible choices, level 3 within budget, no
hidden information, and the level 3 bitboard scorers equal to the engine's. Strength is measured
by ``bot_arena`` (docs/bots.md), not here."""

from __future__ import annotations

import dataclasses
import functools
import random
import time

import pytest

from games.catalog import game
from games.kit.arena import run_arena
from games.kit.protocol import apply_checked, events_for
from games.nimalia.bots import NIMALIA_POLICIES, fast, greedy_policy, random_policy
from games.nimalia.bots.core import Position, objective_weights, place, weighted_points
from games.nimalia.bots.deep import LEVEL4, deep_move, remembered
from games.nimalia.bots.search import DEFAULT_CONFIG, SearchConfig, search_policy
from games.nimalia.engine import NIMALIA, State
from games.nimalia.grid import legal_anchors, visible_squares
from games.nimalia.scoring import objective_points

LEVELS = sorted(NIMALIA_POLICIES)
# Level 4's search with a tenth of its work, for the check over many positions that its move
# never depends on the hidden cards: where the move comes from does not depend on how long it
# searches; its full budget is checked on fewer positions in tests/bots/test_level4.py.
LIGHT_LEVEL4 = functools.partial(
    deep_move, config=dataclasses.replace(LEVEL4, seconds=600.0, budget=LEVEL4.budget // 10))


def random_positions(players: int, seed: str, every: int = 1) -> list[tuple[State, int]]:
    """(state, seat) for every seat the match waits for, along one random match."""
    rng = random.Random(seed)
    state = NIMALIA.initial_state(num_players=players, config={}, seed=seed)
    found = []
    step = 0
    while NIMALIA.outcome(state) is None:
        if not NIMALIA.actors(state):
            state = NIMALIA.system_step(state).state
            continue
        for seat in sorted(NIMALIA.must_act(state)):
            if step % every == 0:
                found.append((state, seat))
            step += 1
            move = rng.choice(NIMALIA.legal_moves(state, seat))
            state = NIMALIA.apply(state, seat, move).state
    return found


def play(state: State, seat: int, policy, seed: int = 0) -> dict:
    return policy(NIMALIA.view(state, seat), seat, random.Random(seed))


def checked(state: State, seat: int, move: dict) -> State:
    """Play ``move`` through the engine's checks (raises on an illegal move)."""
    return apply_checked(NIMALIA, state, seat, NIMALIA.parse_move(move)).state


def grids_of(state: State) -> list[dict]:
    return [visible_squares(p.as_tuple() for p in reserve) for reserve in state.reserves]


def test_registered() -> None:
    assert game("nimalia").policies is NIMALIA_POLICIES
    assert LEVELS == [1, 2, 3, 4]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_levels_1_and_2_play_legal_placements(players: int) -> None:
    for state, seat in random_positions(players, f"legal-{players}"):
        for policy in (random_policy, greedy_policy):
            move = play(state, seat, policy, seed=len(state.history))
            assert set(move) == {"card", "row", "col", "rotation"}
            checked(state, seat, move)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_level_3_plays_legal_placements(players: int) -> None:
    quick = SearchConfig(budget=600)
    for state, seat in random_positions(players, f"legal3-{players}", every=5):
        move = search_policy(NIMALIA.view(state, seat), seat, random.Random(1), quick)
        assert set(move) == {"card", "row", "col", "rotation"}
        checked(state, seat, move)


def test_full_matches_through_the_engine_checks() -> None:
    """Every level plays whole matches; each move passes the engine's checks."""
    for players, levels in ((2, (3, 2)), (3, (1, 2, 3)), (4, (2, 1, 2, 1))):
        state = NIMALIA.initial_state(num_players=players, config={}, seed=f"full-{players}")
        step = 0
        while NIMALIA.outcome(state) is None:
            if not NIMALIA.actors(state):
                state = NIMALIA.system_step(state).state
                continue
            seat = min(NIMALIA.must_act(state))
            state = checked(state, seat, play(state, seat, NIMALIA_POLICIES[levels[seat]], step))
            step += 1
        assert len(state.history) == 5


@pytest.mark.parametrize("level", LEVELS)
def test_undo_only_when_it_is_the_only_move(level: int) -> None:
    state = NIMALIA.initial_state(num_players=2, config={}, seed="undo")
    move = play(state, 0, NIMALIA_POLICIES[level])
    assert "undo" not in move
    state = checked(state, 0, move)
    # Seat 0 now has a pending placement: its only legal move is to take it back.
    assert play(state, 0, NIMALIA_POLICIES[level]) == {"undo": True}
    assert "undo" not in play(state, 1, NIMALIA_POLICIES[level])


@pytest.mark.parametrize("level", LEVELS)
def test_same_view_and_seed_same_move(level: int) -> None:
    positions = random_positions(2, "repeat", every=4)[:8]
    for state, seat in positions:
        view = NIMALIA.view(state, seat)
        first = NIMALIA_POLICIES[level](view, seat, random.Random(42))
        again = NIMALIA_POLICIES[level](NIMALIA.view(state, seat), seat, random.Random(42))
        assert first == again


def _hidden_shuffled(state: State, seat: int, rng: random.Random) -> State:
    """The same view for ``seat`` over different hidden cards: the other hands and the deck
    are dealt again from their pooled cards, and the seed changes."""
    pooled = list(state.deck) + [c for s, hand in enumerate(state.hands) if s != seat
                                 for c in hand]
    hidden = list(pooled)
    while hidden == pooled:
        rng.shuffle(hidden)
    hands = []
    for s, hand in enumerate(state.hands):
        if s == seat:
            hands.append(hand)
        else:
            hands.append(tuple(sorted(hidden[:len(hand)])))
            del hidden[:len(hand)]
    return dataclasses.replace(state, hands=tuple(hands), deck=tuple(hidden),
                               seed=state.seed + "-other")


@pytest.mark.parametrize("players", [2, 4])
def test_moves_ignore_hidden_information(players: int) -> None:
    rng = random.Random(7)
    positions = random_positions(players, f"hidden-{players}", every=3)[:12]
    for state, seat in positions:
        other = _hidden_shuffled(state, seat, rng)
        assert other.hands != state.hands or other.deck != state.deck
        view = NIMALIA.view(state, seat)
        assert NIMALIA.view(other, seat) == view
        for level in LEVELS:
            # Level 4 without its wall-clock safety net, which a loaded machine can reach.
            policy = LIGHT_LEVEL4 if level == 4 else NIMALIA_POLICIES[level]
            assert play(state, seat, policy, 3) == play(other, seat, policy, 3)


def test_level_2_takes_the_best_weighted_placement() -> None:
    for state, seat in random_positions(2, "greedy", every=3)[:10]:
        view = NIMALIA.view(state, seat)
        position = Position.from_view(view, seat)
        weights = objective_weights(position, 0.5)
        grid = position.grids[seat]
        values = {p: weighted_points(weights, place(grid, p), seat, position.grids)
                  for p in position.placements()}
        move = greedy_policy(view, seat, random.Random(0))
        chosen = (move["card"], move["row"], move["col"], move["rotation"])
        assert values[chosen] == max(values.values())


def test_level_3_within_budget() -> None:
    slowest = 0.0
    for players in (2, 4):
        for state, seat in random_positions(players, f"budget-{players}", every=7)[:8]:
            started = time.perf_counter()
            play(state, seat, search_policy)
            slowest = max(slowest, time.perf_counter() - started)
    assert slowest < DEFAULT_CONFIG.seconds


def test_level_3_stops_at_the_wall_clock_safety_net() -> None:
    """A budget far beyond the clock still answers in time, with a legal move."""
    state, seat = random_positions(4, "clock")[4]
    endless = SearchConfig(budget=10**9, samples=10**6, seconds=0.3)
    started = time.perf_counter()
    move = search_policy(NIMALIA.view(state, seat), seat, random.Random(0), endless)
    assert time.perf_counter() - started < 1.0
    checked(state, seat, move)


def _match_with_events(players: int, seed: str):
    """(state, seat, history of that seat) for every seat the match waits for, along one
    random match."""
    rng = random.Random(seed)
    state = NIMALIA.initial_state(num_players=players, config={}, seed=seed)
    events: list[dict] = []
    while NIMALIA.outcome(state) is None:
        if not NIMALIA.actors(state):
            transition = NIMALIA.system_step(state)
        else:
            seat = min(NIMALIA.must_act(state))
            yield state, seat, events_for(events, seat)
            transition = NIMALIA.apply(state, seat, rng.choice(NIMALIA.legal_moves(state, seat)))
        events.extend(transition.events)
        state = transition.state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_level_4_remembers_the_hands_it_passed(players: int) -> None:
    """The hands level 4 knows are exactly the cards it passed, less those placed since; the
    cards it counts as out of play were all placed."""
    known_hands = 0
    for state, seat, history in _match_with_events(players, f"memory-{players}"):
        known, placed = remembered(NIMALIA.view(state, seat), seat, history)
        assert seat not in known
        for other, cards in known.items():
            pending = state.pending[other]
            held = state.hands[other] + ((pending.card,) if pending is not None else ())
            assert cards == tuple(sorted(held))
            known_hands += 1
        on_boards = {p.card for reserve in state.reserves for p in reserve}
        assert placed == on_boards
    # From the second turn of every round (the first round's deal has no event, so its
    # second turn is not known): every seat knows the next seat's hand.
    assert known_hands >= players * 5


def test_level_4_with_two_players_knows_every_hand_from_the_second_round_on() -> None:
    for state, seat, history in _match_with_events(2, "memory-two"):
        view = NIMALIA.view(state, seat)
        known, _ = remembered(view, seat, history)
        if view["turn"] >= 2 and (view["round"] >= 2 or view["turn"] == 3):
            assert set(known) == {1 - seat}
        if view["turn"] == 1:
            assert not known


def test_level_4_plays_legal_placements_with_its_history() -> None:
    quick = dataclasses.replace(LEVEL4, budget=3_000)
    for players in (1, 2, 3):
        for number, (state, seat, history) in enumerate(
                _match_with_events(players, f"legal4-{players}")):
            if number % 4:
                continue
            move = deep_move(NIMALIA.view(state, seat), seat, random.Random(number), history,
                             quick)
            checked(state, seat, move)


def test_level_4_stops_at_the_process_time_safety_net() -> None:
    """A budget far beyond the safety net still answers in time, with a legal move."""
    state, seat = random_positions(4, "clock4")[4]
    endless = dataclasses.replace(LEVEL4, budget=10**9, samples=10**6, seconds=0.3)
    started = time.process_time()
    move = deep_move(NIMALIA.view(state, seat), seat, random.Random(0), (), endless)
    assert time.process_time() - started < 1.0
    checked(state, seat, move)


def test_smoke_arena() -> None:
    result = run_arena("nimalia", 3, 1, games=2, seed="smoke")
    assert result.games == 2
    assert len(result.score_diffs) == 2
    assert result.think_seconds[3] and result.think_seconds[1]


# --------------------------------------------------------------------------- bitboards


def test_bitboard_scorers_match_the_engine() -> None:
    rng = random.Random(11)
    checked_grids = 0
    for players in (2, 3, 4):
        for state, _ in random_positions(players, f"fast-{players}", every=4):
            grids = grids_of(state)
            frames = [fast.Frame(grid) for grid in grids]
            boards = [frame.board(grid) for frame, grid in zip(frames, grids, strict=True)]
            for oid in range(1, 23):
                assert fast.objective_points(oid, boards) == objective_points(oid, grids), oid
            for frame, grid, board in zip(frames, grids, boards, strict=True):
                anchors = sorted(frame.cell(bit) for bit in fast.anchors(board, frame.bit(0, 0)))
                assert anchors == sorted(legal_anchors(grid))
                for row, col in rng.sample(anchors, min(3, len(anchors))):
                    card, rotation = rng.randrange(1, 61), rng.choice((0, 90, 180, 270))
                    after = fast.place(board, card, rotation, frame.bit(row, col))
                    assert after == frame.board(place(grid, (card, row, col, rotation)))
            checked_grids += len(grids)
    assert checked_grids > 100


def test_bitboard_frame_holds_every_reachable_cell() -> None:
    """Cards placed as far as the 6 x 6 limit allows, up-left then down-right, stay in frame."""
    for grid in ({}, {(0, 0): None, (0, 1): None, (1, 0): None, (1, 1): None},
                 {(r, c): None for r in range(-2, 4) for c in range(3, 9)}):
        frame = fast.Frame(grid)
        rows = [r for r, _ in grid] or [0, 1]
        cols = [c for _, c in grid] or [0, 1]
        for row in range(max(rows) - 5, min(rows) + 6):
            for col in range(max(cols) - 5, min(cols) + 6):
                bit = frame.bit(row, col)
                assert 1 <= bit // fast.W <= fast.ROWS - 2
                assert 1 <= bit % fast.W <= fast.W - 2
