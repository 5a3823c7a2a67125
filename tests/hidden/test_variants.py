"""The hidden variants agree with everything the viewer was shown, including the event log:
the cards a Nimble seat has seen keep their places, and a Nimalia seat's passed hands stay with
the seats that hold them."""

from __future__ import annotations

import random

from games.kit.protocol import apply_checked, events_for
from games.nimalia.engine import NIMALIA, Place
from games.nimble.engine import NIMBLE, card_face


def _play(engine, state, seat, data, log):
    transition = apply_checked(engine, state, seat, engine.parse_move(data))
    log.extend(transition.events)
    return transition.state


def test_nimble_keeps_every_card_it_has_shown_and_shuffles_only_the_rest() -> None:
    log: list[dict] = []
    state = NIMBLE.initial_state(num_players=2, config={"mode": "race"}, seed="kept")
    state = _play(NIMBLE, state, 0, {"action": "flip"}, log)
    state = _play(NIMBLE, state, 0, {"action": "flip"}, log)
    state = _play(NIMBLE, state, 0, {"action": "flip"}, log)
    state = _play(NIMBLE, state, 0, {"action": "return"}, log)
    returned = state.sets[0][-1]
    assert log[-1]["card"] == card_face(returned)
    seen_tops = set()
    for k in range(20):
        variant = NIMBLE.hidden_variant(state, 1, history=events_for(log, 1),
                                        rng=random.Random(k))
        assert variant.sets[0][-1] == returned  # seen: it was flipped, then returned
        assert variant.discards == state.discards  # every discard card came from a flip
        assert variant.stacks == state.stacks
        assert sorted(variant.sets[0]) == sorted(state.sets[0])
        assert sorted(variant.sets[1]) == sorted(state.sets[1])
        seen_tops.add(variant.sets[1][-1])
    assert len(seen_tops) > 3  # the never-flipped Set of seat 1 is reshuffled
    # Without the log the returned card would be taken for an unseen one.
    assert any(NIMBLE.hidden_variant(state, 1, history=(), rng=random.Random(k)).sets[0][-1]
               != returned for k in range(20))


def test_nimble_recycled_sets_are_known_in_full() -> None:
    log: list[dict] = []
    state = NIMBLE.initial_state(num_players=2, config={"mode": "race"}, seed="recycle")
    while state.sets[0]:
        state = _play(NIMBLE, state, 0, {"action": "flip"}, log)
    state = _play(NIMBLE, state, 0, {"action": "recycle"}, log)
    variant = NIMBLE.hidden_variant(state, 0, history=log, rng=random.Random(1))
    assert variant.sets[0] == state.sets[0]


def _first_place(state, seat) -> dict:
    move = NIMALIA.legal_moves(state, seat)[0]
    assert isinstance(move, Place)
    return move.as_dict()


def test_nimalia_hands_a_seat_has_held_stay_where_they_went() -> None:
    log: list[dict] = []
    state = NIMALIA.initial_state(num_players=4, config={}, seed="passing")
    original = state.hands
    for seat in range(4):
        state = _play(NIMALIA, state, seat, _first_place(state, seat), log)
    assert state.turn == 1  # round 1 passes left: seat s now holds what s - 1 held
    seat = 0
    for k in range(20):
        variant = NIMALIA.hidden_variant(state, seat, history=events_for(log, seat),
                                         rng=random.Random(k))
        assert variant.hands[0] == state.hands[0]
        assert variant.hands[1] == state.hands[1]  # what seat 0 passed on
        assert variant.reserves == state.reserves and variant.objectives == state.objectives
    assert set(state.hands[1]) <= set(original[0])
    assert any(NIMALIA.hidden_variant(state, seat, history=(), rng=random.Random(k)).hands[2]
               != state.hands[2] for k in range(20))
    # Seat 1 places face down: seat 0 knows its two cards, not which one it placed or where.
    state = _play(NIMALIA, state, 1, _first_place(state, 1), log)
    variants = [NIMALIA.hidden_variant(state, seat, history=events_for(log, seat),
                                       rng=random.Random(k)) for k in range(20)]
    held = sorted(state.hands[1] + (state.pending[1].card,))
    for variant in variants:
        assert sorted(variant.hands[1] + (variant.pending[1].card,)) == held
        assert variant.pending[0] is None and variant.pending[2] is None
    assert len({variant.pending[1] for variant in variants}) > 1
    # A spectator knows no hand at all.
    spectator = [NIMALIA.hidden_variant(state, None, history=events_for(log, None),
                                        rng=random.Random(k)).hands[0] for k in range(20)]
    assert len(set(spectator)) > 1
