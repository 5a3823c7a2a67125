"""A chat entry (games.people.notices) is pushed to the seat, not mailed by default: who
wrote, never what; once per match per quiet period."""

from __future__ import annotations

import pytest

from games.people.chat import chat_say
from tests.notify.helpers import registered_device, start, verified

pytestmark = pytest.mark.django_db


def test_a_chat_line_is_pushed_once_and_says_who_not_what(
        smtp, push_service, alice, bob, django_capture_on_commit_callbacks):
    verified(bob)
    device = registered_device(push_service, bob)
    match = start("nibble", [alice, bob], config={"first_seat": 0})
    with django_capture_on_commit_callbacks(execute=True):
        chat_say(user=alice, match_id=match.id, body="a secret plan")
        chat_say(user=alice, match_id=match.id, body="another line")
    pushed = [p for p in push_service.for_device(device) if p["kind"] == "chat"]
    assert len(pushed) == 1
    assert pushed[0]["url"] == f"/match/{match.id}"
    assert pushed[0]["title"] == "Nibble: alice wrote in the chat"
    assert "secret" not in repr(pushed)
    assert not [m for m in smtp.messages if "chat" in m["Subject"]]
