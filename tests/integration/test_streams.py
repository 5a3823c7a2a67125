"""Server-Sent Events: GET /api/matches/{id}/stream and GET /api/me/stream.

Refusals (authentication, visibility, parameters) come before any stream starts, so the test
client checks them. The streams themselves run under Granian, as deployed, or uvicorn with
BOARDPOST_LIVE_SERVER=uvicorn (with a heartbeat of half a second:
tests/integration/stream_settings.py), and are read over raw sockets, line by line, as a browser
would; disconnections are checked in-process against the ASGI handler, and against the running
server for a client that goes away."""

from __future__ import annotations

import asyncio
import json
import socket
import time
import uuid
from typing import Any

import pytest

from games.live import asgi as live_asgi
from games.live import hub as events_hub
from tests.conftest import skip_unless
from tests.factories import UserFactory, token_for
from tests.games.helpers import first_nibble_take
from tests.games.matchplay import assert_error
from tests.integration.conftest import await_until
from tests.integration.servers import LiveServer
from tests.integration.test_longpoll import _move_nibble, _nibble_over_http, _players

integration = pytest.mark.integration


# =========================================================================== test client

@pytest.mark.django_db
class TestRefusals:
    def test_without_a_token_both_streams_answer_401(self, api_client):
        for path in (f"/api/matches/{uuid.uuid4()}/stream", "/api/me/stream"):
            response = api_client.get(path)
            assert_error(response, 401, "not_authenticated")
            assert response["WWW-Authenticate"] == "Token"

    def test_a_bad_token_is_refused(self, api_client):
        api_client.credentials(HTTP_AUTHORIZATION="Token bp_nope")
        assert_error(api_client.get("/api/me/stream"), 401, "authentication_failed")

    def test_a_running_match_of_others_is_not_found(self, client_for):
        alice, bob, carol = UserFactory(), UserFactory(), UserFactory()
        created = client_for(alice).post("/api/matches", {
            "game": "nibble", "config": {"first_seat": 0}, "rated": False,
            "seats": [{"kind": "me"}, {"kind": "user", "username": bob.username}]},
            format="json").json()
        assert client_for(bob).post(f"/api/matches/{created['id']}/join").status_code == 200
        assert_error(client_for(carol).get(f"/api/matches/{created['id']}/stream"), 404,
                     "not_found")
        assert_error(client_for(carol).get(f"/api/matches/{uuid.uuid4()}/stream"), 404,
                     "not_found")

    @pytest.mark.parametrize("query, field", [("after=-1", "after"), ("after=x", "after"),
                                              ("wait=3", "wait")])
    def test_bad_parameters(self, client_for, query, field):
        body = assert_error(client_for(UserFactory()).get(f"/api/me/stream?{query}"), 400,
                            "validation_error")
        assert list(body["extra"]["fields"]) == [field]

    def test_a_bad_last_event_id(self, client_for):
        response = client_for(UserFactory()).get("/api/me/stream",
                                                 HTTP_LAST_EVENT_ID="abc")
        body = assert_error(response, 400, "validation_error")
        assert list(body["extra"]["fields"]) == ["Last-Event-ID"]

    def test_only_get(self, client_for):
        response = client_for(UserFactory()).post("/api/me/stream")
        assert_error(response, 405, "method_not_allowed")


@pytest.mark.django_db
@pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume asynchronous iterators")
def test_under_wsgi_a_stream_ends_with_its_first_message(client_for):
    alice, bob = UserFactory(), UserFactory()
    a, b = client_for(alice), client_for(bob)
    created = a.post("/api/matches", {
        "game": "nibble", "config": {"first_seat": 0}, "rated": False,
        "seats": [{"kind": "me"}, {"kind": "user", "username": bob.username}]},
        format="json").json()
    assert b.post(f"/api/matches/{created['id']}/join").status_code == 200
    detail = a.get(f"/api/matches/{created['id']}").json()
    moved = a.post(f"/api/matches/{created['id']}/moves",
                   {"move": first_nibble_take(detail["legal_moves"]),
                    "expected_version": detail["version"]}, format="json")
    assert moved.status_code == 201
    response = b.get(f"/api/matches/{created['id']}/stream?after=0")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/event-stream")
    text = b"".join(response).decode()  # Django collects an async stream under WSGI
    assert text.startswith("retry: 3000\n\n")
    (block,) = [part for part in text.split("\n\n") if part.startswith("id:")]
    fields = dict(line.split(": ", 1) for line in block.split("\n"))
    assert fields["id"] == "1" and fields["event"] == "match"
    assert [move["seq"] for move in json.loads(fields["data"])["moves"]] == [1]


def test_stream_urls_go_to_the_live_handler():
    for path in (f"/api/matches/{uuid.uuid4()}/stream", "/api/me/stream"):
        assert live_asgi.is_long_poll({"type": "http", "path": path})


@pytest.mark.django_db
def test_the_schema_describes_both_streams(api_client):
    schema = api_client.get("/api/schema?format=json").json()
    for path, operation_id in [("/api/matches/{match_id}/stream", "matches_stream"),
                               ("/api/me/stream", "me_stream")]:
        operation = schema["paths"][path]["get"]
        assert operation["operationId"] == operation_id
        assert "text/event-stream" in operation["responses"]["200"]["content"]
        assert {p["name"] for p in operation["parameters"]} >= {"after", "Last-Event-ID"}
        assert operation["security"] == [{"tokenAuth": []}]


# =========================================================================== real servers

@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker, server_database):
    with django_db_blocker.unblock():
        skip_unless(postgresql=True, redis=True)
    live = LiveServer(server_database, "tests.integration.stream_settings")
    try:
        yield live
    finally:
        live.stop()


class Stream:
    """An SSE connection read line by line: its status, headers, messages and comments."""

    def __init__(self, server: LiveServer, token: str, path: str,
                 last_event_id: str | None = None) -> None:
        self.sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        head = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token {token}\r\n"
                "Accept: text/event-stream\r\n")
        if last_event_id is not None:
            head += f"Last-Event-ID: {last_event_id}\r\n"
        self.sock.sendall((head + "\r\n").encode())
        self.file = self.sock.makefile("rb")
        status_line = self.file.readline()
        self.status = int(status_line.split()[1])
        self.headers: dict[str, str] = {}
        while (line := self.file.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            self.headers[name.strip().lower()] = value.strip()
        self.chunked = self.headers.get("transfer-encoding") == "chunked"
        self._buffer = b""

    def _more(self) -> bool:
        if not self.chunked:
            data = self.file.read1(65536)
            self._buffer += data
            return bool(data)
        size = int(self.file.readline().strip() or b"0", 16)
        if size == 0:
            return False
        self._buffer += self.file.read(size)
        self.file.readline()
        return True

    def next_block(self, timeout: float = 10) -> tuple[str, Any] | None:
        """The next comment ("comment", text) or message ("message", {id, event, data as
        JSON}); None when the stream ends."""
        self.sock.settimeout(timeout)
        while True:
            while b"\n\n" not in self._buffer:
                if not self._more():
                    return None
            block, self._buffer = self._buffer.split(b"\n\n", 1)
            fields: dict[str, Any] = {}
            for line in block.decode().split("\n"):
                if line.startswith(":"):
                    return "comment", line[1:].strip()
                name, _, value = line.partition(":")
                fields[name] = value.lstrip(" ")
            if "data" in fields:
                fields["data"] = json.loads(fields["data"])
                return "message", fields

    def next_message(self, timeout: float = 10) -> dict[str, Any] | None:
        while (block := self.next_block(timeout)) is not None:
            if block[0] == "message":
                return block[1]
        return None

    def close(self) -> None:
        self.file.close()
        self.sock.close()


@integration
def test_a_match_stream_carries_each_move_and_resumes_from_last_event_id(
        server, transactional_db):
    alice, bob = _players(server, "alice", "bob")
    match_id = _nibble_over_http(alice, bob)
    stream = Stream(server, bob.token, f"/api/matches/{match_id}/stream")
    try:
        assert stream.status == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        assert stream.headers["cache-control"] == "no-store"
        # First, at once, where the match stands: no move after the cursor yet.
        initial = stream.next_message()
        assert initial["id"] == "0" and initial["event"] == "match"
        assert initial["data"] == {"moves": [], "next_after": 0, "version": 0,
                                   "status": "active"}
        moved_at, moved = _move_nibble(alice, match_id)
        message = stream.next_message()
        assert time.monotonic() - moved_at < 2.0
        assert message["event"] == "match" and message["id"] == "1"
        assert [move["seq"] for move in message["data"]["moves"]] == [1]
        assert message["data"]["status"] == "active" and message["data"]["version"] == 1
        # The same entries as the long-poll and the log.
        assert bob.get(f"/api/matches/{match_id}/moves")[1]["moves"] == message["data"]["moves"]
        # Silence is broken by heartbeats (every half second for this server).
        assert stream.next_block(timeout=3) == ("comment", "keep-alive")
    finally:
        stream.close()
    # bob (seat 1) moves; a client back after a drop resumes after the last id it had.
    status, detail = bob.get(f"/api/matches/{match_id}")
    assert detail["is_your_turn"]
    status, _ = bob.post(f"/api/matches/{match_id}/moves",
                         {"move": first_nibble_take(detail["legal_moves"]),
                          "expected_version": detail["version"]})
    assert status == 201
    resumed = Stream(server, alice.token, f"/api/matches/{match_id}/stream?after=0",
                     last_event_id="1")
    try:
        assert resumed.status == 200, resumed.file.read1(2000)
        message = resumed.next_message()
        assert [move["seq"] for move in message["data"]["moves"]] == [2]
        assert message["id"] == "2"
    finally:
        resumed.close()


@integration
def test_a_finished_match_stream_sends_the_end_and_closes(server, transactional_db):
    alice, bob = _players(server, "alice", "bob")
    match_id = _nibble_over_http(alice, bob)
    stream = Stream(server, alice.token, f"/api/matches/{match_id}/stream")
    try:
        assert alice.post(f"/api/matches/{match_id}/resign")[0] == 200
        message = stream.next_message()
        while message is not None and message["data"]["status"] == "active":
            message = stream.next_message()
        assert message is not None and message["data"]["status"] == "finished"
        assert stream.next_message() is None  # the server ended the stream
    finally:
        stream.close()


@integration
def test_a_stream_client_that_goes_away_is_let_go(server, transactional_db):
    """The server sees the connection close while the stream waits between heartbeats."""
    alice, bob = _players(server, "alice", "bob")
    match_id = _nibble_over_http(alice, bob)
    server.assert_lets_go(
        "stream", lambda: Stream(server, alice.token, f"/api/matches/{match_id}/stream"))


@integration
def test_the_feed_stream_tells_the_player_to_act(server, transactional_db):
    alice, bob = _players(server, "alice", "bob")
    match_id = _nibble_over_http(alice, bob)
    status, feed = bob.get("/api/me/events")
    stream = Stream(server, bob.token, "/api/me/stream", last_event_id=str(feed["next_after"]))
    try:
        _move_nibble(alice, match_id)
        message = stream.next_message()
        assert message["event"] == "feed"
        (event,) = message["data"]["events"]
        assert event["type"] == "your_turn" and event["match"] == match_id
        assert message["id"] == str(event["id"]) == str(message["data"]["next_after"])
    finally:
        stream.close()


@integration
def test_nimalia_placements_stay_hidden_on_the_opponents_stream(server, transactional_db):
    alice, bob = _players(server, "alice", "bob")
    status, created = alice.post("/api/matches", {
        "game": "nimalia", "config": {"objectives": "first_game"}, "rated": False,
        "seats": [{"kind": "me"}, {"kind": "user", "username": "bob"}]})
    assert status == 201, created
    match_id = created["id"]
    assert bob.post(f"/api/matches/{match_id}/join")[0] == 200
    status, mine = alice.get(f"/api/matches/{match_id}")
    version = mine["version"]
    theirs = Stream(server, bob.token, f"/api/matches/{match_id}/stream?after={version}")
    own = Stream(server, alice.token, f"/api/matches/{match_id}/stream?after={version}")
    try:
        assert theirs.next_message()["data"]["moves"] == []
        assert own.next_message()["data"]["moves"] == []
        legal = mine["legal_moves"]
        row, col = legal["anchors"][0]
        placement = {"card": legal["cards"][0], "row": row, "col": col, "rotation": 0}
        assert alice.post(f"/api/matches/{match_id}/moves", {"move": placement})[0] == 201
        (entry,) = theirs.next_message()["data"]["moves"]
        assert entry["payload"] is None
        assert entry["events"] == [{"type": "card_placed", "seat": 0}]
        assert bob.get(f"/api/matches/{match_id}/moves?after={version}")[1]["moves"] == [entry]
        (mine_entry,) = own.next_message()["data"]["moves"]
        assert mine_entry["payload"] == placement
    finally:
        theirs.close()
        own.close()


@integration
def test_many_streams_all_get_the_move(server, transactional_db):
    alice, bob = _players(server, "alice", "bob")
    match_id = _nibble_over_http(alice, bob)
    streams = [Stream(server, (alice if n % 2 else bob).token,
                      f"/api/matches/{match_id}/stream") for n in range(40)]
    try:
        for stream in streams:
            assert stream.next_message()["data"]["moves"] == []
        _move_nibble(alice, match_id)
        for stream in streams:
            message = stream.next_message()
            assert [move["seq"] for move in message["data"]["moves"]] == [1]
    finally:
        for stream in streams:
            stream.close()


# =========================================================================== disconnects

def _asgi_scope(path: str, token: str) -> dict[str, Any]:
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "method": "GET", "scheme": "http", "path": path, "raw_path": path.encode(),
            "root_path": "", "query_string": b"",
            "headers": [(b"host", b"testserver"),
                        (b"authorization", f"Token {token}".encode())],
            "client": ("127.0.0.1", 5000), "server": ("testserver", 80)}


@pytest.mark.parametrize("path", ["/api/me/stream", "/api/me/events?wait=30"])
@pytest.mark.needs_redis
def test_a_client_going_away_ends_its_request_and_subscription(path, transactional_db):
    token = token_for(UserFactory())
    handler = live_asgi.LongPollASGIHandler()
    path, _, query = path.partition("?")

    async def scenario() -> None:
        sent: list[dict[str, Any]] = []
        gone = asyncio.Event()
        messages = [{"type": "http.request", "body": b"", "more_body": False}]

        async def receive() -> dict[str, Any]:
            if messages:
                return messages.pop()
            await gone.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        scope = _asgi_scope(path, token)
        scope["query_string"] = query.encode()
        serving = asyncio.ensure_future(handler(scope, receive, send))
        hub = None

        def subscribed() -> bool:
            nonlocal hub
            hub = events_hub.shared_hub()
            return hub is not None and hub.waiting() == 1

        await await_until(subscribed, timeout=10)
        assert not serving.done()
        gone.set()  # the client goes away
        await asyncio.wait_for(serving, timeout=5)
        assert hub is not None and hub.waiting() == 0
        await hub.close()

    asyncio.run(scenario())
