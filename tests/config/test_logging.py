"""Log lines: JSON with the request id (accepted from X-Request-ID when well formed, else made,
and returned in the response), the user id and the match id of an error; secrets redacted."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from config.logging import handler_for, logging_config, redact
from tests.games.helpers import create_match
from tests.games.matchplay import submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def log_lines() -> Iterator[io.StringIO]:
    """Everything logged at DEBUG and above, through a handler configured like the console's."""
    stream = io.StringIO()
    handler = handler_for(stream)
    root = logging.getLogger()
    saved = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield stream
    finally:
        root.removeHandler(handler)
        root.setLevel(saved)


def records(stream: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in stream.getvalue().splitlines() if line.strip()]


@pytest.mark.parametrize(("sent", "kept"), [
    ("0f8fad5b-d9cb-469f-a165-70867728950e", True),
    ("6a2f41a3c54d4d4fb9b0e1a1c0ffee00", True),
    ("short", False),
    ("bp_looks_like_an_api_key_0123456789", False),
    ("has spaces in it", False),
    ("x" * 65, False),
    ("<script>alert(1)</script>", False),
])
def test_request_id_is_taken_when_well_formed_and_always_returned(api_client, sent, kept):
    response = api_client.get("/api/games", headers={"X-Request-ID": sent})
    returned = response["X-Request-ID"]
    if kept:
        assert returned == sent
    else:
        assert returned != sent and len(returned) == 32
        int(returned, 16)


def test_each_request_gets_its_own_id(api_client):
    ids = {api_client.get("/api/games")["X-Request-ID"] for _ in range(3)}
    assert len(ids) == 3


def test_an_error_line_has_the_request_id_the_user_and_the_match(make_user, client_for,
                                                                 log_lines):
    alice = make_user(username="log-alice")
    client = client_for(alice)
    match_id = create_match(client, seats=[{"kind": "me"}, {"kind": "open"}])["id"]
    response = submit(client, match_id, {"take": [[0, 0]]}, 0,
                      **{"X-Request-ID": "req-0123456789abcdef"})
    assert response.status_code == 409  # the match has not started
    assert response["X-Request-ID"] == "req-0123456789abcdef"
    lines = [r for r in records(log_lines) if r.get("request_id") == "req-0123456789abcdef"]
    assert lines, log_lines.getvalue()
    error = next(r for r in lines if r["logger"] == "django.request")
    assert error["level"] == "WARNING"
    assert error["user_id"] == alice.pk
    assert error["match_id"] == match_id
    assert error["status_code"] == 409
    assert {"time", "level", "logger", "message"} <= set(error)


@pytest.mark.django_db(transaction=True)
def test_an_eager_task_runs_with_the_request_id_of_its_request(make_user, client_for):
    """A bot's move queued by a request runs (eagerly here) with that request's id; the real
    worker's case is tests/integration/test_request_id_worker.py."""
    from games.services.bots import bot_account_ensure

    bot_account_ensure("nibble", 1)
    client = client_for(make_user(username="log-bob"))
    seen: list[tuple[str | None, dict | None]] = []

    from celery import signals

    from config import request_id

    def during_task(**_):
        seen.append((request_id.request_id.get(), request_id.current_task.get()))

    signals.task_prerun.connect(during_task, weak=False)
    try:
        # The match commits inside the request, whose on-commit hook queues the bot's move.
        created = client.post("/api/matches", {
            "game": "nibble", "config": {"first_seat": 0},
            "seats": [{"kind": "bot", "level": 1}, {"kind": "me"}]},
            format="json", headers={"X-Request-ID": "eager-request-0001"})
    finally:
        signals.task_prerun.disconnect(during_task)
    assert created.status_code == 201
    assert seen, "the bot's task did not run"
    assert all(rid == "eager-request-0001" for rid, _ in seen), seen
    bot_move = [task for _, task in seen if task["task"] == "games.match_bot_move_play"]
    assert bot_move and bot_move[0]["match_id"] == created.json()["id"]


def test_secrets_are_redacted_in_any_line(log_lines):
    logger = logging.getLogger("tests.secrets")
    logger.warning("header Authorization: Token bp_AbCdEf0123456789 and Bearer s3cr3t-value-x")
    logger.error("form %s", {"username": "ada", "password": "hunter2-long"})
    try:
        raise ValueError("bp_InsideATraceback999")
    except ValueError:
        logger.exception("failed")
    text = log_lines.getvalue()
    for secret in ("bp_AbCdEf0123456789", "s3cr3t-value-x", "hunter2-long",
                   "bp_InsideATraceback999"):
        assert secret not in text
    assert "[redacted]" in text
    assert "ada" in text


def test_sql_statements_are_never_logged(log_lines):
    from django.db import connection

    from accounts.models import User

    sql = logging.getLogger("django.db.backends")
    saved = sql.level
    sql.setLevel(logging.DEBUG)
    connection.force_debug_cursor = True
    try:
        User.objects.create(username="sql-never-logged")
    finally:
        connection.force_debug_cursor = False
        sql.setLevel(saved)
    assert "sql-never-logged" not in log_lines.getvalue()


def test_the_format_is_chosen_by_setting():
    assert logging_config("json")["handlers"]["console"]["formatter"] == "json"
    assert logging_config("plain")["handlers"]["console"]["formatter"] == "plain"
    with pytest.raises(ValueError):
        logging_config("xml")
    stream = io.StringIO()
    handler = handler_for(stream, "plain")
    logger = logging.getLogger("tests.plain")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning("readable")
    finally:
        logger.removeHandler(handler)
        logger.propagate = True
    assert stream.getvalue().rstrip().endswith("WARNING tests.plain [-] readable")


def test_redact_leaves_ordinary_words():
    for text in ("The token expired for the match", "database bp_obs does not exist"):
        assert redact(text) == text

