"""Plans as services: saved, read and deleted by their owner under the match lock, played in
the recording path when the other seat moves, cleared when the match ends."""

from __future__ import annotations

from unittest import mock

import pytest

from games.catalog import get_engine
from games.exceptions import MatchNotFound, PlanSeatNotFound
from games.kit.plans import (
    PlanIllegalKey,
    PlanNotWaiting,
    PlanStale,
    PlansUnavailable,
    PlanUnreachable,
    ReplyRefused,
)
from games.kit.protocol import IllegalMove, apply_checked
from games.models import Match, Move, Plan, UserEvent
from games.services import (
    SeatSpec,
    match_abort,
    match_bot_move_play,
    match_create,
    match_join,
    match_move_submit,
    match_rematch,
    match_resign,
    plan_delete,
    plan_get,
    plan_replies,
    plan_save,
)
from tests.factories import BotFactory

pytestmark = pytest.mark.django_db

NIBBLE = get_engine("nibble")


def nibble_between(alice, bob, **options) -> Match:
    """Alice (seat 0) moves first; Bob (seat 1) waits for her."""
    match = match_create(user=alice, game="nibble", config={"first_seat": 0}, **options)
    match_join(user=bob, match_id=match.id)
    match.refresh_from_db()
    return match


def legal(state, seat) -> list[dict]:
    return [NIBBLE.dump_move(move) for move in NIBBLE.legal_moves(state, seat)]


def after(state, seat, move):
    return apply_checked(NIBBLE, state, seat, NIBBLE.parse_move(move)).state


def state_of(match: Match):
    match.refresh_from_db()
    return NIBBLE.load(match.state)


def test_a_plan_is_saved_read_and_deleted_by_its_owner_alone(alice, bob, carol):
    match = nibble_between(alice, bob)
    stamp = match.updated_at
    state = state_of(match)
    key = legal(state, 0)[0]
    reply = legal(after(state, 0, key), 1)[0]
    saved = plan_save(user=bob, match_id=match.id, tree=[{"on": key, "reply": [reply]}],
                      expected_version=0)
    assert saved.tree == [{"on": key, "reply": [reply], "then": []}]
    assert (saved.plan_version, saved.version) == (0, 0)
    match.refresh_from_db()
    # Nobody else can tell: neither the version nor the ETag's instant moved.
    assert (match.version, match.updated_at, match.planners) == (0, stamp, [1])
    assert plan_get(user=bob, match_id=match.id) == saved
    assert plan_get(user=alice, match_id=match.id).tree == []
    # A running match is not even visible to others; every refusal is a 404.
    with pytest.raises(MatchNotFound):
        plan_get(user=carol, match_id=match.id)
    assert plan_delete(user=bob, match_id=match.id).tree == []
    match.refresh_from_db()
    assert match.planners == [] and not Plan.objects.exists()


def test_saving_no_branches_deletes_the_plan(alice, bob):
    match = nibble_between(alice, bob)
    key = legal(state_of(match), 0)[0]
    plan_save(user=bob, match_id=match.id, tree=[{"on": key}], expected_version=0)
    assert plan_save(user=bob, match_id=match.id, tree=[], expected_version=0).tree == []
    assert not Plan.objects.exists()


@pytest.mark.parametrize("case, error", [
    ("stale", PlanStale),
    ("own_turn", PlanNotWaiting),
    ("illegal_key", PlanIllegalKey),
    ("forbidden", PlansUnavailable),
])
def test_a_refused_plan_changes_nothing(alice, bob, case, error):
    match = nibble_between(alice, bob, plans=case != "forbidden")
    key = legal(state_of(match), 0)[0]
    user, tree, version = bob, [{"on": key}], 0
    if case == "stale":
        version = 1
    elif case == "own_turn":
        user = alice
    elif case == "illegal_key":
        tree = [{"on": {"take": [[99, 99]]}}]
    with pytest.raises(error) as refused:
        plan_save(user=user, match_id=match.id, tree=tree, expected_version=version)
    assert "path" in refused.value.extra
    match.refresh_from_db()
    assert match.planners == [] and not Plan.objects.exists() and match.version == 0


def test_a_finished_match_takes_no_plan(alice, bob, carol):
    match = nibble_between(alice, bob)
    match_resign(user=alice, match_id=match.id)
    with pytest.raises(PlansUnavailable):
        plan_save(user=bob, match_id=match.id, tree=[], expected_version=1)
    # Once over, a public match is seen by anyone, who holds no seat and so no plan.
    with pytest.raises(PlanSeatNotFound):
        plan_get(user=carol, match_id=match.id)


def test_a_covered_move_plays_the_reply_as_a_move_by_plan(alice, bob):
    match = nibble_between(alice, bob)
    state = state_of(match)
    keys = legal(state, 0)[:2]
    first = after(state, 0, keys[0])
    reply = legal(first, 1)[0]
    follow = legal(after(first, 1, reply), 0)[0]
    tree = [{"on": keys[0], "reply": [reply], "then": [{"on": follow}]},
            {"on": keys[1]}]
    plan_save(user=bob, match_id=match.id, tree=tree, expected_version=0)
    result = match_move_submit(user=alice, match_id=match.id, move=keys[0], expected_version=0)
    moves = list(Move.objects.filter(match=match).order_by("seq"))
    assert [(m.seat, m.by_plan, m.user) for m in moves] == [(0, False, alice), (1, True, bob)]
    assert moves[1].payload == reply
    # The mover's answer shows the match after the reply: it was played. The plan advanced
    # on the move it answered (version 1).
    assert result.seq == 1 and result.match.version == 2 and result.match.actors == [0]
    plan = Plan.objects.get(match=match, seat=1)
    assert plan.tree == [{"on": follow, "reply": [], "then": []}]
    # Bob's turn was over as it began: only Alice is told it is hers.
    turns = UserEvent.objects.filter(match=match, type=UserEvent.Type.YOUR_TURN)
    assert [(e.user, e.data["version"]) for e in turns.order_by("id")
            if e.data["version"] > 0] == [(alice, 2)]
    assert (plan.made_at_version, plan.advanced_at_version) == (0, 1)


def test_a_plan_spent_by_its_last_reply_is_deleted(alice, bob):
    match = nibble_between(alice, bob)
    state = state_of(match)
    key = legal(state, 0)[0]
    reply = legal(after(state, 0, key), 1)[0]
    plan_save(user=bob, match_id=match.id, tree=[{"on": key, "reply": [reply]}],
              expected_version=0)
    match_move_submit(user=alice, match_id=match.id, move=key)
    match.refresh_from_db()
    assert match.version == 2 and match.planners == [] and not Plan.objects.exists()


def test_a_move_the_plan_does_not_cover_clears_it_and_tells_the_planner(alice, bob):
    match = nibble_between(alice, bob)
    keys = legal(state_of(match), 0)
    plan_save(user=bob, match_id=match.id, tree=[{"on": keys[0]}], expected_version=0)
    match_move_submit(user=alice, match_id=match.id, move=keys[1])
    match.refresh_from_db()
    assert match.version == 1 and match.planners == [] and not Plan.objects.exists()
    told = UserEvent.objects.get(type=UserEvent.Type.PLAN_NOT_COVERED)
    assert (told.user, told.match_id) == (bob, match.id)
    assert UserEvent.objects.filter(user=bob, type=UserEvent.Type.YOUR_TURN,
                                    data__version=1).exists()
    assert told.data == {"game": "nibble", "version": 1, "key": keys[1]}
    assert not UserEvent.objects.filter(user=alice, type__startswith="plan_").exists()


def test_a_refused_reply_drops_the_plan_and_never_blocks_the_match(alice, bob):
    match = nibble_between(alice, bob)
    state = state_of(match)
    key = legal(state, 0)[0]
    reply = legal(after(state, 0, key), 1)[0]
    plan_save(user=bob, match_id=match.id, tree=[{"on": key, "reply": [reply]}],
              expected_version=0)
    refused = ReplyRefused(key, 0, IllegalMove("refused", rule="nibble.test"))
    with mock.patch.object(plan_replies, "plan_after", return_value=refused):
        match_move_submit(user=alice, match_id=match.id, move=key)
    match.refresh_from_db()
    assert match.version == 1 and match.actors == [1] and not Plan.objects.exists()
    told = UserEvent.objects.get(type=UserEvent.Type.PLAN_DROPPED)
    assert told.user == bob and told.data["cause"] == "illegal_move"


def test_a_move_with_a_plan_keeps_the_plan_from_the_position_after_it(alice, bob):
    match = nibble_between(alice, bob)
    state = state_of(match)
    move = legal(state, 0)[0]
    key = legal(after(state, 0, move), 1)[0]
    match_move_submit(user=alice, match_id=match.id, move=move, plan=[{"on": key}])
    plan = Plan.objects.get(match=match)
    assert (plan.seat, plan.made_at_version, plan.tree) == (0, 1, [{"on": key, "reply": [],
                                                                    "then": []}])


def test_a_move_whose_plan_is_refused_is_not_recorded_either(alice, bob):
    match = nibble_between(alice, bob)
    move = legal(state_of(match), 0)[0]
    with pytest.raises(PlanIllegalKey):
        match_move_submit(user=alice, match_id=match.id, move=move,
                          plan=[{"on": {"take": [[99, 99]]}}])
    match.refresh_from_db()
    assert match.version == 0 and not Move.objects.exists() and not Plan.objects.exists()


def test_a_move_that_turns_up_something_hidden_takes_no_plan(alice, bob):
    match = match_create(user=alice, game="nimble")
    match_join(user=bob, match_id=match.id)
    match.refresh_from_db()
    mover = (alice, bob)[match.actors[0]]
    with pytest.raises(PlanUnreachable) as refused:
        match_move_submit(user=mover, match_id=match.id, move={"action": "flip"},
                          plan=[{"on": {"action": "flip"}}])
    assert refused.value.extra == {"path": [], "reason": "revealed"}
    match.refresh_from_db()
    assert match.version == 0 and not Move.objects.exists()


def _chain_setup(alice, bob):
    """Bob plans a reply to Alice's first move; Alice plays it with a plan that answers that
    reply: her move, Bob's reply by plan, her answer by plan."""
    match = nibble_between(alice, bob)
    state = state_of(match)
    move = legal(state, 0)[0]
    one = after(state, 0, move)
    reply = legal(one, 1)[0]
    answer = legal(after(one, 1, reply), 0)[0]
    plan_save(user=bob, match_id=match.id, tree=[{"on": move, "reply": [reply]}],
              expected_version=0)
    return match, move, reply, answer


def test_plans_answer_each_other_in_a_chain(alice, bob):
    match, move, reply, answer = _chain_setup(alice, bob)
    match_move_submit(user=alice, match_id=match.id, move=move,
                      plan=[{"on": reply, "reply": [answer]}])
    moves = list(Move.objects.filter(match=match).order_by("seq"))
    assert [(m.seat, m.by_plan, m.payload) for m in moves] == [
        (0, False, move), (1, True, reply), (0, True, answer)]
    assert not Plan.objects.exists()


def test_a_chain_stops_at_its_hard_cap(alice, bob):
    match, move, reply, answer = _chain_setup(alice, bob)
    with mock.patch.object(plan_replies, "MAX_CHAIN", 1):
        match_move_submit(user=alice, match_id=match.id, move=move,
                          plan=[{"on": reply, "reply": [answer]}])
    moves = list(Move.objects.filter(match=match).order_by("seq"))
    assert [(m.seat, m.by_plan) for m in moves] == [(0, False), (1, True)]
    match.refresh_from_db()
    assert match.actors == [0] and match.planners == [] and not Plan.objects.exists()
    told = UserEvent.objects.get(type=UserEvent.Type.PLAN_DROPPED)
    assert told.user == alice and told.data["cause"] == "chain_limit"
    assert UserEvent.objects.filter(user=alice, type=UserEvent.Type.YOUR_TURN,
                                    data__version=2).exists()


@pytest.mark.parametrize("end", ["resign", "abort"])
def test_plans_are_deleted_when_the_match_ends(alice, bob, end):
    match = nibble_between(alice, bob)
    key = legal(state_of(match), 0)[0]
    plan_save(user=bob, match_id=match.id, tree=[{"on": key}], expected_version=0)
    if end == "resign":
        match_resign(user=alice, match_id=match.id)
    else:
        match_abort(user=alice, match_id=match.id)
    match.refresh_from_db()
    assert match.status != Match.Status.ACTIVE
    assert match.planners == [] and not Plan.objects.exists()


def test_a_bots_move_sets_off_the_humans_plan(alice):
    BotFactory(bot_game="nibble", bot_level=1)
    match = match_create(user=alice, game="nibble", config={"first_seat": 0},
                         seats=[SeatSpec("bot", level=1), SeatSpec("me")])
    state = state_of(match)
    key = legal(state, 0)[0]
    reply = legal(after(state, 0, key), 1)[0]
    plan_save(user=alice, match_id=match.id, tree=[{"on": key, "reply": [reply]}],
              expected_version=0)
    with mock.patch("games.services.bots._choose", return_value=key):
        assert match_bot_move_play(match_id=match.id, expected_version=0, seat=0)
    moves = list(Move.objects.filter(match=match).order_by("seq"))
    assert [(m.seat, m.by_plan, m.payload) for m in moves] == [(0, False, key),
                                                                (1, True, reply)]


def test_a_match_without_plans_and_its_rematch(alice, bob):
    match = nibble_between(alice, bob, plans=False)
    assert match.plans_allowed is False
    match_resign(user=alice, match_id=match.id)
    rematch, _ = match_rematch(user=alice, match_id=match.id)
    assert rematch.plans_allowed is False
