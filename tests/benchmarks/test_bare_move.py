"""The bare move floor (games.benchmarks.bare) records a move in raw SQL and answers the small
body, in process and as its own Django project in a process of its own. No benchmark runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection
from rest_framework.test import APIRequestFactory

from games.benchmarks.bare.views import BareMoveApi
from games.benchmarks.management.commands.bench_api import Command
from games.benchmarks.snapshot import floor_state
from games.models import Match, Move
from tests.factories import UserFactory, token_for

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="the bare floor is served on PostgreSQL only: set DATABASE_URL to a PostgreSQL "
           "database")


def _floor_match():
    first, second = UserFactory(), UserFactory()
    [match_id] = Command._floor_matches([(first, second)])
    return match_id, token_for(first), token_for(second)


def _post(match_id, token: str | None, body: dict):
    request = APIRequestFactory().post(f"/bare/matches/{match_id}/moves", body, format="json",
                                       **({"HTTP_AUTHORIZATION": f"Token {token}"}
                                          if token else {}))
    return BareMoveApi.as_view()(request, match_id=match_id)


@pytest.mark.django_db
def test_a_move_writes_its_row_the_state_and_the_version():
    match_id, first, second = _floor_match()
    response = _post(match_id, first, {"move": {"take": [[3, 4]]}, "expected_version": 0})
    assert response.status_code == 201
    assert response.data == {"seq": 1, "version": 1, "to_act": [1]}
    move = Move.objects.get(match_id=match_id)
    assert (move.seq, move.kind, move.seat, move.payload, move.events) == (
        1, "move", 0, {"take": [[3, 4]]}, [])
    match = Match.objects.get(id=match_id)
    assert match.version == 1
    assert match.state == floor_state(1)
    assert _post(match_id, second, {"move": {"take": [[0, 0]]},
                                    "expected_version": 1}).data["seq"] == 2


@pytest.mark.django_db
def test_refusals_are_coded_and_change_nothing():
    match_id, first, _ = _floor_match()
    stranger = token_for(UserFactory())
    cases = [
        (None, {"move": {}, "expected_version": 0}, 401, "not_authenticated"),
        ("not-a-key", {"move": {}, "expected_version": 0}, 401, "not_authenticated"),
        (stranger, {"move": {}, "expected_version": 0}, 403, "not_seated"),
        (first, {"move": {}, "expected_version": 7}, 409, "stale_version"),
    ]
    for token, body, status, code in cases:
        response = _post(match_id, token, body)
        assert (response.status_code, response.data["code"]) == (status, code)
    assert response.data["extra"] == {"current_version": 0}
    missing = _post("00000000-0000-0000-0000-000000000000", first, {"move": {}})
    assert (missing.status_code, missing.data["code"]) == (404, "match_not_found")
    assert not Move.objects.filter(match_id=match_id).exists()
    assert Match.objects.get(id=match_id).version == 0


_SERVE_ONE = """
import io, json, sys
from games.benchmarks.bare.wsgi import application
from django.conf import settings
match_id, token = sys.argv[1:3]
body = json.dumps({"move": {"take": [[1, 2]]}, "expected_version": 0}).encode()
environ = {"REQUEST_METHOD": "POST", "PATH_INFO": f"/bare/matches/{match_id}/moves",
           "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "80", "HTTP_HOST": "127.0.0.1",
           "CONTENT_TYPE": "application/json", "CONTENT_LENGTH": str(len(body)),
           "HTTP_AUTHORIZATION": f"Token {token}", "wsgi.input": io.BytesIO(body),
           "wsgi.url_scheme": "http", "wsgi.errors": sys.stderr}
answer = {}
def start_response(status, headers):
    answer["status"] = status
answer["body"] = json.loads(b"".join(application(environ, start_response)))
answer["apps"], answer["middleware"] = settings.INSTALLED_APPS, settings.MIDDLEWARE
print(json.dumps(answer))
"""


@pytest.mark.django_db(transaction=True)
def test_the_bare_project_serves_a_move_on_its_own_settings():
    match_id, first, _ = _floor_match()
    db = connection.settings_dict
    url = (f"postgres://{quote(db['USER'] or '')}:{quote(db['PASSWORD'] or '')}@"
           f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}")
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings.test",
           "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", _SERVE_ONE, str(match_id), first], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120, check=True)
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    assert answer == {"status": "201 Created", "body": {"seq": 1, "version": 1, "to_act": [1]},
                      "apps": ["rest_framework"], "middleware": []}
    assert Move.objects.filter(match_id=match_id, seq=1).exists()
