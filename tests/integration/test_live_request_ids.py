"""Clients woken by the same move share one rendered answer in the live-update handler, but
never a request id: each gets its own X-Request-ID back, and each is counted in the request
metrics (a real uvicorn process, as deployed)."""

from __future__ import annotations

import json
import threading
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.integration.test_longpoll import (  # noqa: F401 - the module's server fixture
    _assert_waiting,
    _move_nibble,
    _nibble_over_http,
    _players,
    events_url,
    server,
)

pytestmark = pytest.mark.integration


class Poll(threading.Thread):
    def __init__(self, url: str, token: str, request_id: str) -> None:
        super().__init__(daemon=True)
        self.request = urllib.request.Request(url, headers={
            "Authorization": f"Token {token}", "X-Request-ID": request_id})
        self.returned: str | None = None
        self.body: dict | None = None

    def run(self) -> None:
        with urllib.request.urlopen(self.request, timeout=40) as response:
            self.returned = response.headers.get("X-Request-ID")
            self.body = json.loads(response.read())


def _requests_counted(url: str, view: str) -> float:
    with urllib.request.urlopen(url + "/metrics", timeout=10) as response:
        text = response.read().decode()
    total = 0.0
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if (sample.name == "boardpost_http_requests_total"
                    and sample.labels.get("view") == view
                    and sample.labels.get("status") == "200"):
                total += sample.value
    return total


def test_woken_clients_get_their_own_request_ids_and_are_all_counted(server,  # noqa: F811
                                                                     transactional_db):
    alice, bob = _players(server, "alice", "bob")
    match_id = _nibble_over_http(alice, bob)
    counted_before = _requests_counted(server.url, "games:match-events")
    polls = [Poll(server.url + events_url(match_id, after=0, wait=30), bob.token,
                  f"shared-answer-{n:04d}") for n in range(6)]
    for poll in polls:
        poll.start()
    _assert_waiting(*polls)
    _move_nibble(alice, match_id)
    for poll in polls:
        poll.join(40)
        assert poll.body is not None and poll.body["moves"][0]["seq"] == 1
    assert sorted(poll.returned for poll in polls) == [f"shared-answer-{n:04d}"
                                                       for n in range(6)]
    assert _requests_counted(server.url, "games:match-events") - counted_before == 6
