"""Property tests over random Nimalia games for 1-4 players and both round counts."""

from __future__ import annotations

import dataclasses
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.kit.protocol import apply_checked, events_for
from games.nimalia.cards import CARD_IDS
from games.nimalia.engine import NIMALIA, SOLO_TITLES, Place, State, Undo

PROPERTY_SETTINGS = settings(max_examples=30, deadline=None,
                             suppress_health_check=[HealthCheck.too_slow])

SENTINEL = "SEED-SENTINEL"
seeds = st.text(max_size=12).map(lambda text: f"{text}-{SENTINEL}")
games = st.tuples(st.integers(1, 4), st.sampled_from([4, 5]), seeds, st.integers(0, 2**32),
                  st.sampled_from(["random", "easy", "hard", "first_game"]))


def _play(players: int, rounds: int, seed: str, choices: int, selection: str, check=None):
    """Play a random game; ``check(before, seat, move, transition)`` runs at every step."""
    rng = random.Random(choices)
    state = NIMALIA.initial_state(num_players=players, config={"rounds": rounds,
                                                               "objectives": selection},
                                  seed=seed)
    moves = []
    while NIMALIA.outcome(state) is None:
        actors = sorted(NIMALIA.actors(state))
        if not actors:
            transition = NIMALIA.system_step(state)
            seat = move = None
        else:
            seat = rng.choice(actors)
            move = rng.choice(NIMALIA.legal_moves(state, seat))
            transition = apply_checked(NIMALIA, state, seat, move)
        moves.append((seat, move))
        if check is not None:
            check(state, seat, move, transition)
        state = transition.state
    return state, moves


@PROPERTY_SETTINGS
@given(games)
def test_every_dealt_card_is_placed_once_or_discarded(game) -> None:
    players, rounds, seed, choices, selection = game
    state, _ = _play(players, rounds, seed, choices, selection)
    placed = [p.card for reserve in state.reserves for p in reserve]
    dealt = sorted(set(CARD_IDS) - set(state.deck))
    assert sorted(placed + list(state.discards)) == dealt
    assert all(len(reserve) == 3 * rounds for reserve in state.reserves)
    if players == 1:
        assert len(state.discards) == 6 * rounds
        assert NIMALIA.outcome(state).reason == "solo_finished"
    else:
        assert state.discards == ()
        assert len(dealt) == 3 * rounds * players


@PROPERTY_SETTINGS
@given(games)
def test_scores_are_never_negative(game) -> None:
    def check(before: State, seat, move, transition) -> None:
        assert all(total >= 0 for total in transition.state.totals)
        for event in transition.events:
            if event["type"] == "round_scored":
                assert all(total >= 0 for total in event["totals"])

    state, _ = _play(*game, check=check)
    outcome = NIMALIA.outcome(state)
    assert all(score >= 0 for score in outcome.scores)
    assert outcome.scores == tuple(state.totals)
    if game[0] == 1:
        title = NIMALIA.view(state, 0)["outcome"]["title"]
        assert title in SOLO_TITLES


def _strangers(state: State, seat: int) -> State:
    """``state`` with everything ``seat`` may not see replaced by something else."""
    rng = random.Random(f"{seat}:{state.turn}:{state.round}")
    unused = [c for c in CARD_IDS if c not in state.hands[seat]]
    rng.shuffle(unused)
    hands = list(state.hands)
    pending = list(state.pending)
    for other in range(state.num_players):
        if other == seat:
            continue
        hands[other] = tuple(sorted(unused[:len(hands[other])]))
        unused = unused[len(hands[other]):]
        if pending[other] is not None:
            pending[other] = Place(unused.pop(), 0, 0, rng.choice((0, 90, 180, 270)))
    return dataclasses.replace(state, hands=tuple(hands), pending=tuple(pending),
                               deck=tuple(rng.sample(state.deck, len(state.deck))),
                               seed=state.seed + "-changed")


@settings(PROPERTY_SETTINGS, max_examples=12)
@given(games)
def test_hidden_hands_and_pending_placements_stay_hidden(game) -> None:
    players = game[0]

    def check(before: State, seat, move, transition) -> None:
        after = transition.state
        if NIMALIA.outcome(after) is not None:
            return
        for viewer in [None, *range(players)]:
            view = NIMALIA.view(after, viewer)
            # What a viewer sees does not change when what it may not see changes.
            if viewer is not None:
                assert NIMALIA.view(_strangers(after, viewer), viewer) == view
            text = json.dumps(view)
            assert SENTINEL not in text
            for event in events_for(transition.events, viewer):
                assert event.get("private_to", viewer) == viewer
                if "private_to" not in event:
                    # A public event never names a card in a hand or a pending placement.
                    hidden = {p.card for p in after.pending if p is not None}
                    hidden.update(card for hand in after.hands for card in hand)
                    assert not hidden & set(event.get("cards", ()))
                    assert event.get("card") not in hidden
        if isinstance(move, Place | Undo):
            for other in range(players):
                if other != seat:
                    seen = events_for(transition.events, other)
                    assert not any("card" in e and e.get("seat") == seat for e in seen
                                   if e["type"] != "placements_revealed")

    _play(*game, check=check)


@PROPERTY_SETTINGS
@given(games)
def test_same_seed_and_moves_same_end(game) -> None:
    players, rounds, seed, choices, selection = game
    state, moves = _play(players, rounds, seed, choices, selection)
    again = NIMALIA.initial_state(num_players=players,
                                  config={"rounds": rounds, "objectives": selection}, seed=seed)
    for seat, move in moves:
        if seat is None:
            again = NIMALIA.system_step(again).state
        else:
            again = apply_checked(NIMALIA, again, seat, NIMALIA.parse_move(
                json.loads(json.dumps(NIMALIA.dump_move(move))))).state
    assert NIMALIA.dump(again) == NIMALIA.dump(state)
    assert NIMALIA.outcome(again) == NIMALIA.outcome(state)
    assert NIMALIA.load(json.loads(json.dumps(NIMALIA.dump(state)))) == state
