"""Long-poll endpoints: GET /api/matches/{id}/events and GET /api/me/events.

The fast tests use Django's test client (an async view under WSGI, one event loop per request).
The integration tests run Granian, as the events process is deployed (or uvicorn, with
BOARDPOST_LIVE_SERVER=uvicorn), as a subprocess on the test database (transactional tests, so it
sees the commits) with Redis pub/sub, and talk to it over sockets like a phone would.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
import uuid
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.db import connection

from games.catalog import get_engine
from games.live import asgi as longpoll_asgi
from games.live import hub as events_hub
from games.models import Match, Move, UserEvent
from games.services import SeatSpec, match_create, match_join, match_move_submit
from tests.conftest import skip_unless
from tests.factories import UserFactory, token_for
from tests.games.helpers import create_match, first_nibble_take
from tests.games.matchplay import assert_error, match_url, start_nibble_match
from tests.integration.conftest import await_until, holds_for
from tests.integration.http import HttpClient
from tests.integration.servers import LiveServer

integration = pytest.mark.integration


def events_url(match_id: str, **query: Any) -> str:
    params = "&".join(f"{key}={value}" for key, value in query.items())
    return f"/api/matches/{match_id}/events" + (f"?{params}" if params else "")


def feed_url(**query: Any) -> str:
    params = "&".join(f"{key}={value}" for key, value in query.items())
    return "/api/me/events" + (f"?{params}" if params else "")


# =========================================================================== test client




@pytest.mark.django_db
class TestParameters:
    @pytest.mark.parametrize("query, field", [
        ("wait=61", "wait"), ("wait=-1", "wait"), ("wait=abc", "wait"), ("wait=1.5", "wait"),
        ("wait=", "wait"), ("after=-1", "after"), ("after=x", "after"),
        ("after=99999999999", "after"), ("limit=0", "limit"), ("limit=501", "limit"),
        ("since=3", "since"),
    ])
    def test_match_events_refuses_bad_parameters(self, nibble, query, field):
        response = nibble.a.get(f"/api/matches/{nibble.id}/events?{query}")
        body = assert_error(response, 400, "validation_error")
        assert list(body["extra"]["fields"]) == [field]

    @pytest.mark.parametrize("query, field", [
        ("wait=61", "wait"), ("wait=-5", "wait"), ("wait=ten", "wait"), ("after=-1", "after"),
        ("limit=0", "limit"), ("limit=101", "limit"), ("cursor=abc", "cursor"),
    ])
    def test_feed_refuses_bad_parameters(self, client_for, alice, query, field):
        body = assert_error(client_for(alice).get(f"/api/me/events?{query}"), 400,
                            "validation_error")
        assert list(body["extra"]["fields"]) == [field]

    def test_the_longest_wait_is_accepted(self, nibble):
        # A finished or aborted match answers at once, whatever the wait.
        nibble.a.post(match_url(nibble.id, "resign"))
        started = time.monotonic()
        response = nibble.a.get(events_url(nibble.id, wait=settings.LONG_POLL_MAX_SECONDS))
        assert response.status_code == 200, response.json()
        assert time.monotonic() - started < 5
        assert response.json()["status"] == "finished"

    def test_a_lower_cap_set_at_run_time_is_honoured(self, nibble, settings):
        settings.LONG_POLL_MAX_SECONDS = 2
        body = assert_error(nibble.a.get(events_url(nibble.id, wait=3)), 400,
                            "validation_error")
        assert body["extra"]["fields"] == {
            "wait": ["Ensure this value is less than or equal to 2."]}

    def test_only_get(self, nibble):
        for url in (events_url(nibble.id), feed_url()):
            response = nibble.a.post(url, {}, format="json")
            assert_error(response, 405, "method_not_allowed")
            assert response["Allow"] == "GET"


@pytest.mark.django_db
class TestAuthentication:
    @pytest.mark.parametrize("authorization, code", [
        (None, "not_authenticated"),
        ("Bearer abc", "not_authenticated"),
        ("Token", "authentication_failed"),
        ("Token a b", "authentication_failed"),
        ("Token 0123456789abcdef0123456789abcdef01234567", "authentication_failed"),
        ("Token " + "a" * 300, "authentication_failed"),
        ("Token abc\x00def", "authentication_failed"),
        ("Token caf\u00e9", "authentication_failed"),
    ])
    def test_a_missing_or_invalid_token_is_a_401(self, api_client, nibble, authorization,
                                                 code):
        if authorization is not None:
            api_client.credentials(HTTP_AUTHORIZATION=authorization)
        for url in (events_url(nibble.id, wait=5), feed_url(wait=5)):
            started = time.monotonic()
            response = assert_error(api_client.get(url), 401, code)
            assert time.monotonic() - started < 2  # refused before any wait
            assert response["extra"] == {}

    def test_the_401_names_the_scheme(self, api_client):
        response = api_client.get(feed_url())
        assert response["WWW-Authenticate"] == "Token"

    def test_an_inactive_user_is_refused(self, client_for, make_user):
        user = make_user()
        client = client_for(user)
        user.is_active = False
        user.save()
        body = assert_error(client.get(feed_url()), 401, "authentication_failed")
        assert body["message"] == "User inactive or deleted."

    def test_session_cookies_are_not_credentials(self, api_client, alice):
        api_client.force_login(alice)
        assert_error(api_client.get(feed_url()), 401, "not_authenticated")


@pytest.mark.django_db
class TestMatchEvents:
    def test_a_missing_or_hidden_match_is_a_404_at_once(self, client_for, nibble, carol):
        started = time.monotonic()
        assert_error(client_for(carol).get(events_url(nibble.id, wait=30)), 404, "not_found")
        assert_error(nibble.a.get(events_url(uuid.uuid4(), wait=30)), 404, "not_found")
        assert time.monotonic() - started < 5
        assert_error(nibble.a.get("/api/matches/not-a-uuid/events"), 404, "not_found")

    def test_the_entries_are_those_of_the_move_log(self, nibble):
        for _ in range(3):
            nibble.play_one()
        for client in (nibble.a, nibble.b):
            log = client.get(match_url(nibble.id, "moves") + "?after=1").json()
            events = client.get(events_url(nibble.id, after=1)).json()
            assert events == {**log, "status": "active"}
            assert [move["seq"] for move in events["moves"]] == [2, 3]
            assert events["next_after"] == 3 == events["version"]

    def test_limit_and_paging(self, nibble):
        for _ in range(3):
            nibble.play_one()
        first = nibble.a.get(events_url(nibble.id, limit=2)).json()
        assert [move["seq"] for move in first["moves"]] == [1, 2]
        rest = nibble.a.get(events_url(nibble.id, after=first["next_after"])).json()
        assert [move["seq"] for move in rest["moves"]] == [3]
        assert rest["next_after"] == 3

    def test_wait_zero_answers_at_once_with_nothing_new(self, nibble):
        started = time.monotonic()
        response = nibble.a.get(events_url(nibble.id, after=0, wait=0))
        assert time.monotonic() - started < 2
        assert response.status_code == 200
        assert response["Cache-Control"] == "no-store"
        assert response.json() == {"moves": [], "next_after": 0, "version": 0,
                                   "status": "active"}

    def test_a_wait_with_nothing_new_answers_empty_after_the_wait(self, nibble):
        started = time.monotonic()
        response = nibble.a.get(events_url(nibble.id, after=0, wait=1))
        elapsed = time.monotonic() - started
        assert 0.9 <= elapsed < 4, elapsed
        assert response.json()["moves"] == []

    def test_an_open_match_is_visible_to_anyone_who_could_join(self, client_for, alice,
                                                              carol):
        created = create_match(client_for(alice), players=2)
        body = client_for(carol).get(events_url(created["id"])).json()
        assert body == {"moves": [], "next_after": 0, "version": 0, "status": "open"}


@pytest.mark.django_db
class TestFeed:
    def test_the_feed_shape(self, client_for, alice, bob):
        a, b = client_for(alice), client_for(bob)
        match = start_nibble_match(a, b)
        body = b.get(feed_url()).json()
        assert set(body) == {"events", "next_after"}
        events = body["events"]
        assert [event["type"] for event in events] == ["match_started"]
        event = events[0]
        assert set(event) == {"id", "type", "match", "game", "data", "created_at"}
        assert event["match"] == match.id and event["game"] == "nibble"
        assert event["data"] == {}
        assert body["next_after"] == event["id"]
        mine = a.get(feed_url()).json()["events"]
        assert [event["type"] for event in mine] == ["match_started", "your_turn"]
        assert mine[1]["data"] == {"version": 0, "deadline": None}

    def test_invitations_and_turns_oldest_first(self, client_for, alice, bob):
        a, b = client_for(alice), client_for(bob)
        created = create_match(a, config={"first_seat": 1},
                               seats=[{"kind": "me"}, {"kind": "user", "username": "bob"}])
        b.post(match_url(created["id"], "join"))
        events = b.get(feed_url()).json()["events"]
        assert [event["type"] for event in events] == ["invited", "match_started", "your_turn"]
        assert events[0]["data"] == {"by": "alice"}
        assert [event["id"] for event in events] == sorted(event["id"] for event in events)

    def test_after_and_limit_page_through_the_feed(self, client_for, alice, bob):
        a, b = client_for(alice), client_for(bob)
        match = start_nibble_match(a, b)
        for _ in range(4):
            match.play_one()
        everything = a.get(feed_url()).json()["events"]
        assert len(everything) >= 3
        page = a.get(feed_url(limit=2)).json()
        assert page["events"] == everything[:2]
        rest = a.get(feed_url(after=page["next_after"])).json()
        assert rest["events"] == everything[2:]
        last = a.get(feed_url(after=rest["next_after"], wait=0)).json()
        assert last == {"events": [], "next_after": rest["next_after"]}

    def test_an_entry_about_no_match(self, client_for, alice):
        UserEvent.objects.create(user=alice, type="rating_changed",
                                 data={"game": "nimble", "before": 1500, "after": 1512})
        (event,) = client_for(alice).get(feed_url()).json()["events"]
        assert event["match"] is None and event["game"] == "nimble"
        assert event["data"] == {"before": 1500, "after": 1512}

    def test_nobody_reads_another_players_feed(self, client_for, alice, bob, carol):
        start_nibble_match(client_for(alice), client_for(bob))
        assert client_for(carol).get(feed_url()).json() == {"events": [], "next_after": 0}


@pytest.mark.django_db
def test_the_schema_describes_both_endpoints(api_client):
    response = api_client.get("/api/schema?format=json")
    assert response.status_code == 200
    schema = json.loads(response.content)
    match_op = schema["paths"]["/api/matches/{match_id}/events"]["get"]
    feed_op = schema["paths"]["/api/me/events"]["get"]
    assert set(schema["paths"]["/api/matches/{match_id}/events"]) == {"get"}
    assert match_op["operationId"] == "matches_events"
    assert feed_op["operationId"] == "me_events"
    for operation in (match_op, feed_op):
        query = {p["name"]: p["schema"] for p in operation["parameters"] if p["in"] == "query"}
        assert set(query) == {"after", "wait", "limit"}
        assert query["wait"]["maximum"] == settings.LONG_POLL_MAX_SECONDS
        assert query["wait"]["minimum"] == 0
        assert operation["security"] == [{"tokenAuth": []}]
        assert {"200", "400", "401"} <= set(operation["responses"])
    assert "404" in match_op["responses"]
    components = schema["components"]["schemas"]
    assert set(components["MatchEvents"]["properties"]) == {"moves", "next_after", "version",
                                                             "status"}
    assert set(components["UserEvent"]["properties"]) == {"id", "type", "match", "game",
                                                          "data", "created_at"}


def test_the_long_poll_handler_runs_no_sync_middleware():
    middleware = longpoll_asgi.long_poll_middleware()
    assert longpoll_asgi.sync_only_middleware(middleware) == []
    assert "whitenoise.middleware.WhiteNoiseMiddleware" not in middleware
    # Everything else of the project's middleware is kept.
    assert [path for path in settings.MIDDLEWARE if "whitenoise" not in path] == middleware
    assert isinstance(longpoll_asgi.LongPollASGIHandler(), longpoll_asgi.LongPollASGIHandler)


# Fixed match ids: every test process (make test's) must collect the same test names.
@pytest.mark.parametrize("path, routed", [
    ("/api/matches/3f2c9a4e-8b1d-4c6e-9f0a-2d7b5e1c8a94/events", True),
    ("/api/me/events", True),
    ("/api/matches/a61e0d52-7c3b-4f89-b2d4-9e8f1a6c3b07/moves", False),
    ("/api/me/inbox", False),
    ("/api/matches/not-a-uuid/events", False),
    ("/static/anything.css", False),
])
def test_only_the_long_poll_urls_go_to_the_long_poll_handler(path, routed):
    assert longpoll_asgi.is_long_poll({"type": "http", "path": path}) is routed
    assert longpoll_asgi.is_long_poll({"type": "http", "path": "/prefix" + path,
                                       "root_path": "/prefix"}) is routed


# =========================================================================== real servers


def _needs_redis_and_postgres() -> None:
    skip_unless(postgresql=True, redis=True)


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker, server_database):
    with django_db_blocker.unblock():
        _needs_redis_and_postgres()
    live = LiveServer(server_database)
    try:
        yield live
    finally:
        live.stop()


class Waiter(threading.Thread):
    """One long-poll in a thread of its own: the answer, and when it came."""

    def __init__(self, client: HttpClient, path: str) -> None:
        super().__init__(daemon=True)
        self.client, self.path = client, path
        self.started_at = self.done_at = 0.0
        self.status: int | None = None
        self.body: Any = None

    def run(self) -> None:
        self.started_at = time.monotonic()
        self.status, self.body = self.client.get(self.path)
        self.done_at = time.monotonic()

    def answer(self, timeout: float = 40) -> tuple[int | None, Any]:
        self.join(timeout)
        assert not self.is_alive(), "the long-poll never answered"
        return self.status, self.body


def _players(server: LiveServer, *names: str) -> list[HttpClient]:
    return [HttpClient(server.url, token_for(UserFactory(username=name))) for name in names]


def _nibble_over_http(alice: HttpClient, bob: HttpClient) -> str:
    status, created = alice.post("/api/matches", {
        "game": "nibble", "config": {"first_seat": 0}, "rated": False,
        "seats": [{"kind": "me"}, {"kind": "user", "username": "bob"}]})
    assert status == 201, created
    status, joined = bob.post(f"/api/matches/{created['id']}/join")
    assert status == 200 and joined["status"] == "active", joined
    return created["id"]


def _move_nibble(client: HttpClient, match_id: str) -> tuple[float, dict]:
    """Seat 0's move over HTTP; returns when the request was sent and the answer."""
    status, detail = client.get(f"/api/matches/{match_id}")
    assert status == 200 and detail["is_your_turn"], detail
    body = {"move": first_nibble_take(detail["legal_moves"]),
            "expected_version": detail["version"]}
    sent_at = time.monotonic()
    status, moved = client.post(f"/api/matches/{match_id}/moves", body)
    assert status == 201, moved
    return sent_at, moved


def _assert_waiting(*waiters: Waiter, seconds: float = 1.0) -> None:
    """The long-polls just sent, with nothing new to answer, stay unanswered for ``seconds``.

    This is the first half of what these tests show (a waiting request answers only when
    something happens), and it gives each request the time to reach its wait in the server's
    process, a moment that nothing outside the process can observe. Any answer fails at once."""
    assert holds_for(lambda: all(waiter.is_alive() for waiter in waiters), seconds), (
        "answered with nothing new: "
        f"{[waiter.body for waiter in waiters if not waiter.is_alive()][:3]}")


@integration
def test_a_match_long_poll_wakes_within_a_second_of_another_clients_move(
        server, transactional_db):
    alice, bob = _players(server, "alice", "bob")
    match_id = _nibble_over_http(alice, bob)
    waiter = Waiter(bob, events_url(match_id, after=0, wait=30))
    waiter.start()
    _assert_waiting(waiter)
    moved_at, moved = _move_nibble(alice, match_id)
    status, body = waiter.answer()
    assert status == 200, body
    assert waiter.done_at - moved_at < 1.0, waiter.done_at - moved_at
    assert [move["seq"] for move in body["moves"]] == [1]
    assert body["moves"][0]["seat"] == 0 and body["moves"][0]["player"]["username"] == "alice"
    assert body["next_after"] == 1 == body["version"] and body["status"] == "active"
    # The same entries as the synchronous log.
    assert bob.get(f"/api/matches/{match_id}/moves")[1]["moves"] == body["moves"]


@integration
def test_the_feed_wakes_on_your_turn(server, transactional_db):
    alice, bob = _players(server, "alice", "bob")
    match_id = _nibble_over_http(alice, bob)
    status, feed = bob.get(feed_url())
    assert status == 200 and [e["type"] for e in feed["events"]] == ["invited", "match_started"]
    waiter = Waiter(bob, feed_url(after=feed["next_after"], wait=30))
    waiter.start()
    _assert_waiting(waiter)
    moved_at, moved = _move_nibble(alice, match_id)
    status, body = waiter.answer()
    assert status == 200, body
    assert waiter.done_at - moved_at < 1.0, waiter.done_at - moved_at
    (event,) = body["events"]
    assert event["type"] == "your_turn" and event["match"] == match_id
    assert event["game"] == "nibble" and event["data"]["version"] == moved["seq"]
    assert body["next_after"] == event["id"]


@integration
def test_wait_zero_answers_at_once_and_an_idle_wait_answers_empty_after_it(
        server, transactional_db):
    alice, bob = _players(server, "alice", "bob")
    match_id = _nibble_over_http(alice, bob)
    for path, empty in [(events_url(match_id, after=0, wait=0), {"moves": []}),
                        (feed_url(after=10**9, wait=0), {"events": []})]:
        started = time.monotonic()
        status, body = bob.get(path)
        assert status == 200 and time.monotonic() - started < 1.0
        assert body.items() >= empty.items()
    for path, empty in [(events_url(match_id, after=0, wait=2),
                         {"moves": [], "next_after": 0, "version": 0, "status": "active"}),
                        (feed_url(after=10**9, wait=2),
                         {"events": [], "next_after": 10**9})]:
        started = time.monotonic()
        status, body = bob.get(path)
        elapsed = time.monotonic() - started
        assert status == 200 and body == empty
        assert 1.9 <= elapsed < 3.5, elapsed


@integration
def test_nimalia_placements_stay_hidden_from_a_waiting_opponent(server, transactional_db):
    alice, bob = _players(server, "alice", "bob")
    status, created = alice.post("/api/matches", {
        "game": "nimalia", "config": {"objectives": "first_game"}, "rated": False,
        "seats": [{"kind": "me"}, {"kind": "user", "username": "bob"}]})
    assert status == 201, created
    match_id = created["id"]
    assert bob.post(f"/api/matches/{match_id}/join")[0] == 200
    status, mine = alice.get(f"/api/matches/{match_id}")
    version = mine["version"]
    waiter = Waiter(bob, events_url(match_id, after=version, wait=30))
    waiter.start()
    _assert_waiting(waiter)
    legal = mine["legal_moves"]
    row, col = legal["anchors"][0]
    placement = {"card": legal["cards"][0], "row": row, "col": col, "rotation": 0}
    sent_at = time.monotonic()
    status, moved = alice.post(f"/api/matches/{match_id}/moves", {"move": placement})
    assert status == 201, moved
    status, body = waiter.answer()
    assert status == 200 and waiter.done_at - sent_at < 1.0
    (entry,) = body["moves"]
    assert entry["seat"] == 0 and entry["kind"] == "move"
    assert entry["payload"] is None  # alice's pending placement, hidden from bob
    assert entry["events"] == [{"type": "card_placed", "seat": 0}]
    # Exactly what bob's synchronous log shows, while alice sees her own placement.
    assert bob.get(f"/api/matches/{match_id}/moves?after={version}")[1]["moves"] == [entry]
    status, own = alice.get(events_url(match_id, after=version))
    assert own["moves"][0]["payload"] == placement
    assert [event["type"] for event in own["moves"][0]["events"]] == [
        "card_placed", "placement_pending"]
    stored = Move.objects.get(match_id=match_id, seq=version + 1)
    assert stored.payload == placement


@integration
def test_many_waiting_clients_cost_no_thread_and_all_wake(server, transactional_db):
    alice, bob = _players(server, "alice", "bob")
    match_id = _nibble_over_http(alice, bob)
    alice.get(events_url(match_id, wait=0))  # warm the server up
    threads_before = server.threads()
    waiters = [Waiter(alice if n % 2 else bob, events_url(match_id, after=0, wait=30))
               for n in range(60)]
    for waiter in waiters:
        waiter.start()
    _assert_waiting(*waiters, seconds=2.0)
    threads_waiting = server.threads()
    # The database pool may start its few threads; one per waiting request would be 60.
    assert threads_waiting - threads_before < 10, (threads_before, threads_waiting)
    moved_at, _ = _move_nibble(alice, match_id)
    answers = [waiter.answer() for waiter in waiters]
    assert all(status == 200 and body["moves"][0]["seq"] == 1 for status, body in answers)
    assert max(waiter.done_at for waiter in waiters) - moved_at < 5


@integration
def test_a_long_poll_client_that_goes_away_is_let_go_at_once(server, transactional_db):
    """The server sees the connection close while the request waits: the request ends then,
    not at the end of its wait."""
    alice, bob = _players(server, "alice", "bob")
    match_id = _nibble_over_http(alice, bob)

    def connect() -> socket.socket:
        client = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        client.sendall(f"GET {events_url(match_id, after=0, wait=30)} HTTP/1.1\r\n"
                       f"Host: 127.0.0.1\r\nAuthorization: Token {bob.token}\r\n\r\n"
                       .encode())
        return client

    server.assert_lets_go("longpoll", connect)


@pytest.fixture
def request_waiting(monkeypatch) -> threading.Event:
    """An event set when a long-poll request served in this process (by the test client)
    reaches its wait, having subscribed and found nothing new."""
    waiting = threading.Event()
    wait = events_hub.Subscription.wait

    async def wait_and_tell(self, timeout: float) -> bool:
        waiting.set()
        return await wait(self, timeout)

    monkeypatch.setattr(events_hub.Subscription, "wait", wait_and_tell)
    return waiting


class WhenWaiting(threading.Thread):
    """Runs ``action`` once a long-poll request is waiting (``request_waiting``), in a thread
    (and database connection) of its own, so that a commit is real."""

    def __init__(self, waiting: threading.Event, action) -> None:
        super().__init__(daemon=True)
        self.waiting, self.action = waiting, action
        self.acted_at = 0.0

    def run(self) -> None:
        try:
            if self.waiting.wait(timeout=20):
                self.acted_at = time.monotonic()
                self.action()
        finally:
            connection.close()


def _move_seat_zero(match: Match, user) -> None:
    """Seat 0 of a Nibble match moves through the service."""
    engine = get_engine("nibble")
    current = Match.objects.get(id=match.id)
    legal = engine.view(engine.load(current.state), 0)["legal_moves"]
    match_move_submit(user=user, match_id=current.id, move=first_nibble_take(legal))


def _nibble_in_db():
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    match = match_create(user=alice, game="nibble", config={"first_seat": 0}, rated=False,
                         seats=[SeatSpec("me"), SeatSpec("user", username="bob")])
    match_join(user=bob, match_id=match.id)
    return match, alice, bob


@integration
def test_under_wsgi_a_waiting_request_is_woken_by_a_commit(client_for, transactional_db,
                                                           request_waiting):
    """The Django test client runs the async view the way gunicorn would: in an event loop of
    its own, with a private Redis subscription."""
    _needs_redis_and_postgres()
    match, alice, bob = _nibble_in_db()
    mover = WhenWaiting(request_waiting, lambda: _move_seat_zero(match, alice))
    mover.start()
    response = client_for(bob).get(events_url(match.id, after=0, wait=20))
    done_at = time.monotonic()
    mover.join()
    assert mover.acted_at, "the request never waited"
    assert response.status_code == 200
    assert [move["seq"] for move in response.json()["moves"]] == [1]
    assert done_at - mover.acted_at < 1.0


@integration
def test_a_publish_without_a_change_keeps_the_request_waiting(nibble, request_waiting):
    _needs_redis_and_postgres()
    publisher = WhenWaiting(request_waiting,
                            lambda: events_hub.publish(events_hub.match_channel(nibble.id)))
    publisher.start()
    started = time.monotonic()
    response = nibble.a.get(events_url(nibble.id, after=0, wait=2))
    publisher.join()
    assert publisher.acted_at, "the request never waited"
    assert response.json()["moves"] == [] and time.monotonic() - started >= 1.9


def test_without_redis_a_waiting_request_polls_the_database(client_for, transactional_db,
                                                            settings, request_waiting):
    settings.EVENTS_REDIS_URL = ""
    settings.EVENTS_POLL_SECONDS = 0.2
    match, alice, bob = _nibble_in_db()
    mover = WhenWaiting(request_waiting, lambda: _move_seat_zero(match, alice))
    mover.start()
    response = client_for(bob).get(events_url(match.id, after=0, wait=20))
    done_at = time.monotonic()
    mover.join()
    assert mover.acted_at, "the request never waited"
    assert [move["seq"] for move in response.json()["moves"]] == [1]
    assert done_at - mover.acted_at < 0.2 + 0.8


# =========================================================================== the hub itself


class RedisProxy:
    """A TCP proxy in front of the test's Redis that a test can cut and bring back."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.port = 0
        self.server: asyncio.Server | None = None
        self.writers: list[asyncio.StreamWriter] = []

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
        self.port = self.server.sockets[0].getsockname()[1]

    async def cut(self) -> None:
        assert self.server is not None
        self.server.close()
        for writer in self.writers:
            writer.close()
        self.writers.clear()
        await self.server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        self.writers += [writer, up_writer]

        async def pump(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            try:
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                sink.close()

        await asyncio.gather(pump(reader, up_writer), pump(up_reader, writer))


@integration
@pytest.mark.needs_redis
def test_the_hub_falls_back_to_polling_while_redis_is_away_and_reconnects(settings):
    settings.EVENTS_POLL_SECONDS = 0.3
    target = urlsplit(settings.EVENTS_REDIS_URL)
    channel = events_hub.match_channel(uuid.uuid4())

    async def scenario() -> None:
        proxy = RedisProxy((target.hostname or "127.0.0.1", target.port or 6379))
        await proxy.start()
        async with events_hub.Hub(f"redis://127.0.0.1:{proxy.port}/0",
                                  patterns=[events_hub.PREFIX + "*"]) as hub:
            with hub.subscription(channel) as subscription:
                assert await await_until(lambda: hub.live, 5), "the hub never subscribed"
                subscription.rearm()
                await asyncio.to_thread(events_hub.publish, channel)
                assert await subscription.wait(5), "no wake-up through Redis"

                subscription.rearm()
                await proxy.cut()
                assert await subscription.wait(5), "losing Redis must wake the waiters"
                assert await await_until(lambda: not hub.live, 5)
                subscription.rearm()
                started = time.monotonic()
                assert not await subscription.wait(30)  # a poll interval, not 30 s
                assert time.monotonic() - started < 1.0

                await proxy.start()  # same port
                assert await await_until(lambda: hub.live, 10), "the hub never reconnected"
                assert hub.connects >= 2
                subscription.rearm()
                await asyncio.to_thread(events_hub.publish, channel)
                assert await subscription.wait(5), "no wake-up after the reconnection"
            assert hub.waiting() == 0
        await proxy.cut()

    asyncio.run(scenario())


def test_a_subscription_without_a_hub_waits_one_poll_interval(settings):
    settings.EVENTS_POLL_SECONDS = 0.2

    async def scenario() -> float:
        subscription = events_hub.Subscription(None, "boardpost:match:x")
        started = time.monotonic()
        assert not await subscription.wait(10)
        return time.monotonic() - started

    assert 0.15 <= asyncio.run(scenario()) < 1.0
