"""The replica's rules without a replica: which reads may use it (config.replica.read_database),
the router that keeps writes and migrations on the primary, and the pin a caller's write sets.
tests/integration/test_replica.py runs them against a real streaming replica."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.db import transaction
from django.test import RequestFactory, override_settings

from config import replica


@pytest.fixture
def with_replica(monkeypatch):
    """A replica as configured, whose state the test sets (``verdict``)."""
    verdict = ["ok"]
    monkeypatch.setattr(replica, "configured", lambda: True)
    monkeypatch.setattr(replica.HEALTH, "verdict", lambda: verdict[0])
    return verdict


def reads(database: str, reason: str) -> float:
    return replica.READS.labels(database, reason)._value.get()


def test_without_a_replica_every_read_is_on_the_primary():
    assert replica.read_database() == "default"


@pytest.mark.django_db
def test_a_read_uses_the_replica_only_when_nothing_says_otherwise(with_replica):
    before = reads("replica", "ok")
    assert replica.read_database() == "replica"
    assert reads("replica", "ok") == before + 1
    for state in ("lagging", "down"):
        with_replica[0] = state
        before = reads("default", state)
        assert replica.read_database() == "default"
        assert reads("default", state) == before + 1


@pytest.mark.django_db(transaction=True)
def test_a_read_inside_a_transaction_stays_on_the_primary(with_replica):
    with transaction.atomic():
        assert replica.read_database() == "default"
    assert replica.read_database() == "replica"


@pytest.mark.django_db
@override_settings(REPLICA_PIN_SECONDS=60)
def test_a_callers_write_pins_their_reads_to_the_primary(with_replica, make_user):
    writer, other = make_user(), make_user()
    middleware = replica.ReplicaPinMiddleware(lambda request: SimpleNamespace(status_code=201))
    request = RequestFactory().post("/api/matches")
    request.user = writer
    middleware(request)
    assert replica.read_database(writer) == "default"
    assert replica.read_database(other) == "replica"
    # A refused or reading request pins nobody.
    for method, status in (("post", 409), ("get", 200)):
        refused = replica.ReplicaPinMiddleware(
            lambda request, status=status: SimpleNamespace(status_code=status))
        request = getattr(RequestFactory(), method)("/api/matches")
        request.user = other
        refused(request)
        assert replica.read_database(other) == "replica"


def test_the_router_writes_and_migrates_on_the_primary_only():
    router = replica.ReplicaRouter()
    instance = SimpleNamespace(_state=SimpleNamespace(db="replica"))
    assert router.db_for_write(object, instance=instance) == "default"
    assert router.db_for_read(object, instance=instance) == "replica"
    assert router.db_for_read(object) is None
    assert router.allow_migrate("default", "games") and not router.allow_migrate("replica", "games")
