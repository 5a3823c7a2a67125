"""Whatever a client sends, the answer is a coded 4xx in the JSON envelope, never a 500."""

from __future__ import annotations

import base64
import json

import pytest
from django.conf import settings

from games.catalog import engines
from games.models import Match, Move
from tests.games.helpers import create_match
from tests.games.matchplay import assert_error, match_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def post_urls(nibble):
    """Every POST endpoint that reads a JSON body, on a running match."""
    return ["/api/matches", match_url(nibble.id, "moves"), match_url(nibble.id, "moves/preview"),
            "/api/auth/register", "/api/auth/token"]


def _post_raw(client, url, raw: bytes, content_type="application/json"):
    return client.post(url, raw, content_type=content_type)


@pytest.mark.parametrize("raw", [
    b"{",
    b"{'move': 1}",
    b'{"move": }',
    b"[1, 2",
    b"\xff\xfe{\x00}",
    b"NaN",
    b"Infinity",
    b'{"move": NaN}',
    b'{"move": {"take": [[Infinity, 0]]}}',
    b'{"move": {"take": [[-Infinity, 0]]}, "expected_version": 0}',
    b'{"game": "nibble", "config": {"first_seat": NaN}}',
    b'{"move": {"take": [[0, 0]]}} trailing',
    b"\x00",
])
def test_malformed_json_is_a_coded_400(nibble, post_urls, raw):
    for url in post_urls:
        assert_error(_post_raw(nibble.a, url, raw), 400, "malformed_json")
    assert not Move.objects.exists()


@pytest.mark.parametrize("raw", [b"[]", b"[{}]", b'"move"', b"0", b"null", b"true", b"{}"])
def test_bodies_that_are_not_the_expected_object_are_a_coded_400(nibble, post_urls, raw):
    for url in post_urls:
        assert_error(_post_raw(nibble.a, url, raw), 400, "validation_error")


def test_deeply_nested_json_is_refused_not_crashed(nibble, post_urls):
    depth = 30_000  # fits the size limit, far past Python's recursion limit
    raws = [b"[" * depth + b"]" * depth,
            b'{"move": ' + b"[" * depth + b"]" * depth + b"}",
            b'{"move": {"take": ' + b"[" * 900 + b"]" * 900 + b"}}",
            b'{"game": "nibble", "config": {"color_order": ' + b"[" * 900 + b"]" * 900 + b"}}"]
    for raw in raws:
        assert len(raw) < settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        for url in post_urls:
            response = _post_raw(nibble.a, url, raw)
            assert 400 <= response.status_code < 500, (url, response.status_code)
            assert set(response.json()) == {"code", "message", "extra"}
    response = nibble.a.post(match_url(nibble.id, "moves"),
                             b'{"move": ' + b"[" * 900 + b"]" * 900 + b"}",
                             content_type="application/json",
                             headers={"Idempotency-Key": "deep"})
    assert 400 <= response.status_code < 500
    assert not Move.objects.exists()


@pytest.mark.parametrize("raw", [
    b'{"\\ud800": 1}',
    b'{"move": {"\\udfff": [[0, 0]]}}',
    b'{"move": {"take": "\\ud800"}}',
    b'{"game": "nibble", "config": {"\\ud800": 1}}',
    b'{"game": "nibble", "seats": [{"kind": "me"}, {"kind": "user", "username": "\\ud83d"}]}',
    b'{"username": "ok-name", "password": "\\ud800\\udc00 and more", "\\ud800": 2}',
])
def test_lone_surrogates_are_refused_not_crashed(nibble, post_urls, raw):
    for url in post_urls:
        response = _post_raw(nibble.a, url, raw)
        assert 400 <= response.status_code < 500, (url, response.status_code)
        assert set(response.json()) == {"code", "message", "extra"}


def test_huge_bodies_are_refused_with_413(nibble, post_urls):
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    padding = "x" * (limit + 1)
    raw = json.dumps({"move": {"take": [[0, 0]]}, "padding": padding}).encode()
    for url in post_urls:
        assert_error(_post_raw(nibble.a, url, raw), 413, "request_too_large")
    many_cells = json.dumps({"move": {"take": [[0, 0]] * (limit // 6)}}).encode()
    assert len(many_cells) > limit
    assert_error(_post_raw(nibble.a, match_url(nibble.id, "moves"), many_cells), 413,
                 "request_too_large")
    assert not Move.objects.exists()


def test_a_body_just_under_the_limit_is_parsed(nibble):
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    body = {"move": {"take": [[0, 0]]}, "pad": ""}
    body["pad"] = "x" * (limit - len(json.dumps(body)))
    raw = json.dumps(body).encode()
    assert len(raw) == limit
    response = _post_raw(nibble.a, match_url(nibble.id, "moves"), raw)
    assert_error(response, 400, "validation_error")  # parsed; "pad" is an unknown field


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x", "application/xml"])
def test_other_media_types_are_a_coded_415(nibble, post_urls, content_type):
    for url in post_urls:
        response = _post_raw(nibble.a, url, b"move=1", content_type=content_type)
        assert_error(response, 415, "unsupported_media_type")


def test_an_unacceptable_accept_header_is_a_coded_406(client_for, alice):
    response = client_for(alice).get("/api/games", headers={"Accept": "text/html"})
    assert_error(response, 406, "not_acceptable")


@pytest.mark.parametrize("body", [
    {"move": {"take": [[1e300, 0]]}},
    {"move": {"take": [[10**40, 10**40]]}, "expected_version": 0},
    {"move": {"take": [[0, 0]]}, "expected_version": 1e300},
    {"move": {"take": [[0, 0]]}, "expected_version": 10**40},
    {"move": {"take": [["\u0000", 0]]}},
    {"move": {"take\u0000": [[0, 0]]}},
    {"move": {"take": [[0, 0]] * 82}},
    {"move": {"take": [[r, c] for r in range(9) for c in range(9)]}},
    {"move": {"take": [[0, 0]], "take ": []}},
    {"move": {"take": [{"r": 0, "c": 0}]}},
    {"move": {"take": [[0, 0]]}, "expected_version": True},
    {"move": {"take": [[0, 0]]}, "expected_version": [0]},
    {"move": {"take": [[0, 0]]}, "expected_version": {"v": 0}},
])
def test_odd_values_in_a_move_are_coded_errors(nibble, body):
    for url in (match_url(nibble.id, "moves"), match_url(nibble.id, "moves/preview")):
        for client in (nibble.a, nibble.b):
            response = client.post(url, body, format="json")
            assert 400 <= response.status_code < 500, (url, response.status_code)
            assert set(response.json()) == {"code", "message", "extra"}
    assert not Move.objects.exists()
    assert Match.objects.get(id=nibble.id).version == 0


@pytest.mark.parametrize("body", [
    {"game": "nibble", "config": {"color_order": "\u0000"}},
    {"game": "nibble", "config": {"color_order": [1e300] * 9}},
    {"game": "nibble", "config": {"color_order": [10**40] * 9}},
    {"game": "nibble", "config": {"first_seat": 10**40}},
    {"game": "nibble", "config": {"first_seat": True}},
    {"game": "nibble", "config": {"\u0000": 1}},
    {"game": "nibble", "players": 10**40},
    {"game": "nibble", "seats": [{"kind": "me"}, {"kind": "user", "username": "a\u0000"}]},
    {"game": "nibble", "seats": [{"kind": "me"}, {"kind": "bot", "level": 10**40}]},
    {"game": "nibble", "time_control": {"hours_per_turn": 10**40}},
    {"game": "nibble", "time_control": {"days_per_turn": 1.5}},
    {"game": "nimble", "config": {"mode": "\u0000"}},
    {"game": "nimble", "config": {"budget": 10**40}},
    {"game": "nimble", "players": 4, "config": {"ramp": "sometimes"}},
    {"game": "nimalia", "config": {"objectives": "\u0000"}},
    {"game": "nimalia", "config": {"objectives": [1, 2, 3]}},
    {"game": "nimalia", "config": {"objectives": [10**40, -1, "a", None]}},
    {"game": "nimalia", "config": {"objectives": {"a": 1}}},
    {"game": "nimalia", "config": {"rounds": 3}},
    {"game": "nimalia", "config": {"tie_break": None}},
    {"game": "\u0000"},
    {"game": ["nibble"]},
    {"game": None},
])
def test_odd_values_in_a_new_match_are_coded_errors(client_for, alice, body):
    response = client_for(alice).post("/api/matches", body, format="json")
    assert 400 <= response.status_code < 500, response.status_code
    assert set(response.json()) == {"code", "message", "extra"}
    assert not Match.objects.exists()


def test_every_game_accepts_its_own_defaults(client_for, alice):
    for game in sorted(engines()):
        create_match(client_for(alice), game=game)


@pytest.mark.parametrize("path", [
    "/api/leaderboards/chess",
    "/api/leaderboards/%00",
    "/api/players/alice/ratings/chess/history",
    "/api/players/nobody/ratings/nibble/history",
    "/api/players/%00/ratings/nibble/history",
    "/api/players/alice/ratings/nibble/history?since=yesterday",
    "/api/players/alice/ratings/nibble/history?until=2020-13-45T99:00",
    "/api/players/alice/ratings/nibble/history?cursor=garbage",
    "/api/players/alice/ratings/nibble/history?cursor=" + base64.b64encode(b"p=abc").decode(),
    "/api/leaderboards/nibble?cursor=garbage",
    "/api/leaderboards/nibble?cursor=" + base64.b64encode(b"p=abc").decode(),
    "/api/leaderboards/nibble?cursor=" + base64.b64encode(b"p=\x00").decode(),
    "/api/leaderboards/nibble?cursor=" + base64.b64encode(b"o=99999999999").decode(),
    "/api/matches?cursor=" + base64.b64encode(b"p=\x00").decode(),
    "/api/matches?cursor=" + base64.b64encode(b"p=2020-01-01T00:00:00Z&r=1&o=5").decode(),
    "/api/matches?status=%00",
    "/api/matches?game=%ED%A0%80",
    "/api/matches?limit=99999999999999999999",
])
def test_odd_urls_and_queries_are_coded_errors(client_for, alice, path):
    response = client_for(alice).get(path)
    assert response.status_code < 500, (path, response.status_code)
    assert response["Content-Type"].startswith("application/json")
    if response.status_code >= 400:
        assert set(response.json()) == {"code", "message", "extra"}
