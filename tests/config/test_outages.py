"""The circuit breaker for Redis on the request path (config.outages): one try per interval
while the service is away, and the outage logged once, not each failure."""

from __future__ import annotations

import logging

import pytest

from config.outages import REMIND_SECONDS, Breaker

logger = logging.getLogger("tests.outages")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def breaker(clock) -> Breaker:
    return Breaker("thing", logger=logger, fallback="doing without",
                   retry_seconds=lambda: 5.0, clock=clock)


def test_calls_go_through_while_the_service_answers(breaker):
    assert all(breaker.allow() for _ in range(100))
    breaker.succeeded()
    assert not breaker.is_open and breaker.outages == 0


def test_after_a_failure_one_call_per_interval_tries_again(breaker, clock):
    breaker.failed(ConnectionError("refused"))
    assert breaker.is_open
    assert [breaker.allow() for _ in range(50)] == [False] * 50
    clock.now += 5.0
    assert breaker.allow(), "the first call after the interval tries"
    assert not breaker.allow(), "the others skip while it tries"
    breaker.failed(ConnectionError("refused"))
    clock.now += 4.9
    assert not breaker.allow()
    clock.now += 0.1
    assert breaker.allow()
    breaker.succeeded()
    assert not breaker.is_open and all(breaker.allow() for _ in range(10))
    assert breaker.outages == 1


def test_the_outage_is_logged_not_each_failure(breaker, clock, caplog):
    caplog.set_level(logging.INFO, logger="tests.outages")
    for _ in range(200):  # concurrent requests all failing, then tries through the outage
        breaker.failed(TimeoutError("Timeout reading from socket"))
        clock.now += 0.1
    records = [r for r in caplog.records if r.name == "tests.outages"]
    assert len(records) == 1
    (warning,) = records
    assert warning.levelno == logging.WARNING
    assert "thing unavailable (TimeoutError: Timeout reading from socket)" in warning.message
    assert "doing without" in warning.message
    clock.now += REMIND_SECONDS
    breaker.failed(TimeoutError("again"))
    breaker.failed(TimeoutError("again"))
    records = [r for r in caplog.records if r.name == "tests.outages"]
    assert len(records) == 2 and "still unavailable after" in records[1].message
    breaker.succeeded()
    breaker.succeeded()
    records = [r for r in caplog.records if r.name == "tests.outages"]
    assert len(records) == 3 and records[2].levelno == logging.INFO
    assert "thing is back after" in records[2].message


def test_steady_only_some_time_after_an_outage(breaker, clock):
    assert breaker.steady_for(5.0), "a service never seen failing is steady"
    breaker.failed(ConnectionError("refused"))
    assert not breaker.steady_for(0.0)
    clock.now += 10
    breaker.succeeded()
    assert not breaker.steady_for(5.0)
    clock.now += 4.9
    assert not breaker.steady_for(5.0)
    clock.now += 0.1
    assert breaker.steady_for(5.0)
