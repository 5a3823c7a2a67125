"""Plans saved during the planner's own turn (openings): kept unseen, pruned by the planner's
move by hand to the line that starts with it, or deleted silently by another move."""

from __future__ import annotations

import pytest

from games.kit.plans import PlanNotYourTurn, PlanUnreachable
from games.models import Move, Plan, UserEvent
from games.services import match_create, match_join, match_move_submit, plan_get, plan_save
from tests.games.services.test_plans import after, legal, nibble_between, state_of

pytestmark = pytest.mark.django_db


def _opening(match):
    """Alice's first move, Bob's answer to it and Alice's reply: an opening of one line."""
    state = state_of(match)
    mine = legal(state, 0)[0]
    one = after(state, 0, mine)
    key = legal(one, 1)[0]
    reply = legal(after(one, 1, key), 0)[0]
    return mine, key, reply, [{"mine": [mine], "then": [{"on": key, "reply": [reply]}]}]


def test_an_opening_is_kept_unseen_then_becomes_the_plan_of_the_move_made(alice, bob):
    match = nibble_between(alice, bob)
    stamp = match.updated_at
    mine, key, reply, tree = _opening(match)
    saved = plan_save(user=alice, match_id=match.id, tree=tree, expected_version=0)
    assert saved.tree == [{"mine": [mine], "then": [{"on": key, "reply": [reply],
                                                     "then": []}]}]
    match.refresh_from_db()
    assert (match.version, match.updated_at, match.planners) == (0, stamp, [0])
    match_move_submit(user=alice, match_id=match.id, move=mine, expected_version=0)
    kept = plan_get(user=alice, match_id=match.id)
    assert kept.tree == [{"on": key, "reply": [reply], "then": []}]
    assert (kept.plan_version, kept.version) == (1, 1)
    match_move_submit(user=bob, match_id=match.id, move=key, expected_version=1)
    moves = list(Move.objects.filter(match=match).order_by("seq"))
    assert [(m.seat, m.by_plan) for m in moves] == [(0, False), (1, False), (0, True)]
    assert moves[2].payload == reply
    match.refresh_from_db()
    assert match.planners == [] and not Plan.objects.exists()


def test_another_move_by_hand_deletes_the_opening_silently(alice, bob):
    match = nibble_between(alice, bob)
    _, _, _, tree = _opening(match)
    plan_save(user=alice, match_id=match.id, tree=tree, expected_version=0)
    other = legal(state_of(match), 0)[1]
    match_move_submit(user=alice, match_id=match.id, move=other, expected_version=0)
    match.refresh_from_db()
    assert match.planners == [] and not Plan.objects.exists()
    assert not UserEvent.objects.filter(type__startswith="plan_").exists()


def test_a_move_with_an_empty_plan_deletes_the_opening(alice, bob):
    match = nibble_between(alice, bob)
    mine, _, _, tree = _opening(match)
    plan_save(user=alice, match_id=match.id, tree=tree, expected_version=0)
    match_move_submit(user=alice, match_id=match.id, move=mine, plan=[])
    assert not Plan.objects.exists()


def test_an_opening_is_refused_to_a_seat_that_waits_and_takes_no_flip(alice, bob):
    match = nibble_between(alice, bob)
    _, _, _, tree = _opening(match)
    with pytest.raises(PlanNotYourTurn):
        plan_save(user=bob, match_id=match.id, tree=tree, expected_version=0)
    nimble = match_create(user=alice, game="nimble")
    match_join(user=bob, match_id=nimble.id)
    nimble.refresh_from_db()
    mover = (alice, bob)[nimble.actors[0]]
    with pytest.raises(PlanUnreachable) as refused:
        plan_save(user=mover, match_id=nimble.id, tree=[{"mine": [{"action": "flip"}]}],
                  expected_version=0)
    assert refused.value.extra == {"path": [0, "mine", 0], "reason": "revealed"}
    assert not Plan.objects.exists()
