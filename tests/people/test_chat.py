"""Match chat over HTTP: rooms, limits, duplicates, links, bots, mutes, moderators' mutes,
the throttled feed entry, and the lines as they come over the long-poll and the stream."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import UserEvent
from games.people.models import ChatLine, Standing
from tests.factories import BotFactory
from tests.games.helpers import create_match
from tests.games.matchplay import NibbleMatch, assert_error, match_url

pytestmark = pytest.mark.django_db


def say(client, match_id: str, body: str, status: int = 201) -> dict:
    response = client.post(match_url(match_id, "chat"), {"body": body}, format="json")
    assert response.status_code == status, response.json()
    return response.json()


def chat(client, match_id: str, **query) -> dict:
    response = client.get(match_url(match_id, "chat"), query)
    assert response.status_code == 200, response.json()
    return response.json()


def bodies(answer: dict) -> list[str]:
    return [line["body"] for line in answer["lines"]]


def finish(match) -> None:
    match.play_one()
    assert match.a.post(match_url(match.id, "resign")).status_code == 200


def test_seats_and_spectators_have_their_own_rooms_until_the_end(client_for, alice, bob,
                                                                 carol, api_client):
    a, b, c = client_for(alice), client_for(bob), client_for(carol)
    match_id = create_match(a, config={"first_seat": 0})["id"]  # a seat open: in the lobby
    line = say(a, match_id, "  good   luck\n")
    assert (line["body"], line["room"], line["author"]) == ("good luck", "players", "alice")
    say(c, match_id, "who will take it?")
    assert bodies(chat(c, match_id)) == ["who will take it?"]
    assert bodies(chat(api_client, match_id)) == ["who will take it?"]
    assert b.post(match_url(match_id, "join")).status_code == 200
    match = NibbleMatch(id=match_id, a=a, b=b)
    seen = chat(b, match_id)
    assert bodies(seen) == ["good luck"]
    assert (seen["rooms"], seen["room"], seen["muted"]) == (["players"], "players", False)
    assert_error(c.get(match_url(match_id, "chat")), 404, "not_found")  # a running match
    finish(match)
    for client in (a, b, c, api_client):
        answer = chat(client, match_id)
        assert bodies(answer) == ["good luck", "who will take it?"]
        assert answer["rooms"] == ["players", "spectators"]
    assert chat(a, match_id, after=line["id"])["next_after"] > line["id"]


def test_a_private_match_chat_is_not_found_for_others(client_for, alice, bob, carol):
    a = client_for(alice)
    created = a.post("/api/matches", {"game": "nibble", "private": True, "seats": [
        {"kind": "me"}, {"kind": "user", "username": "bob"}]}, format="json").json()
    assert_error(client_for(carol).get(match_url(created["id"], "chat")), 404, "not_found")
    assert_error(client_for(carol).post(match_url(created["id"], "chat"), {"body": "hi"},
                                        format="json"), 404, "not_found")
    say(client_for(bob), created["id"], "hello")  # an invited seat talks before the start


def test_length_and_bad_input(nibble):
    assert_error(nibble.a.post(match_url(nibble.id, "chat"), {"body": "x" * 201},
                               format="json"), 400, "validation_error")
    assert_error(nibble.a.post(match_url(nibble.id, "chat"), {"body": " \n "},
                               format="json"), 400, "validation_error")
    assert_error(nibble.a.post(match_url(nibble.id, "chat"), {"body": "hi", "x": 1},
                               format="json"), 400, "validation_error")
    assert_error(nibble.a.get(match_url(nibble.id, "chat"), {"after": -1}), 400,
                 "validation_error")
    assert ChatLine.objects.count() == 0


def test_a_duplicate_line_is_dropped(nibble):
    first = say(nibble.a, nibble.id, "Good game")
    again = say(nibble.a, nibble.id, "good  GAME ", status=200)
    assert again == first
    say(nibble.a, nibble.id, "rematch?")
    say(nibble.a, nibble.id, "good game")  # not the previous line: said again
    ChatLine.objects.update(created_at=timezone.now() - timedelta(hours=1))
    say(nibble.a, nibble.id, "good game")  # long after: said again
    assert ChatLine.objects.count() == 4


def test_links_need_an_account_old_enough(nibble, client_for, make_user):
    for text in ("see https://example.test/x", "www.example", "go to evil.com now"):
        body = assert_error(nibble.a.post(match_url(nibble.id, "chat"), {"body": text},
                                          format="json"), 400, "chat_links_not_allowed")
        assert body["extra"] == {"days": 7}
    say(nibble.a, nibble.id, "e.g. this is fine. ok.")
    older = client_for(make_user(date_joined=timezone.now() - timedelta(days=8)))
    say(older, create_match(older)["id"], "see https://example.test/x")


def test_bots_say_nothing(client_for, alice):
    bot = BotFactory()
    created = client_for(alice).post("/api/matches", {"game": "nibble", "seats": [
        {"kind": "me"}, {"kind": "bot", "level": 1}]}, format="json").json()
    assert_error(client_for(bot).post(match_url(created["id"], "chat"), {"body": "beep"},
                                      format="json"), 403, "chat_not_allowed")


def test_muting_a_chat(nibble):
    say(nibble.a, nibble.id, "hello")
    assert nibble.b.put(match_url(nibble.id, "chat/mute")).status_code == 204
    say(nibble.b, nibble.id, "mine")
    answer = chat(nibble.b, nibble.id)
    assert (bodies(answer), answer["muted"]) == (["mine"], True)
    UserEvent.objects.filter(type="chat").delete()  # the entry for "hello"
    say(nibble.a, nibble.id, "are you there?")
    assert not UserEvent.objects.filter(user=nibble.b.user, type="chat").exists()
    assert nibble.b.delete(match_url(nibble.id, "chat/mute")).status_code == 204
    assert bodies(chat(nibble.b, nibble.id)) == ["hello", "mine", "are you there?"]


def test_a_muted_player_cannot_write_until_the_mute_ends(nibble, alice):
    until = timezone.now() + timedelta(days=2)
    Standing.objects.create(user=alice, chat_muted_until=until)
    body = assert_error(nibble.a.post(match_url(nibble.id, "chat"), {"body": "hi"},
                                      format="json"), 403, "chat_muted")
    assert body["extra"]["until"] == until.isoformat()
    Standing.objects.filter(user=alice).update(chat_muted_until=timezone.now())
    say(nibble.a, nibble.id, "hi")


def test_writing_too_fast_is_throttled(nibble):
    for n in range(10):
        say(nibble.a, nibble.id, f"line {n}")
    response = nibble.a.post(match_url(nibble.id, "chat"), {"body": "one more"}, format="json")
    assert_error(response, 429, "throttled")
    assert "Retry-After" in response.headers
    assert chat(nibble.a, nibble.id)["lines"]  # reading is not throttled with it


def test_a_seat_is_told_once_per_quiet_period(nibble, bob):
    say(nibble.a, nibble.id, "one")
    say(nibble.a, nibble.id, "two")
    told = UserEvent.objects.filter(user=bob, type="chat")
    assert [(e.data["by"], e.data["game"]) for e in told] == [("alice", "nibble")]
    assert not UserEvent.objects.filter(user=nibble.a.user, type="chat").exists()
    told.update(created_at=timezone.now() - timedelta(minutes=16))
    say(nibble.a, nibble.id, "three")
    assert told.count() == 2
    feed = nibble.b.get("/api/me/events").json()["events"]
    assert [e["type"] for e in feed].count("chat") == 2


def test_the_long_poll_and_the_stream_carry_the_lines(nibble, client_for, carol):
    first = say(nibble.a, nibble.id, "hello")
    polled = nibble.b.get(match_url(nibble.id, "chat/events"), {"after": 0, "wait": 0})
    assert polled.status_code == 200
    assert bodies(polled.json()) == ["hello"]
    waited = nibble.b.get(match_url(nibble.id, "chat/events"),
                          {"after": first["id"], "wait": 1})
    assert waited.json()["lines"] == [] and waited.json()["next_after"] == first["id"]
    streamed = nibble.b.get(match_url(nibble.id, "chat/stream"))
    assert streamed["Content-Type"].startswith("text/event-stream")
    (block,) = [p for p in b"".join(streamed).decode().split("\n\n") if p.startswith("id:")]
    fields = dict(line.split(": ", 1) for line in block.split("\n"))
    assert fields["event"] == "chat" and fields["id"] == str(first["id"])
    assert bodies(json.loads(fields["data"])) == ["hello"]
    assert_error(nibble.b.get(match_url(nibble.id, "chat/events"), {"after": "x"}), 400,
                 "validation_error")
    assert_error(client_for(carol).get(match_url(nibble.id, "chat/events")), 404, "not_found")
    assert_error(client_for(carol).get(match_url(nibble.id, "chat/stream")), 404, "not_found")


def test_reading_the_chat_costs_the_same_few_queries_however_long_it_is(nibble):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def cost() -> int:
        with CaptureQueriesContext(connection) as queries:
            chat(nibble.b, nibble.id)
        return len(queries)

    for n in range(3):
        ChatLine.objects.create(match_id=nibble.id, author=nibble.a.user, room="players",
                                body=f"line {n}")
    few = cost()
    ChatLine.objects.bulk_create([ChatLine(match_id=nibble.id, author=nibble.a.user,
                                           room="players", body=f"more {n}") for n in range(40)])
    assert cost() == few <= 8


def test_the_chats_long_poll_and_stream_go_to_the_live_handler():
    import uuid

    from games.live import asgi as live_asgi

    for suffix in ("chat/events", "chat/stream"):
        path = f"/api/matches/{uuid.uuid4()}/{suffix}"
        assert live_asgi.is_long_poll({"type": "http", "path": path})
    assert not live_asgi.is_long_poll({"type": "http", "path": f"/api/matches/{uuid.uuid4()}/chat"})
