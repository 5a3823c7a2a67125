"""A plan is private: every answer the other seat or a spectator gets over HTTP is
byte-identical whether or not a seat holds a plan, whatever it holds (branches while it waits,
openings during its own turn), until one of its replies is played; a move the plan does not
cover is answered to its mover byte for byte as it would be without the plan; and a move made
by hand while holding openings leaves the other seat's answers as they would be without them.

Matches of every registered game are played through the API to random positions; wherever a
seat waits for the other, a random plan (a random line with sibling branches,
``tests.plans.playouts``) is saved for it, and openings wherever a seat plays, and everything
the other seat and a spectator can ask (``Table.answers`` of the HTTP invariance test: the
match and its ETag, the move log, both feeds, the lists, dry runs, refused moves, the picture)
is asked before and after.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
import time_machine
from django.db import transaction

from games.kit.plans import plays_now, waited_for
from games.kit.registry import GameSpec
from games.models import Match
from tests.games.matchplay import match_url, submit
from tests.hidden.test_http_invariance import Table
from tests.plans.playouts import built_line, built_opening

pytestmark = pytest.mark.django_db


def _put(table: Table, seat: int, plan: list, version: int):
    return table.clients[seat].put(match_url(table.id, "plan"),
                                   {"plan": plan, "expected_version": version}, format="json")


def _viewer_asks(table: Table, viewer: int | None, rng: random.Random) -> tuple[list, list]:
    """The dry runs and refused moves a viewer tries, chosen once for both rounds."""
    engine, state = table.engine, table.state()
    tried = []
    if viewer is not None:
        legal = [engine.dump_move(m) for m in engine.legal_moves(state, viewer)]
        tried = legal if len(legal) <= 4 else rng.sample(legal, 4)
    odd = rng.sample(table.odd_moves, min(3, len(table.odd_moves)))
    refused = [data for data in odd if viewer is not None
               and table.client_refuses(viewer, data)][:2]
    return tried, odd, refused


def _random_plan(table: Table, state, planner: int,
                 rng: random.Random) -> tuple[list, int] | tuple[None, None]:
    """A random plan for ``planner`` and the seat it plays against: a line with sibling
    branches while it waits, openings during its own turn; ``(None, None)`` when it can hold
    neither (or nothing could be built)."""
    other = waited_for(table.engine, state, planner)
    if other is not None:
        plan, _ = built_line(table.engine, state, planner, rng)
        return (plan, other) if plan else (None, None)
    if not plays_now(table.engine, state, planner):
        return None, None
    built = built_opening(table.engine, state, planner, rng)
    return (built[0], 1 - planner) if built is not None else (None, None)


def _check_plans(table: Table, rng: random.Random) -> int:
    """Save a random plan for each seat that waits (branches) or plays (openings); compare
    what the others get. Returns how many answers were compared."""
    match = table.match()
    state = table.state()
    compared = 0
    for planner in range(table.players):
        plan, other = _random_plan(table, state, planner, rng)
        if plan is None or other is None:
            continue
        asks = {viewer: _viewer_asks(table, viewer, rng) for viewer in (None, other)}
        before = {viewer: table.answers(viewer, *asks[viewer]) for viewer in asks}
        saved = _put(table, planner, plan, match.version)
        if table.engine.plans_apply(state, planner) and not table.engine.is_realtime(state):
            assert saved.status_code == 200, saved.json()
        else:
            assert saved.json()["code"] == "plans_unavailable"
        for viewer, answers in before.items():
            after = table.answers(viewer, *asks[viewer])
            for one, two in zip(answers, after, strict=True):
                assert one == two, (table.spec.slug, planner, viewer, one[0])
            compared += len(answers)
        assert table.clients[planner].delete(match_url(table.id, "plan")).status_code == 204
    return compared


def test_a_plan_changes_no_answer_another_seat_or_a_spectator_gets(
        spec: GameSpec, make_user, client_for, django_capture_on_commit_callbacks) -> None:
    if not spec.engine.min_players <= 2 <= spec.engine.max_players:
        pytest.skip("plans are for two players")
    rng = random.Random(f"plan-privacy:{spec.slug}")
    table = Table(spec, 2, make_user, client_for, django_capture_on_commit_callbacks)
    start = table.state()
    planned = not spec.engine.is_realtime(start) and any(
        spec.engine.plans_apply(start, seat) for seat in range(2))
    compared = 0
    for steps in (0, rng.randint(1, 5), rng.randint(4, 20)):
        if not table.play(steps, rng):
            break
        compared += _check_plans(table, rng)
    # A game with plans had waiting seats to plan for; one without (Nimalia: both seats act
    # at once) never had a seat that waits.
    assert compared > 10 if planned else compared == 0


def _uncovered_move(table: Table, rng: random.Random):
    """A waiting seat, a plan for it, and a legal move of the other seat it does not cover."""
    state = table.state()
    for planner in range(table.players):
        other = waited_for(table.engine, state, planner)
        if other is None or not table.engine.plans_apply(state, planner):
            continue
        plan, _ = built_line(table.engine, state, planner, rng, siblings=False)
        keys = [branch["on"] for branch in plan]
        for move in table.engine.legal_moves(state, other):
            key = table.engine.plan_key(state, other, move,
                                        table.engine.apply(state, other, move), planner)
            if plan and key not in keys:
                return planner, other, plan, table.engine.dump_move(move)
    return None


def _table_where(spec: GameSpec, label: str, make_user, client_for, on_commit, find):
    """A two-player table played at random until ``find(table, rng)`` finds something (skips
    the test for a game where it never does): the table and what was found."""
    if not spec.engine.min_players <= 2 <= spec.engine.max_players:
        pytest.skip("plans are for two players")
    rng = random.Random(f"{label}:{spec.slug}")
    table = Table(spec, 2, make_user, client_for, on_commit)
    found = None
    for _ in range(6):
        found = find(table, rng)
        if found is not None or not table.play(rng.randint(1, 4), rng):
            break
    if found is None:
        pytest.skip(f"{spec.slug} has no plans")
    return table, found


def _with_and_without(table: Table, planner: int, plan: list, mover: int, move,
                      viewer: int, paths: tuple[str, ...]) -> list[tuple]:
    """``mover`` plays ``move`` once without ``planner``'s plan, once with it (each rolled
    back): each time, the mover's answer, what ``viewer`` gets at ``paths`` and who holds a
    plan afterwards."""
    version = table.match().version
    answers = []
    with time_machine.travel(datetime(2027, 1, 4, 12, tzinfo=UTC), tick=False):
        for with_plan in (False, True):
            point = transaction.savepoint()
            if with_plan:
                assert _put(table, planner, plan, version).status_code == 200
            response = submit(table.clients[mover], table.id, move, version)
            assert response.status_code == 201, response.json()
            seen = [table.clients[viewer].get(match_url(table.id, path)).content
                    for path in paths]
            answers.append((response.content, seen, Match.objects.get(id=table.id).planners))
            transaction.savepoint_rollback(point)
    return answers


def test_a_move_the_plan_does_not_cover_is_answered_as_without_a_plan(
        spec: GameSpec, make_user, client_for, django_capture_on_commit_callbacks) -> None:
    table, (planner, other, plan, move) = _table_where(
        spec, "plan-uncovered", make_user, client_for, django_capture_on_commit_callbacks,
        _uncovered_move)
    without, with_plan = _with_and_without(table, planner, plan, other, move, other, ("moves",))
    assert without == with_plan and with_plan[2] == []


def _opening_and_move(table: Table, rng: random.Random):
    """The seat to play, openings for it, and the move by hand its first opening starts with."""
    state = table.state()
    for planner in range(table.players):
        if not table.engine.plans_apply(state, planner) or not plays_now(table.engine, state,
                                                                         planner):
            continue
        built = built_opening(table.engine, state, planner, rng)
        if built is not None:
            return planner, built[0], table.engine.dump_move(built[1][0])
    return None


def test_a_move_by_hand_with_openings_is_answered_to_the_other_seat_as_without(
        spec: GameSpec, make_user, client_for, django_capture_on_commit_callbacks) -> None:
    table, (planner, plan, move) = _table_where(
        spec, "plan-opening", make_user, client_for, django_capture_on_commit_callbacks,
        _opening_and_move)
    without, with_plan = _with_and_without(table, planner, plan, planner, move, 1 - planner,
                                           ("", "moves"))
    assert without[:2] == with_plan[:2]
