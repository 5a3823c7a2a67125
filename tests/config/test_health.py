"""GET /health/live and GET /health/ready: unauthenticated, unthrottled, cheap; readiness
checks PostgreSQL, each Redis in use and that a Celery worker answers."""

from __future__ import annotations

import uuid

import pytest
from django.test import override_settings

from config import health
from tests.games.matchplay import assert_error

NO_REDIS = {"CELERY_BROKER_URL": "filesystem://", "EVENTS_REDIS_URL": "",
            "CACHES": {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}}


@pytest.fixture(autouse=True)
def nothing_remembered(monkeypatch):
    monkeypatch.setattr(health, "_remembered", {"at": -1e9, "checks": None})


def test_live_answers_without_the_database(client):
    # No django_db mark: any database access would fail the test.
    response = client.get("/health/live")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert response["Cache-Control"] == "no-store"


def test_health_is_not_throttled(client):
    # Far above the anonymous budget (THROTTLE_ANON, 60/min).
    assert {client.get("/health/live").status_code for _ in range(100)} == {200}


def test_health_answers_get_only_with_the_envelope(client):
    response = client.post("/health/live")
    assert_error(response, 405, "method_not_allowed")
    assert response["Allow"] == "GET, HEAD"


@pytest.mark.django_db
@override_settings(**NO_REDIS)
def test_ready_checks_the_database_alone_when_nothing_else_is_configured(client):
    response = client.get("/health/ready")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["status"] == "ok"
    assert set(body["checks"]) == {"database"}
    assert body["checks"]["database"]["ok"] is True


@pytest.mark.django_db
@override_settings(**NO_REDIS)
def test_ready_answers_503_naming_the_database_when_it_fails(client, monkeypatch):
    from django.db import OperationalError

    def refused():
        raise OperationalError("connection refused")

    monkeypatch.setattr(health, "check_database", refused)
    response = client.get("/health/ready")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable" and body["failing"] == ["database"]
    assert body["checks"]["database"] == {"ok": False, "error": "OperationalError",
                                          "ms": body["checks"]["database"]["ms"]}


@pytest.mark.django_db
@override_settings(CELERY_BROKER_URL="redis://127.0.0.1:1/0", EVENTS_REDIS_URL="",
                   CACHES=NO_REDIS["CACHES"])
def test_ready_answers_503_when_the_broker_is_away_without_waiting_for_workers(client):
    response = client.get("/health/ready")
    assert response.status_code == 503
    body = response.json()
    assert body["failing"] == ["broker", "worker"]
    assert body["checks"]["worker"]["error"] == "broker unavailable"
    assert body["checks"]["database"]["ok"] is True


@pytest.mark.needs_redis
@pytest.mark.django_db
def test_ready_answers_503_when_no_worker_answers(client):
    from config.celery_app import app

    if app.control.ping(timeout=0.5):
        pytest.skip("a Celery worker is listening on this broker")
    response = client.get("/health/ready")
    assert response.status_code == 503
    body = response.json()
    assert body["failing"] == ["worker"]
    assert body["checks"]["broker"]["ok"] is True
    assert body["checks"]["database"]["ok"] is True


@pytest.mark.integration
@pytest.mark.needs_redis
@pytest.mark.django_db(transaction=True)
def test_ready_answers_200_when_a_worker_answers(client):
    from tests.integration.conftest import Worker, _database_url

    worker = Worker(f"health-{uuid.uuid4().hex[:8]}", _database_url(), concurrency=1)
    worker.start()
    try:
        response = client.get("/health/ready")
    finally:
        worker.stop()
    assert response.status_code == 200, response.json()
    assert response.json()["checks"]["worker"]["ok"] is True


@pytest.mark.django_db
@override_settings(**NO_REDIS, HEALTH_READY_CACHE_SECONDS=60)
def test_ready_remembers_its_answer_briefly(client, monkeypatch):
    calls = []
    real = health.run_checks
    monkeypatch.setattr(health, "run_checks", lambda: calls.append(1) or real())
    for _ in range(5):
        assert client.get("/health/ready").status_code == 200
    assert len(calls) == 1


@pytest.mark.django_db
def test_health_is_not_in_the_public_schema(client):
    schema = client.get("/api/schema?format=json").json()
    assert not [path for path in schema["paths"] if path.startswith("/health")]
