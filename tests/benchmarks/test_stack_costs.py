"""``manage.py stack_costs`` measures every middleware and DRF piece, and the stack floor goes
through the project's whole stack as an API call. No benchmark runs: a few requests each."""

from __future__ import annotations

import io

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.signals import request_finished, request_started
from django.db import close_old_connections

from games.benchmarks.floor_wsgi import FloorHandler
from games.benchmarks.management.commands.bench_api import Command as BenchApi
from games.benchmarks.management.commands.profile_moves import _call
from games.benchmarks.stack import DRF_VARIANTS
from games.models import Match, Move
from tests.factories import UserFactory, token_for

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _connection_kept():
    """Requests made straight through a WSGI handler keep the test's connection (its
    transaction), as Django's test client does."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def test_stack_costs_names_every_middleware_and_piece():
    out = io.StringIO()
    call_command("stack_costs", "--requests", "3", "--repeats", "1", stdout=out)
    text = out.getvalue()
    for path in settings.MIDDLEWARE:
        assert f"  {path} " in text
    for name in DRF_VARIANTS:
        assert f"  {name}" in text
    assert "through the ORM" in text and "in SQL" in text


def test_the_stack_floor_moves_through_the_project_s_middleware():
    first, second = UserFactory(), UserFactory()
    [match_id] = BenchApi._floor_matches([(first, second)])
    status, body = _call(FloorHandler(), "POST", f"/api/floor/matches/{match_id}/moves",
                         token_for(first), {"move": {"take": [[3, 4]]}, "expected_version": 0})
    assert (status, body) == (201, {"seq": 1, "version": 1, "to_act": [1]})
    assert Move.objects.filter(match_id=match_id).count() == 1
    assert Match.objects.get(id=match_id).version == 1


def test_the_stack_floor_answers_with_the_project_s_headers():
    first, second = UserFactory(), UserFactory()
    [match_id] = BenchApi._floor_matches([(first, second)])
    headers: dict[str, str] = {}
    environ = {
        "REQUEST_METHOD": "POST", "PATH_INFO": f"/api/floor/matches/{match_id}/moves",
        "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1:8000", "HTTP_AUTHORIZATION": f"Token {token_for(first)}",
        "HTTP_ACCEPT_LANGUAGE": "fr", "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": "2", "wsgi.input": io.BytesIO(b"{}"), "wsgi.url_scheme": "http",
        "wsgi.errors": io.StringIO()}

    def start_response(status, response_headers, exc_info=None):
        headers.update(response_headers)

    b"".join(FloorHandler()(environ, start_response))
    assert len(headers["X-Request-ID"]) == 32
    assert "default-src 'self'" in headers["Content-Security-Policy"].split("; ")
    assert headers["Content-Language"] == "fr"
    assert headers["X-Frame-Options"] == "DENY"
    assert "Set-Cookie" not in headers


def test_profile_moves_plain_plays_only_moves_on_matches_it_set_up():
    """``--plain N`` (what scripts/move_instructions.py counts): the matches first, then
    N moves on top of their warm-up, none of them ending a match."""
    call_command("profile_moves", "--plain", "7", stdout=io.StringIO())
    matches = Match.objects.filter(seats__user__username="profile-0")
    assert matches.count() == 4
    assert all(match.status == Match.Status.ACTIVE for match in matches)
    assert Move.objects.filter(match__in=matches, kind=Move.Kind.MOVE).count() == 4 * 5 + 7
