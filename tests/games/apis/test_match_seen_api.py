"""``POST /api/matches/{id}/seen``: a seat says it looked at the match (the "your turn" flood
limit counts it), and reading the match (``GET``) writes nothing at all."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from config.throttling import PlayerRateThrottle
from games.live import presence
from games.notify.models import TurnNotice
from tests.games.matchplay import assert_error, match_url, start_nibble_match

pytestmark = pytest.mark.django_db

WRITES = ("INSERT", "UPDATE", "DELETE")


def _waiting_notice(user, match_id) -> TurnNotice:
    """A "your turn" notice the player has not looked at since it went out."""
    return TurnNotice.objects.create(user=user, match_id=match_id,
                                     sent_at=timezone.now() - timedelta(minutes=1))


def _writes(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(WRITES)]


def test_reading_the_match_writes_nothing_even_while_a_turn_notice_waits(nibble, alice):
    notice = _waiting_notice(alice, nibble.id)
    for headers in ({}, {"If-None-Match": '"another"'}):
        with CaptureQueriesContext(connection) as queries:
            response = nibble.a.get(match_url(nibble.id), headers=headers)
        assert response.status_code == 200
        assert _writes(queries) == []
    etag = nibble.a.get(match_url(nibble.id))["ETag"]
    with CaptureQueriesContext(connection) as queries:
        assert nibble.a.get(match_url(nibble.id), headers={"If-None-Match": etag}).status_code \
            == 304
    assert _writes(queries) == []
    notice.refresh_from_db()
    assert notice.looked_at is None
    assert presence.seen_at(alice.id, nibble.id) is None


def test_a_seat_says_it_looked_and_the_notice_counts_it(nibble, alice):
    notice = _waiting_notice(alice, nibble.id)
    response = nibble.a.post(match_url(nibble.id, "seen"))
    assert response.status_code == 204 and response.content == b""
    notice.refresh_from_db()
    assert notice.looked_at is not None and notice.looked_at >= notice.sent_at
    # Nothing else changes: the match is where it was.
    assert nibble.detail()["version"] == 0


def test_looking_without_a_waiting_notice_writes_no_row(nibble, bob):
    with CaptureQueriesContext(connection) as queries:
        assert nibble.b.post(match_url(nibble.id, "seen")).status_code == 204
    # The one UPDATE matches no row: nothing to look at, nothing written.
    assert not TurnNotice.objects.exists()
    assert [sql for sql in _writes(queries) if not sql.upper().startswith("UPDATE")] == []


def test_a_match_one_may_not_see_is_not_found(nibble, client_for, carol):
    assert_error(client_for(carol).post(match_url(nibble.id, "seen")), 404, "not_found")
    missing = "00000000-0000-0000-0000-000000000000"
    assert_error(nibble.a.post(match_url(missing, "seen")), 404, "not_found")


def test_only_a_seat_may_say_it_looked(client_for, alice, bob, carol):
    a = client_for(alice)
    match = start_nibble_match(a, client_for(bob))
    a.post(match_url(match.id, "resign"))
    # A finished match is public: carol may read it, but she holds no seat there.
    assert client_for(carol).get(match_url(match.id)).status_code == 200
    assert_error(client_for(carol).post(match_url(match.id, "seen")), 403, "permission_denied")


def test_anonymous_callers_are_refused(api_client, nibble):
    response = api_client.post(match_url(nibble.id, "seen"))
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_a_seat_is_never_throttled(nibble, monkeypatch, client_for, carol):
    monkeypatch.setattr(PlayerRateThrottle, "rate", "2/min", raising=False)
    cache.clear()
    for _ in range(2):
        assert nibble.b.get("/api/me").status_code == 200
    assert_error(nibble.b.get("/api/me"), 429, "throttled")
    for _ in range(3):
        assert nibble.b.post(match_url(nibble.id, "seen")).status_code == 204
    # Someone without a seat there gets no such pass.
    other = client_for(carol)
    for _ in range(2):
        other.get("/api/me")
    assert_error(other.post(match_url(nibble.id, "seen")), 429, "throttled")
