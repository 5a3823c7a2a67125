"""The OpenAPI schema is a contract: schemathesis sends generated requests to every operation,
signed in, and every answer must be no 5xx and match the schema (status, headers, body)."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from django.conf import settings as django_settings
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from rest_framework.throttling import AnonRateThrottle
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi.checks import (
    positive_data_acceptance,
    response_schema_conformance,
)

from config.throttling import PlayerRateThrottle
from games.notify.push import generate_keys
from tests.factories import token_for
from tests.games.helpers import create_match
from tests.games.matchplay import match_url, start_nibble_match
from tests.tournaments.helpers import started, tournament_with

EXAMPLES = 20
MAX_WAIT = django_settings.LONG_POLL_MAX_SECONDS


@pytest.fixture
def contract_world(db, client_for, make_user, monkeypatch, settings):
    """A signed-in tester with matches of every kind the path parameters can point at, on a
    server with Web Push configured (without it the push endpoints answer 503
    push_not_configured, tested in tests/notify)."""
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = generate_keys()
    # Generated requests must meet the API, not the throttle.
    monkeypatch.setattr(PlayerRateThrottle, "rate", "100000/min", raising=False)
    monkeypatch.setattr(AnonRateThrottle, "rate", "100000/min", raising=False)
    monkeypatch.setitem(PlayerRateThrottle.THROTTLE_RATES, "register", "100000/min")
    cache.clear()
    tester, bob, carol = (make_user(username=name) for name in ("tester", "bob", "carol"))
    me, b, c = client_for(tester), client_for(bob), client_for(carol)
    active = start_nibble_match(me, b).id  # tester to move
    waiting = start_nibble_match(b, me).id  # bob to move
    finished = start_nibble_match(me, c)
    finished.b.post(match_url(finished.id, "resign"))
    open_to_join = create_match(c)["id"]
    mine_open = create_match(me, game="nimble", players=3)["id"]
    nimble = create_match(me, game="nimble")["id"]
    b.post(match_url(nimble, "join"))
    world = {
        "token": token_for(tester),
        "match_ids": [active, waiting, finished.id, open_to_join, mine_open, nimble],
        "usernames": ["tester", "bob", "carol"],
        "tournament_ids": _tournaments(tester, bob, carol),
    }
    # Schemathesis calls a bare WSGIHandler, whose request signals would close the database
    # connection inside the test's transaction; django.test.Client unhooks them the same way.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield world
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def _tournaments(tester, bob, carol) -> list[str]:
    """A Swiss taking entries (the tester in it), a running one and a running ladder."""
    taking = tournament_with(carol, [tester, bob])
    running = started(tournament_with(carol, [tester, bob, carol]))
    ladder = started(tournament_with(carol, [bob, carol, tester], format="ladder",
                                     rounds=None))
    return [str(taking.id), str(running.id), str(ladder.id)]


# Loaded at collection: serving the schema needs no database. (``schemathesis.pytest.
# from_fixture`` would load it lazily, but does not run under pytest 9.)
schema = schemathesis.openapi.from_wsgi("/api/schema", WSGIHandler())


def _aim(case, world: dict[str, Any], pick: int) -> None:
    """Point most cases at real rows, so they reach past the 404s into the services; and let
    long polls answer at once (with nothing new coming, each would wait out its ``wait``)."""
    query = case.query if isinstance(case.query, dict) else {}
    wait = query.get("wait")
    if isinstance(wait, int) and not isinstance(wait, bool) and 0 < wait <= MAX_WAIT:
        query["wait"] = 0
    params = case.path_parameters or {}
    if pick == 0:
        return
    if "match_id" in params:
        params["match_id"] = world["match_ids"][pick % len(world["match_ids"])]
    if "username" in params:
        params["username"] = world["usernames"][pick % len(world["usernames"])]
    if "tournament_id" in params:
        params["tournament_id"] = world["tournament_ids"][pick % len(world["tournament_ids"])]
    if "game" in params and pick % 2:
        params["game"] = "nibble"


@schema.parametrize()
@schema.given(pick=st.integers(min_value=0, max_value=11))
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
          derandomize=True)
def test_every_operation_honours_the_schema(case, pick, contract_world):
    _aim(case, contract_world, pick)
    cache.clear()
    # Every built-in check but "schema-valid data must get a 2xx": rules beyond any schema
    # (password strength, engine options, the game's own rules, whose turn it is) answer
    # coded 400/409/422 by design; status_code_conformance still requires them declared.
    excluded = [positive_data_acceptance]
    if case.operation.path.endswith("/stream"):
        # A Server-Sent Events body is text, not one JSON document: its status, content type
        # and headers are checked; each message's data is the long-poll answer, whose shape
        # the long-poll operations check.
        excluded.append(response_schema_conformance)
    # Signed in, except in a negative case whose headers leave the token out on purpose: that
    # request must be refused (401), which adding the token would hide.
    headers = {"Authorization": f"Token {contract_world['token']}"}
    if (case.meta is not None and case.meta.is_negative_at(ParameterLocation.HEADER)
            and "Authorization" not in (case.headers or {})):
        headers = {}
    case.call_and_validate(headers=headers, excluded_checks=excluded)
