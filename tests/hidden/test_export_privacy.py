"""A data export holds a running match as its player may see it, never another seat's hidden
information: for every registered game, at random positions of matches played over HTTP, each
seat's export of its matches is byte-identical whether the stored state is the real one or a
hidden variant for that seat (``engine.hidden_variant``, as the HTTP invariance test swaps it),
and it equals what the API answers that seat."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime

import pytest
import time_machine
from django.core.serializers.json import DjangoJSONEncoder

from accounts.models import User
from games.kit.registry import GameSpec
from games.lifecycle import sections
from games.models import Match
from tests.games.matchplay import match_url
from tests.hidden.test_http_invariance import Table

pytestmark = pytest.mark.django_db

NOW = datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)


def _exported(user: User) -> bytes:
    return json.dumps(sections.matches(user), cls=DjangoJSONEncoder, sort_keys=True).encode()


def _check(table: Table, rng: random.Random) -> None:
    match = table.match()
    stored, seed = match.state, match.seed
    state = table.engine.load(stored)
    for seat in range(table.players):
        user = table.clients[seat].user
        before = _exported(user)
        [entry] = json.loads(before)
        shown = table.clients[seat].get(match_url(table.id)).json()
        assert entry["view"] == shown["view"] and entry["legal_moves"] == shown["legal_moves"]
        variant = table.engine.hidden_variant(state, seat, history=table.history(seat),
                                              rng=random.Random(rng.random()))
        dumped = table.engine.dump(variant)
        Match.objects.filter(id=table.id).update(state=dumped, seed=dumped.get("seed", seed))
        try:
            after = _exported(user)
        finally:
            Match.objects.filter(id=table.id).update(state=stored, seed=seed)
        assert before == after, (table.spec.slug, seat)


def test_an_export_never_holds_another_seat_s_hidden_information(
        spec: GameSpec, make_user, client_for, django_capture_on_commit_callbacks):
    rng = random.Random(f"export:{spec.slug}")
    with time_machine.travel(NOW, tick=False):
        players = max(2, spec.engine.min_players)
        table = Table(spec, players, make_user, client_for, django_capture_on_commit_callbacks)
        checked = 0
        for _ in range(3):
            if not table.play(rng.randint(1, 4), rng):
                break
            _check(table, rng)
            checked += 1
    assert checked or table.match().status != Match.Status.ACTIVE
