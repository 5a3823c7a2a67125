"""A request's id reaches the log lines of the Celery tasks it queued, in a real worker process
on Redis: the worker logs JSON lines whose request_id is the request's (and the task's name,
id and match id), and the web side's own lines carry the same id."""

from __future__ import annotations

import io
import json
import logging

import pytest

from config.logging import handler_for
from games.models import Match
from games.services.bots import bot_account_ensure
from tests.integration.conftest import wait_until
from tests.integration.http import register

pytestmark = pytest.mark.integration

REQUEST_ID = "it-request-0f8fad5bd9cb469f"


def test_a_request_id_travels_into_the_worker_task_log_lines(live_server,
                                                             celery_worker_process):
    bot_account_ensure("nibble", 1)
    me = register(live_server.url, "request-id-person")
    stream = io.StringIO()
    handler = handler_for(stream)
    root = logging.getLogger()
    saved = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        # The bot has seat 0, so creating the match queues its first move.
        status, created = me.post("/api/matches", {
            "game": "nibble", "config": {"first_seat": 0},
            "seats": [{"kind": "bot", "level": 1}, {"kind": "me"}]},
            headers={"X-Request-ID": REQUEST_ID})
        assert status == 201, created
    finally:
        root.removeHandler(handler)
        root.setLevel(saved)
    match_id = created["id"]
    wait_until(lambda: Match.objects.get(id=match_id).version > 0, timeout=60,
               message="the bot's first move was not played")

    web = [json.loads(line) for line in stream.getvalue().splitlines()]
    queued = [r for r in web if r["message"].startswith("queued games.match_bot_move_play")]
    assert queued and all(r["request_id"] == REQUEST_ID for r in queued), web

    def task_lines() -> list[dict]:
        lines = []
        for line in celery_worker_process.output().splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if record.get("task") == "games.match_bot_move_play":
                lines.append(record)
        return lines

    lines = wait_until(lambda: [r for r in task_lines() if "succeeded" in r["message"]],
                       timeout=30, message="the worker logged no line for the task")
    assert all(r["request_id"] == REQUEST_ID for r in lines), lines
    assert all(r["match_id"] == match_id for r in lines), lines
    assert lines[0]["task_id"]
