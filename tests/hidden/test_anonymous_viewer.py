"""A visitor who is not signed in sees only what a spectator may, for every registered game.

While a match runs, every answer a visitor can ask for about it (the detail, the move log, the
long-poll, the board picture) is a refusal, and byte-identical when everything a spectator may
not know is redrawn. Once the match is over, the visitor's answers are byte-identical to those a
signed-in spectator gets: nothing more, nothing less."""

from __future__ import annotations

import random

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from games.kit.registry import GameSpec
from games.models import Match
from tests.games.matchplay import match_url
from tests.hidden.test_http_invariance import Table

pytestmark = pytest.mark.django_db

PATHS = ("", "moves", "events?wait=0", "board.svg", "board.svg?seq=0")


def answers(client: APIClient, match_id: str, paths=PATHS) -> list[tuple[str, int, bytes]]:
    cache.clear()  # throttle budgets: the same every time
    return [(path, (r := client.get(match_url(match_id, path))).status_code, r.content)
            for path in paths]


def test_a_visitor_learns_nothing_of_a_running_match(spec: GameSpec, make_user, client_for,
                                                     django_capture_on_commit_callbacks):
    rng = random.Random(f"visitor:{spec.slug}")
    players = max(2, spec.engine.min_players)
    table = Table(spec, players, make_user, client_for, django_capture_on_commit_callbacks)
    visitor = APIClient()
    checked = 0
    for steps in (0, rng.randint(1, 6), rng.randint(5, 20)):
        if not table.play(steps, rng):
            break
        before = answers(visitor, table.id)
        assert {status for _, status, _ in before} <= {401, 404}, before
        match = table.match()
        stored, seed = match.state, match.seed
        variant = spec.engine.hidden_variant(table.state(), None, history=table.history(None),
                                             rng=random.Random(rng.random()))
        dumped = spec.engine.dump(variant)
        Match.objects.filter(id=table.id).update(state=dumped, seed=dumped.get("seed", seed))
        try:
            assert answers(visitor, table.id) == before
        finally:
            Match.objects.filter(id=table.id).update(state=stored, seed=seed)
        checked += 1
    assert checked


def test_a_visitor_sees_a_finished_match_as_a_spectator_does(
        spec: GameSpec, make_user, client_for, django_capture_on_commit_callbacks):
    rng = random.Random(f"visitor-end:{spec.slug}")
    players = max(2, spec.engine.min_players)
    table = Table(spec, players, make_user, client_for, django_capture_on_commit_callbacks)
    for _ in range(200):
        if not table.play(25, rng):
            break
    match = table.match()
    assert match.status == Match.Status.FINISHED, "the random match did not end"
    middle = max(1, match.version // 2)
    paths = ("", "moves", f"board.svg?seq={middle}", f"board.svg?seq={match.version}")
    seen = answers(APIClient(), table.id, paths)
    assert [status for _, status, _ in seen] == [200] * len(paths)
    assert seen == answers(table.watcher, table.id, paths)
