"""/metrics: a scrape after a real move (a person's move over the API, answered by a bot
through the Celery task, run eagerly here) shows every series the operators rely on; access is
refused as configured, with the coded envelope."""

from __future__ import annotations

import asyncio

import pytest
from django.test import AsyncClient, override_settings
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from games.catalog import games
from games.models import Match
from games.services.bots import bot_account_ensure
from tests.games.helpers import create_match, first_nibble_take
from tests.games.matchplay import match_url, submit

pytestmark = pytest.mark.django_db

TOKEN = "scrape-secret-42"


def scrape(client, **headers) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    response = client.get("/metrics", headers=headers)
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"].startswith("text/plain; version=")
    samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def labelled(samples, name: str) -> list[dict[str, str]]:
    return [dict(labels) for (found, labels) in samples if found == name]


@override_settings(METRICS_TOKEN=TOKEN, METRICS_CACHE_SECONDS=0)
def test_a_scrape_after_a_real_move_shows_every_series(make_user, client_for, api_client,
                                                       django_capture_on_commit_callbacks):
    bot_account_ensure("nibble", 1)
    me = client_for(make_user(username="scraped"))
    auth = {"Authorization": f"Bearer {TOKEN}"}
    before = scrape(api_client, **auth)

    with django_capture_on_commit_callbacks(execute=True):
        created = create_match(me, game="nibble", seats=[{"kind": "me"},
                                                         {"kind": "bot", "level": 1}])
    detail = me.get(match_url(created["id"])).json()  # the bot's task ran if it began
    assert detail["is_your_turn"], detail
    with django_capture_on_commit_callbacks(execute=True):
        moved = submit(me, created["id"], first_nibble_take(detail["legal_moves"]),
                       detail["version"])
    assert moved.status_code == 201, moved.json()
    match = Match.objects.get(id=created["id"])
    assert match.moves.filter(user__is_bot=True).exists()

    after = scrape(api_client, **auth)

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    # Requests by route name and status.
    assert grew("boardpost_http_requests_total",
                method="POST", status="201", view="games:moves") == 1
    assert grew("boardpost_http_requests_total",
                method="POST", status="201", view="games:matches") == 1
    assert grew("boardpost_http_request_seconds_count", view="games:moves") == 1
    assert not any("/api/" in labels.get("view", "") for labels in
                   labelled(after, "boardpost_http_requests_total"))
    # Moves per game, the player's move latency, bot think time.
    assert grew("boardpost_moves_total", game="nibble", kind="player") == 1
    assert grew("boardpost_moves_total", game="nibble", kind="bot") >= 1
    assert grew("boardpost_move_seconds_count", game="nibble") == 1
    assert grew("boardpost_move_seconds_bucket", game="nibble", le="+Inf") == 1
    assert grew("boardpost_bot_think_seconds_count", game="nibble", level="1") >= 1
    # Celery task counts and run times (the bot's move task).
    assert grew("boardpost_celery_tasks_total", task="games.match_bot_move_play",
                state="SUCCESS") >= 1
    assert grew("boardpost_celery_task_seconds_count", task="games.match_bot_move_play") >= 1
    # Read at scrape time: active matches by game, due work, waiters, queue depth.
    assert value(after, "boardpost_active_matches", game="nibble") == 1
    assert {labels["game"] for labels in labelled(after, "boardpost_active_matches")} >= set(
        games())
    assert value(after, "boardpost_due_work_matches", state="due") == 0
    assert ("boardpost_due_work_oldest_seconds", ()) in after
    assert ("boardpost_live_waiters", (("kind", "longpoll"),)) in after
    assert "boardpost_celery_queue_length" in {name for name, _ in after} or \
        not labelled(after, "boardpost_celery_queue_length")


@override_settings(METRICS_CACHE_SECONDS=0)
def test_due_work_shows_due_and_overdue_matches(make_user, client_for, api_client):
    from datetime import timedelta

    from django.utils import timezone

    me = client_for(make_user(username="due-owner"))
    ids = [create_match(me, game="nibble", seats=[{"kind": "me"}, {"kind": "open"}])["id"]
           for _ in range(3)]
    now = timezone.now()
    Match.objects.filter(id=ids[0]).update(work_due_at=now - timedelta(seconds=5))
    Match.objects.filter(id=ids[1]).update(work_due_at=now - timedelta(seconds=120))
    Match.objects.filter(id=ids[2]).update(work_due_at=now + timedelta(seconds=60))
    samples = scrape(api_client)  # from 127.0.0.1, allowed by default outside production
    assert value(samples, "boardpost_due_work_matches", state="due") == 2
    assert value(samples, "boardpost_due_work_matches", state="overdue") == 1
    assert value(samples, "boardpost_due_work_oldest_seconds") >= 120


@override_settings(METRICS_CACHE_SECONDS=0)
def test_active_matches_are_cached_between_scrapes(make_user, client_for, api_client):
    me = client_for(make_user(username="cache-owner"))
    with override_settings(METRICS_CACHE_SECONDS=3600):
        first = value(scrape(api_client), "boardpost_active_matches", game="nibble")
        Match.objects.filter(id=create_match(me, game="nibble", seats=[
            {"kind": "me"}, {"kind": "open"}])["id"]).update(status=Match.Status.ACTIVE)
        assert value(scrape(api_client), "boardpost_active_matches", game="nibble") == first
    assert value(scrape(api_client), "boardpost_active_matches", game="nibble") == first + 1


@pytest.mark.django_db(transaction=True)
def test_a_waiting_long_poll_is_counted_while_it_waits(make_user, client_for):
    """A real long-poll (the async view) raises the waiter gauge while it waits and lowers it
    when it is answered."""
    me = client_for(make_user(username="waiter"))
    created = create_match(me, game="nibble", seats=[{"kind": "me"}, {"kind": "open"}])
    token = me._credentials["HTTP_AUTHORIZATION"]

    def waiting() -> float:
        return REGISTRY.get_sample_value("boardpost_live_waiters", {"kind": "longpoll"}) or 0.0

    async def run() -> tuple[float, float, int]:
        base = waiting()
        client = AsyncClient()
        poll = asyncio.ensure_future(client.get(
            f"/api/matches/{created['id']}/events?after=0&wait=2",
            headers={"Authorization": token}))
        seen = base
        for _ in range(200):
            await asyncio.sleep(0.01)
            seen = max(seen, waiting())
            if seen > base or poll.done():
                break
        response = await poll
        assert response.status_code == 200, response.json()
        return seen - base, waiting() - base, response.status_code

    during, after, status = asyncio.run(run())
    assert status == 200
    assert during == 1
    assert after == 0


@pytest.mark.parametrize(("token", "allowed", "headers", "status", "code"), [
    ("", [], {}, 404, "not_found"),
    (TOKEN, [], {}, 401, "not_authenticated"),
    (TOKEN, [], {"Authorization": "Bearer wrong"}, 401, "authentication_failed"),
    (TOKEN, ["127.0.0.1"], {"Authorization": "Bearer wrong"}, 401, "authentication_failed"),
    ("", ["10.0.0.0/8"], {}, 403, "permission_denied"),
])
def test_metrics_are_refused_as_configured(api_client, token, allowed, headers, status, code):
    with override_settings(METRICS_TOKEN=token, METRICS_ALLOWED_ADDRESSES=allowed):
        response = api_client.get("/metrics", headers=headers)
    assert response.status_code == status
    assert response.json()["code"] == code
    assert b"boardpost_" not in response.content


def test_metrics_answer_the_token_or_an_allowed_address(api_client):
    with override_settings(METRICS_TOKEN=TOKEN, METRICS_ALLOWED_ADDRESSES=[]):
        assert api_client.get("/metrics",
                              headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200
    with override_settings(METRICS_TOKEN="", METRICS_ALLOWED_ADDRESSES=["127.0.0.0/8"]):
        assert api_client.get("/metrics").status_code == 200
        refused = api_client.post("/metrics")
        assert refused.status_code == 405
        assert refused.json()["code"] == "method_not_allowed"


def test_production_serves_metrics_to_no_address_by_default():
    import os
    import subprocess
    import sys

    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.production",
           "DJANGO_SECRET_KEY": "x" * 50}
    for name in ("METRICS_TOKEN", "METRICS_ALLOWED_ADDRESSES", "LOG_FORMAT"):
        env.pop(name, None)
    out = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); from django.conf import settings;"
         " print(repr(settings.METRICS_TOKEN), settings.METRICS_ALLOWED_ADDRESSES,"
         " settings.LOGGING['handlers']['console']['formatter'])"],
        env=env, capture_output=True, text=True, check=True).stdout.split()
    assert out == ["''", "[]", "json"]
