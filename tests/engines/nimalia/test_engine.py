"""Scenario tests for the Nimalia engine: set-up, options, placements, undo, reveals, passing,
round scoring, the solo variant, forfeits, outcomes and views."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from games.kit.protocol import (
    GameOver,
    IllegalMove,
    InvalidConfig,
    MalformedMove,
    NotYourTurn,
    apply_checked,
    events_for,
    seats_to_act,
)
from games.nimalia.cards import CARD_IDS, CARDS
from games.nimalia.engine import (
    NIMALIA,
    SOLO_THRESHOLDS,
    SOLO_TITLES,
    Place,
    State,
    Undo,
    solo_title,
)
from games.nimalia.grid import legal_anchors, visible_squares
from games.nimalia.objectives import COLOURS, FIRST_GAME, OBJECTIVES
from tests.engines.nimalia.helpers import new_state, with_reserves


def play(state: State, seat: int, move) -> State:
    return apply_checked(NIMALIA, state, seat, move).state


def place_first_cards(state: State, first: dict[int, Place] | None = None) -> State:
    """Every seat places its first hand card (or the given placement)."""
    for seat in range(state.num_players):
        move = (first or {}).get(seat) or NIMALIA.legal_moves(state, seat)[0]
        state = play(state, seat, move)
    return state


def random_game(players: int, seed: str, **config) -> tuple[State, list]:
    """A whole game of random legal moves (with the odd undo); the state and the events."""
    rng = random.Random(seed)
    state = new_state(players, seed, **config)
    events: list = []
    while NIMALIA.outcome(state) is None:
        actors = sorted(NIMALIA.actors(state))
        if not actors:
            transition = NIMALIA.system_step(state)
        else:
            seat = rng.choice(actors)
            transition = apply_checked(NIMALIA, state, seat,
                                       rng.choice(NIMALIA.legal_moves(state, seat)))
        events.extend(transition.events)
        state = transition.state
    return state, events


# --------------------------------------------------------------------------- set-up and options


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_set_up_deals_three_cards_per_seat_from_the_seeded_deck(players) -> None:
    state = new_state(players)
    assert [len(hand) for hand in state.hands] == [3] * players
    dealt = [card for hand in state.hands for card in hand]
    assert sorted(dealt + list(state.deck)) == list(CARD_IDS)
    assert len(state.deck) == 60 - 3 * players
    assert state == new_state(players)
    assert state.deck != new_state(players, seed="another seed").deck
    assert NIMALIA.actors(state) == frozenset(range(players))
    assert [OBJECTIVES[i].colour for i in state.objectives] == list(COLOURS)
    assert (state.rounds, state.tie_break) == (5, "most_of_one_species")


@pytest.mark.parametrize(("players", "config"), [
    (0, {}), (5, {}), (2, {"rounds": 3}), (2, {"rounds": "5"}), (2, {"turns": 3}),
    (2, {"tie_break": "coin_toss"}),
    (2, {"objectives": "medium"}),
    (2, {"objectives": [4, 5, 16]}),                 # three ids
    (2, {"objectives": [4, 5, 16, 23]}),             # unknown id
    (2, {"objectives": [4, 5, 16, True]}),
    (2, {"objectives": [4, 5, 8, 19]}),              # two greens, no red
    (2, {"objectives": [3, 4, 22, 13]}),             # 3 and 4 share a card
    (2, {"objectives": [4, 5, 13, 14]}),             # 13 and 14 share a card
    (2, {"objectives": {"yellow": 4}}),
    (2, {"objectives": 4}),
    (1, {"objectives": [4, 5, 16, 19]}),             # solo cannot compare players
    (1, {"objectives": [4, 5, 20, 22]}),
])
def test_invalid_configs(players, config) -> None:
    with pytest.raises(InvalidConfig):
        NIMALIA.initial_state(num_players=players, config=config, seed="s")


def test_explicit_objectives_are_kept_in_colour_order() -> None:
    state = new_state(2, objectives=[16, 19, 5, 4])
    assert state.objectives == (4, 5, 19, 16)
    assert new_state(1, objectives=[13, 22, 11, 10]).objectives == (10, 11, 22, 13)


@pytest.mark.parametrize(("selection", "levels"), [
    ("random", {"E", "M", "D"}), ("easy", {"E", "M"}), ("hard", {"M", "D"})])
def test_objective_selections(selection, levels) -> None:
    seen = set()
    for n in range(60):
        chosen = new_state(3, seed=f"pick-{n}", objectives=selection).objectives
        assert {OBJECTIVES[i].level for i in chosen} <= levels
        assert len({OBJECTIVES[i].card for i in chosen}) == 4
        seen.update(chosen)
    assert len(seen) > 10   # the draw varies with the seed
    assert new_state(2, objectives="first_game").objectives == (4, 5, 19, 16)
    assert FIRST_GAME == (4, 5, 16, 19)


@pytest.mark.parametrize("selection", ["random", "easy", "hard", "first_game"])
def test_solo_never_draws_objectives_that_compare_players(selection) -> None:
    for n in range(30):
        chosen = new_state(1, seed=f"solo-{n}", objectives=selection).objectives
        assert not any(OBJECTIVES[i].compares for i in chosen)
        assert chosen[COLOURS.index("red")] == 13
        assert 14 not in chosen   # the other side of 13
    assert new_state(1, objectives="first_game").objectives == (4, 5, 19, 13)


# --------------------------------------------------------------------------- move syntax


@pytest.mark.parametrize("data", [
    None, [], "undo", {}, {"undo": False}, {"undo": 1}, {"undo": True, "card": 1},
    {"card": 1, "row": 0, "col": 0},
    {"card": 1, "row": 0, "col": 0, "rotation": 45},
    {"card": 1, "row": 0, "col": 0, "rotation": 0, "flip": True},
    {"card": 0, "row": 0, "col": 0, "rotation": 0},
    {"card": 61, "row": 0, "col": 0, "rotation": 0},
    {"card": "1", "row": 0, "col": 0, "rotation": 0},
    {"card": 1, "row": True, "col": 0, "rotation": 0},
    {"card": 1, "row": 0.0, "col": 0, "rotation": 0},
    {"card": 1, "row": 100, "col": 0, "rotation": 0},
    {"card": 1, "row": 0, "col": -1000, "rotation": 0},
])
def test_malformed_moves(data) -> None:
    with pytest.raises(MalformedMove):
        NIMALIA.parse_move(data)


def test_moves_round_trip() -> None:
    for data in ({"card": 7, "row": -3, "col": 5, "rotation": 270}, {"undo": True}):
        move = NIMALIA.parse_move(data)
        assert NIMALIA.dump_move(move) == data
    assert NIMALIA.parse_move({"undo": True}) == Undo()
    assert NIMALIA.parse_move({"card": 7, "row": -3, "col": 5, "rotation": 90}) == Place(
        7, -3, 5, 90)


# --------------------------------------------------------------------------- placement rules


def test_the_first_card_goes_anywhere_and_is_stored_at_the_origin() -> None:
    state = new_state(2)
    card = state.hands[0][0]
    state = play(state, 0, Place(card, 7, -4, 90))
    assert state.pending[0] == Place(card, 0, 0, 90)
    assert NIMALIA.legal_moves(new_state(2), 0) == [
        Place(c, 0, 0, r) for c in new_state(2).hands[0] for r in (0, 90, 180, 270)]


def _seat0_with_reserve(placements, hand=(50, 51, 52)) -> State:
    state = new_state(2)
    state = with_reserves(state, [placements, [(40, 0, 0, 0)]])
    return dataclasses.replace(state, hands=(tuple(hand), state.hands[1]))


def test_later_cards_must_cover_a_square() -> None:
    state = _seat0_with_reserve([(1, 0, 0, 0)])
    for row, col in [(0, 2), (2, 0), (-2, 0), (0, -2), (2, 2), (-2, -2), (5, 5)]:
        with pytest.raises(IllegalMove) as error:
            NIMALIA.validate(state, 0, Place(50, row, col, 0))
        assert error.value.rule == "nimalia.no_overlap"
    for row, col in [(0, 0), (1, 1), (-1, -1), (1, -1), (-1, 1), (0, 1), (1, 0)]:
        NIMALIA.validate(state, 0, Place(50, row, col, 180))


def test_three_squares_can_be_covered_across_two_cards() -> None:
    state = _seat0_with_reserve([(1, 0, 0, 0), (2, 1, 1, 0)])   # cells (0..2, 0..2) minus 2
    state = place_first_cards(state, {0: Place(50, 0, 1, 0)})
    assert state.reserves[0][-1] == Place(50, 0, 1, 0)


def test_the_reserve_stays_within_six_by_six() -> None:
    # Three cards side by side: columns 0-5 are used, rows 0-1.
    state = _seat0_with_reserve([(1, 0, 0, 0), (2, 0, 2, 0), (3, 0, 4, 0)])
    for row, col in [(0, 5), (0, -1), (1, 5), (-1, -1)]:
        with pytest.raises(IllegalMove) as error:
            NIMALIA.validate(state, 0, Place(50, row, col, 0))
        assert error.value.rule == "nimalia.exceeds_6x6"
    for row, col in [(0, 4), (1, 0), (-1, 4), (1, 4)]:
        NIMALIA.validate(state, 0, Place(50, row, col, 0))
    # Grow to six rows, then the bottom and top are closed too.
    state = _seat0_with_reserve([(1, 0, 0, 0), (2, 0, 4, 0), (3, 2, 0, 0), (4, 4, 0, 0),
                                 (5, 4, 4, 0)])
    anchors = set(legal_anchors(visible_squares(p.as_tuple() for p in state.reserves[0])))
    # Every anchor in the frame except those whose 2x2 lies in the empty cells.
    empty = {(0, 2), (1, 2), (2, 2), (3, 2), (4, 2), (2, 3), (2, 4)}
    assert anchors == {(r, c) for r in range(5) for c in range(5)} - empty
    for row, col in [(5, 0), (-1, 0), (0, 5), (0, -1)]:
        with pytest.raises(IllegalMove) as error:
            NIMALIA.validate(state, 0, Place(50, row, col, 0))
        assert error.value.rule == "nimalia.exceeds_6x6"


def test_legal_anchors_match_validation() -> None:
    rng = random.Random(3)
    for n in range(12):
        state, _ = random_game(2, f"anchors-{n}")
        for cut in (1, 4, 7, 10, 15):
            reserve = state.reserves[rng.randrange(2)][:cut]
            probe = _seat0_with_reserve([p.as_tuple() for p in reserve])
            legal = {(m.row, m.col) for m in NIMALIA.legal_moves(probe, 0)}
            for row in range(-8, 9):
                for col in range(-8, 9):
                    try:
                        NIMALIA.validate(probe, 0, Place(50, row, col, 0))
                        ok = True
                    except IllegalMove:
                        ok = False
                    assert ok == ((row, col) in legal)


def test_card_not_in_hand_already_placed_and_nothing_to_undo() -> None:
    state = new_state(3)
    other = state.hands[1][0]
    with pytest.raises(IllegalMove) as error:
        NIMALIA.validate(state, 0, Place(other, 0, 0, 0))
    assert error.value.rule == "nimalia.card_not_in_hand"
    with pytest.raises(IllegalMove) as error:
        NIMALIA.validate(state, 0, Undo())
    assert error.value.rule == "nimalia.nothing_to_undo"
    state = play(state, 0, Place(state.hands[0][0], 0, 0, 0))
    with pytest.raises(IllegalMove) as error:
        NIMALIA.validate(state, 0, Place(state.hands[0][0], 0, 0, 0))
    assert error.value.rule == "nimalia.already_placed"
    assert NIMALIA.legal_moves(state, 0) == [Undo()]
    # Still an actor (it may undo), but the turn no longer waits for it.
    assert NIMALIA.actors(state) == frozenset({0, 1, 2})
    assert NIMALIA.must_act(state) == seats_to_act(NIMALIA, state) == frozenset({1, 2})
    assert NIMALIA.view(state, None)["waiting_for"] == [1, 2]


# --------------------------------------------------------------------------- undo and hiding


def test_undo_gives_the_card_back_until_the_last_seat_places() -> None:
    start = new_state(3)
    card = start.hands[0][1]
    state = play(start, 0, Place(card, 0, 0, 0))
    assert card not in state.hands[0]
    state = play(state, 0, Undo())
    assert state == start
    state = play(state, 0, Place(card, 0, 0, 180))
    state = play(state, 1, NIMALIA.legal_moves(state, 1)[0])
    state = play(state, 2, NIMALIA.legal_moves(state, 2)[0])
    assert state.turn == 1 and state.reserves[0] == (Place(card, 0, 0, 180),)
    with pytest.raises(IllegalMove) as error:
        NIMALIA.validate(state, 0, Undo())   # revealed: too late
    assert error.value.rule == "nimalia.nothing_to_undo"


def test_a_pending_placement_is_hidden_from_the_other_seats() -> None:
    state = new_state(3, seed="hidden")
    move = Place(state.hands[0][2], 0, 0, 270)
    transition = apply_checked(NIMALIA, state, 0, move)
    after = transition.state
    for viewer in (1, 2, None):
        seen = events_for(transition.events, viewer)
        assert seen == [{"type": "card_placed", "seat": 0}]
        view = NIMALIA.view(after, viewer)
        assert view["placed"] == [True, False, False]
        assert view["reserves"][0]["squares"] == []
        assert view.get("pending") is None
        assert all(card["id"] not in state.hands[0] for card in view.get("hand", []))
    mine = events_for(transition.events, 0)
    assert {"type": "placement_pending", "seat": 0, **move.as_dict(), "private_to": 0} in mine
    view = NIMALIA.view(after, 0)
    squares = [{"animal": sq.animal, "terrain": sq.terrain, "river": sq.river or None}
               for sq in CARDS[move.card]]
    assert view["pending"] == {**move.as_dict(), "squares": squares}
    assert view["legal_moves"] == {"undo": True, "cards": [], "rotations": [], "anchors": []}
    undone = apply_checked(NIMALIA, after, 0, Undo())
    assert events_for(undone.events, 1) == [{"type": "placement_withdrawn", "seat": 0}]


def test_view_never_shows_other_hands_the_deck_or_the_seed_while_running() -> None:
    state = new_state(4, seed="secret-seed-xyz")
    state = play(state, 2, NIMALIA.legal_moves(state, 2)[5])
    base = NIMALIA.view(state, 0)
    # Change everything seat 0 may not see: the result must be the same view.
    shuffled_deck = tuple(reversed(state.deck))
    other = dataclasses.replace(
        state, seed="another-seed", deck=shuffled_deck,
        hands=(state.hands[0], state.hands[3], state.hands[1][:2], state.hands[1]),
        pending=(None, None, Place(state.hands[1][0], 0, 0, 90), None))
    assert NIMALIA.view(other, 0) == base
    text = json.dumps(base)
    assert "secret-seed-xyz" not in text and '"deck"' not in text
    assert [card["id"] for card in base["hand"]] == list(state.hands[0])


# --------------------------------------------------------------------------- reveal and passing


def _fixed_hands(players: int, hands) -> State:
    return dataclasses.replace(new_state(players), hands=tuple(tuple(h) for h in hands))


def test_hands_pass_left_in_round_one() -> None:
    state = _fixed_hands(3, [(1, 2, 3), (4, 5, 6), (7, 8, 9)])
    state = play(state, 0, Place(1, 0, 0, 0))
    state = play(state, 2, Place(7, 0, 0, 0))
    transition = apply_checked(NIMALIA, state, 1, Place(4, 0, 0, 0))
    state = transition.state
    assert state.hands == ((8, 9), (2, 3), (5, 6))
    assert state.pending == (None, None, None)
    revealed = next(e for e in transition.events if e["type"] == "placements_revealed")
    assert revealed == {"type": "placements_revealed", "round": 1, "turn": 1, "placements": [
        {"seat": 0, "card": 1, "row": 0, "col": 0, "rotation": 0},
        {"seat": 1, "card": 4, "row": 0, "col": 0, "rotation": 0},
        {"seat": 2, "card": 7, "row": 0, "col": 0, "rotation": 0}]}
    assert "private_to" not in revealed
    assert events_for(transition.events, 1)[-1] == {
        "type": "hand", "seat": 1, "cards": [2, 3], "why": "passed", "private_to": 1}
    assert not any(e.get("cards") == [8, 9] for e in events_for(transition.events, 1))


def test_hands_pass_right_in_round_two() -> None:
    state = dataclasses.replace(_fixed_hands(4, [(1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11, 12)]),
                                round=2)
    state = place_first_cards(state, {s: Place(3 * s + 1, 0, 0, 0) for s in range(4)})
    assert state.hands == ((5, 6), (8, 9), (11, 12), (2, 3))


def test_two_players_swap_hands_and_get_their_own_last_card_back() -> None:
    state = _fixed_hands(2, [(1, 2, 3), (4, 5, 6)])
    state = place_first_cards(state, {0: Place(1, 0, 0, 0), 1: Place(4, 0, 0, 0)})
    assert state.hands == ((5, 6), (2, 3))
    state = place_first_cards(state, {0: Place(5, 0, 0, 0), 1: Place(2, 0, 0, 0)})
    assert state.hands == ((3,), (6,))


# --------------------------------------------------------------------------- rounds and scoring


def test_a_round_ends_with_a_system_step_that_scores_and_deals() -> None:
    state = new_state(2, objectives=[6, 3, 8, 13])   # round 1 scores blue 3, then green 8
    for _ in range(3):
        assert NIMALIA.system_step(state) is None
        state = place_first_cards(state)
    assert NIMALIA.actors(state) == frozenset()
    with pytest.raises(NotYourTurn):
        apply_checked(NIMALIA, state, 0, Undo())
    # Put known reserves in place: seat 0 a lone polar bear (card 13), seat 1 a forest.
    state = with_reserves(state, [[(13, 0, 0, 0)], [(20, 0, 0, 0)]])
    transition = NIMALIA.system_step(state)
    scored = transition.events[0]
    assert scored == {"type": "round_scored", "round": 1,
                      "points": {"0": {"3": 0, "8": -1}, "1": {"3": 2, "8": 0}},
                      "totals": [0, 2]}
    state = transition.state
    assert (state.round, state.turn, state.totals) == (2, 0, (0, 2))
    assert [len(hand) for hand in state.hands] == [3, 3]
    assert NIMALIA.actors(state) == frozenset({0, 1})
    started = transition.events[1]
    assert started == {"type": "round_started", "round": 2, "pass_direction": "right",
                       "objectives": [8, 6]}
    assert all(e.get("private_to") == e["seat"] for e in transition.events[2:])
    view = NIMALIA.view(state, 1)
    assert view["scores"]["rounds"][0]["points"]["0"] == {"3": 0, "8": -1}
    assert view["scores"]["by_objective"]["1"] == {"3": 2, "8": 0}
    assert view["scores"]["totals"] == [0, 2]


@pytest.mark.parametrize(("players", "rounds"), [(4, 5), (4, 4), (2, 5), (3, 4)])
def test_whole_games_use_three_cards_per_seat_per_round(players, rounds) -> None:
    state, events = random_game(players, f"whole-{players}-{rounds}", rounds=rounds)
    assert [len(r) for r in state.reserves] == [3 * rounds] * players
    assert len(state.deck) == 60 - 3 * rounds * players
    assert [e["round"] for e in events if e["type"] == "round_scored"] == list(
        range(1, rounds + 1))
    assert state.history[-1].totals == state.totals
    outcome = NIMALIA.outcome(state)
    assert outcome.reason == "finished" and len(outcome.ranks) == players
    assert events[-1]["type"] == "match_ended"
    assert NIMALIA.actors(state) == frozenset() and NIMALIA.system_step(state) is None


def test_solo_deals_three_places_one_and_discards_two_each_turn() -> None:
    state = new_state(1, seed="solo")
    hand = state.hands[0]
    transition = apply_checked(NIMALIA, state, 0, Place(hand[1], 0, 0, 0))
    state = transition.state
    assert state.discards == (hand[0], hand[2])
    assert len(state.hands[0]) == 3 and state.turn == 1
    assert {"type": "cards_discarded", "seat": 0, "cards": [hand[0], hand[2]]} in \
        transition.events
    state, events = random_game(1, "solo")
    assert len(state.reserves[0]) == 15 and len(state.discards) == 30
    outcome = NIMALIA.outcome(state)
    assert outcome.ranks == (1,) and outcome.scores == (state.totals[0],)
    assert outcome.reason == "solo_finished"
    title = solo_title(state.totals[0])
    assert events[-1]["title"] == title
    view = NIMALIA.view(state, 0)
    assert view["outcome"]["title"] == title
    assert view["solo_titles"][0] == {"min_total": 0, "title": SOLO_TITLES[0]}


def test_solo_titles_rise_with_the_score() -> None:
    for rounds, thresholds in SOLO_THRESHOLDS.items():
        assert list(thresholds) == sorted(set(thresholds)) and thresholds[0] == 0
        assert [solo_title(t, rounds) for t in thresholds] == list(SOLO_TITLES)
        assert solo_title(thresholds[3] - 1, rounds) == SOLO_TITLES[2]
    assert solo_title(500) == SOLO_TITLES[-1]


# --------------------------------------------------------------------------- outcome


def _finished(totals, reserves, tie_break="most_of_one_species") -> State:
    state = with_reserves(new_state(len(totals)), reserves)
    return dataclasses.replace(state, totals=tuple(totals), ended="finished",
                               tie_break=tie_break)


def test_highest_total_wins() -> None:
    outcome = NIMALIA.outcome(_finished([10, 30, 20], [[(1, 0, 0, 0)]] * 3))
    assert outcome.ranks == (3, 1, 2) and outcome.scores == (10, 30, 20)


def test_tie_break_most_of_one_species() -> None:
    # Card 33 shows two giraffes; card 1 four different animals.
    outcome = NIMALIA.outcome(_finished([10, 10], [[(1, 0, 0, 0)], [(33, 0, 0, 0)]]))
    assert outcome.ranks == (2, 1)
    outcome = NIMALIA.outcome(_finished([10, 10, 12],
                                        [[(1, 0, 0, 0)], [(3, 0, 0, 0)], [(1, 0, 0, 0)]]))
    assert outcome.ranks == (2, 2, 1)   # still tied: shared place


def test_tie_break_fewest_covered_squares() -> None:
    exactly_on_top = [(1, 0, 0, 0), (2, 0, 0, 0)]   # 4 squares covered
    one_corner = [(1, 0, 0, 0), (2, 1, 1, 0)]       # 1 square covered
    outcome = NIMALIA.outcome(_finished([10, 10], [exactly_on_top, one_corner],
                                        tie_break="fewest_covered_squares"))
    assert outcome.ranks == (2, 1)
    view = NIMALIA.view(_finished([10, 10], [exactly_on_top, one_corner]), None)
    assert [r["covered_squares"] for r in view["reserves"]] == [4, 1]


# --------------------------------------------------------------------------- forfeits


def test_two_player_forfeit_ends_the_match() -> None:
    transition = NIMALIA.forfeit(new_state(2), 1)
    outcome = NIMALIA.outcome(transition.state)
    assert outcome.ranks == (1, 2) and outcome.reason == "forfeit"
    assert transition.events[-1]["type"] == "match_ended"
    assert NIMALIA.actors(transition.state) == frozenset()
    with pytest.raises(GameOver):
        NIMALIA.forfeit(transition.state, 0)


def test_a_seat_that_left_keeps_drafting_and_ranks_last() -> None:
    state = NIMALIA.forfeit(new_state(3, seed="leave"), 1).state
    assert NIMALIA.outcome(state) is None
    assert 1 in NIMALIA.actors(state) and NIMALIA.legal_moves(state, 1)
    assert NIMALIA.forfeit(state, 1).state == state   # leaving twice changes nothing
    rng = random.Random(1)
    while NIMALIA.outcome(state) is None:
        actors = sorted(NIMALIA.actors(state))
        if not actors:
            state = NIMALIA.system_step(state).state
            continue
        seat = rng.choice(actors)
        state = play(state, seat, rng.choice(NIMALIA.legal_moves(state, seat)))
    outcome = NIMALIA.outcome(state)
    assert outcome.reason == "finished" and outcome.ranks[1] == 3
    assert sorted(outcome.ranks[s] for s in (0, 2)) in ([1, 2], [1, 1])


def test_the_last_seat_standing_wins() -> None:
    state = new_state(4)
    for seat in (2, 0):
        state = NIMALIA.forfeit(state, seat).state
    assert NIMALIA.outcome(state) is None
    state = NIMALIA.forfeit(state, 3).state
    assert NIMALIA.outcome(state).ranks == (3, 1, 4, 2)
    assert NIMALIA.outcome(state).reason == "forfeit"


def test_solo_forfeit_ends_the_game() -> None:
    outcome = NIMALIA.outcome(NIMALIA.forfeit(new_state(1), 0).state)
    assert outcome.ranks == (1,) and outcome.reason == "forfeit"


def test_finished_view_reveals_everything() -> None:
    state, _ = random_game(3, "the-end", rounds=4)
    view = NIMALIA.view(state, None)
    assert view["seed"] == "the-end" and view["phase"] == "finished"
    assert view["deck"] == list(state.deck)
    assert len(view["placements"][2]) == 12
    assert view["outcome"] == NIMALIA.outcome(state).as_dict()
