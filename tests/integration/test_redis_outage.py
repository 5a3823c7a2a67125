"""A Redis outage during play, with the docker compose shape: one Redis for the throttle cache,
the Celery broker and the long-poll wake-ups, and real processes around it (uvicorn serving the
API, a Celery worker, Celery beat running the due-work sweep).

The test runs a private ``redis-server`` on a port of its own (never the shared one), plays
Nimalia against a bot, and takes Redis away twice: stopped (connections refused), then replaced
by a listener that accepts connections and never answers (a hanging Redis). Meanwhile the
person's moves are accepted (201), reads, sign-in and long-polls answer (200), none with a 500
and none slowly; after each outage Redis comes back empty, as after a restart, and the bot's
turn and the round's scoring that were due catch up, exactly once. As under compose, a worker or
beat that exits is started again (:class:`Supervisor`).

Latencies and catch-up times are printed (``pytest -s``) as well as bounded generously.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from games.catalog import get_engine
from games.models import Match, Move
from games.services.bots import bot_accounts_ensure
from tests.conftest import skip_unless
from tests.hanging import HangingListener, free_port
from tests.integration.conftest import (
    ROOT,
    Worker,
    holds_for,
    queue_env,
    wait_until,
)
from tests.integration.http import HttpClient, register

pytestmark = pytest.mark.integration

# Bounds with wide margins over what is measured (see the module docstring): a request during
# an outage, and due work after Redis returns (the bound is a minute).
SLOW_REQUEST_SECONDS = 1.5
# Except a move while Redis hangs: its answer waits for the broker to take (or refuse) the bot's
# task, bounded by the broker's own timeouts (CELERY_BROKER_SOCKET_TIMEOUT, the publish retry
# policy: games.services.scheduling), not by REDIS_SOCKET_TIMEOUT.
HANGING_BROKER_MOVE_SECONDS = 10.0
CATCH_UP_SECONDS = 60.0
# The due-work sweep, shortened so that the test does not wait out production's grace period.
SWEEP_ENV = {"DUE_WORK_GRACE_SECONDS": "3", "DUE_WORK_SWEEP_SECONDS": "2"}


def accepts(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
    except OSError:
        return False
    return True


class PrivateRedis:
    """A ``redis-server`` of the test's own, without persistence: each start is empty."""

    def __init__(self, port: int, directory: Path) -> None:
        self.port = port
        self.directory = directory
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        import redis

        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("needs redis-server")
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.directory), "--daemonize", "no"],
            stdout=(self.directory / "redis.log").open("a"), stderr=subprocess.STDOUT)
        client = redis.Redis(port=self.port, socket_connect_timeout=0.5, socket_timeout=0.5)

        def pong() -> bool:
            try:
                return bool(client.ping())
            except redis.RedisError:
                return False

        wait_until(pong, timeout=20, interval=0.05, message="the private Redis did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None
        wait_until(lambda: not accepts(self.port), timeout=10, interval=0.05,
                   message="the private Redis still accepts connections")


class Process:
    """A subprocess of the app (uvicorn, Celery beat) with its output in a log file."""

    def __init__(self, name: str, args: list[str], env: dict[str, str]) -> None:
        self.args, self.env = args, {**os.environ, **env}
        self.log = ROOT / "var" / f"{name}-{uuid.uuid4().hex[:6]}.log"
        self.log.parent.mkdir(parents=True, exist_ok=True)
        self.process = self.spawn()

    def spawn(self) -> subprocess.Popen:
        self.process = subprocess.Popen(self.args, cwd=ROOT, env=self.env,
                                        stdout=self.log.open("w"), stderr=subprocess.STDOUT,
                                        start_new_session=True)
        return self.process

    def output(self) -> str:
        return self.log.read_text() if self.log.exists() else ""

    def alive(self) -> bool:
        if self.process.poll() is not None:
            raise RuntimeError(f"{self.log.name} exited:\n{self.output()}")
        return True

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


class Supervisor(threading.Thread):
    """Starts the worker or beat again when it exits, as compose's ``restart: unless-stopped``
    does, each time with a log of its own. A worker can exit on a broker outage: kombu 5.7's
    Redis transport may fail to close a lost connection that holds an unacknowledged message
    (``'NoneType' object has no attribute 'hostname'``, an "Unrecoverable error"). Each restart
    is kept with how the ended process's log ended, and printed."""

    def __init__(self, processes: dict[str, Any]) -> None:
        super().__init__(daemon=True)
        self.processes = processes
        self.restarts: list[str] = []
        self.halt = threading.Event()

    def run(self) -> None:
        while not self.halt.wait(0.2):
            for name, process in self.processes.items():
                if process.process is not None and process.process.poll() is not None:
                    ended = process.output().splitlines()[-1:] or ["(no output)"]
                    self.restarts.append(f"{name} exited ({process.log.name}): {ended[0][:300]}")
                    process.log = process.log.with_name(
                        f"{process.log.stem}-again{len(self.restarts)}.log")
                    process.spawn()

    def stop(self) -> None:
        self.halt.set()
        self.join(timeout=10)


class Timed(HttpClient):
    """An API client that records every request: what, its status and how long it took."""

    def __init__(self, base_url: str, token: str | None, log: list[tuple[str, int, float]]):
        super().__init__(base_url, token)
        self.timings = log

    def request(self, method: str, path: str, body: Any = None,
                headers: dict[str, str] | None = None) -> tuple[int, Any]:
        started = time.monotonic()
        status, answer = super().request(method, path, body, headers)
        self.timings.append((f"{method} {path.split('?')[0]}", status,
                             time.monotonic() - started))
        return status, answer


@pytest.fixture
def stack(transactional_db, tmp_path, server_database):
    """The private Redis, and uvicorn, a worker and beat all configured to use it."""
    skip_unless(postgresql=True)
    port = free_port()
    redis_server = PrivateRedis(port, tmp_path)
    redis_server.start()
    queue = f"test-outage-{uuid.uuid4().hex[:8]}"
    env = {
        "DJANGO_SETTINGS_MODULE": "config.settings.test", **server_database.env(),
        "BOARDPOST_CELERY_EAGER": "false", **queue_env(queue),
        "CELERY_BROKER_URL": f"redis://127.0.0.1:{port}/0",
        "CACHE_URL": f"redis://127.0.0.1:{port}/1",
        "EVENTS_REDIS_URL": f"redis://127.0.0.1:{port}/2",
        **SWEEP_ENV,
    }
    web_port = free_port()
    started: list[Any] = []
    try:
        web = Process("uvicorn-outage", [
            sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
            "--port", str(web_port), "--no-access-log", "--log-level", "warning"], env)
        started.append(web)
        wait_until(lambda: web.alive() and accepts(web_port), timeout=60, interval=0.1,
                   message="uvicorn did not start")
        beat = Process("beat-outage", [
            sys.executable, "-m", "celery", "-A", "config.celery_app", "beat", "--loglevel=INFO",
            "-s", str(tmp_path / "beat-schedule")], env)
        started.append(beat)
        worker = Worker(queue, server_database, env=env)
        worker.start()
        started.append(worker)
        supervisor = Supervisor({"worker": worker, "beat": beat})
        supervisor.start()
        started.append(supervisor)
        yield {"redis": redis_server, "port": port, "url": f"http://127.0.0.1:{web_port}",
               "web": web, "worker": worker, "beat": beat, "supervisor": supervisor}
    finally:
        for process in reversed(started):
            process.stop()
        redis_server.stop()  # the processes' logs stay in var/, like the workers'


# --------------------------------------------------------------------------- the match


def state_of(match_id: str) -> Any:
    match = Match.objects.get(id=match_id)
    return match, get_engine("nimalia").load(match.state)


def bot_placed(match_id: str, turn: int, round_: int = 1) -> bool:
    match, state = state_of(match_id)
    return (state.round, state.turn) == (round_, turn) and state.pending[1] is not None


def place(me: HttpClient, match_id: str) -> int:
    """The person's placement for the turn under way; returns the answer's status."""
    status, detail = me.get(f"/api/matches/{match_id}")
    assert status == 200, detail
    legal = detail["legal_moves"]
    assert legal is not None and not legal["undo"], legal
    row, col = legal["anchors"][0]
    move = {"card": legal["cards"][0], "row": row, "col": col, "rotation": 0}
    status, body = me.post(f"/api/matches/{match_id}/moves",
                           {"move": move, "expected_version": detail["version"]})
    assert status == 201, body
    return status


def reads(me: HttpClient, anonymous: HttpClient, match_id: str, username: str) -> None:
    """What a client reads and signs in with; every answer 200."""
    version = Match.objects.get(id=match_id).version
    for path in (f"/api/matches/{match_id}", f"/api/matches/{match_id}/moves", "/api/me",
                 "/api/matches", f"/api/matches/{match_id}/events?after={version}&wait=0",
                 "/api/me/events?wait=0"):
        status, body = me.get(path)
        assert status == 200, (path, body)
    status, body = anonymous.post("/api/auth/token",
                                  {"username": username, "password": "integration-pass-77"})
    assert status == 200 and body["token"], body


def round_scores(match_id: str) -> list[int]:
    """The rounds scored, one entry per scoring in the move log."""
    return [event["round"]
            for move in Move.objects.filter(match_id=match_id, kind=Move.Kind.SYSTEM)
            for event in move.events if event["type"] == "round_scored"]


def last_lines(process: Any, count: int = 30) -> str:
    """The end of a process's log, for a failure's message."""
    return "\n".join(process.output().splitlines()[-count:])


def catch_up(stack: dict[str, Any], match_id: str, round_: int,
             since: datetime) -> dict[str, float]:
    """Wait for the scoring of ``round_``, which needs the bot's last placement of the round
    (due since the outage), after Redis came back at ``since``; returns how long after that
    each was written. A failure says where the match stands and how the worker's and beat's
    logs end."""
    try:
        wait_until(lambda: round_ in round_scores(match_id), timeout=CATCH_UP_SECONDS,
                   interval=0.1, message=f"round {round_} was not scored")
    except AssertionError as failure:
        match, state = state_of(match_id)
        raise AssertionError(
            f"{failure}; match version {match.version}, work due {match.work_due_at}, round "
            f"{state.round} turn {state.turn}\n--- worker ({stack['worker'].log}):\n"
            f"{last_lines(stack['worker'])}\n--- beat ({stack['beat'].log}):\n"
            f"{last_lines(stack['beat'])}\n--- restarts: {stack['supervisor'].restarts}") from None
    bot = Match.objects.get(id=match_id).seats.get(index=1).user
    bot_move = Move.objects.filter(match_id=match_id, user=bot).order_by("seq").filter(
        created_at__gt=since).first()
    scoring = Move.objects.filter(match_id=match_id, kind=Move.Kind.SYSTEM).order_by("seq").last()
    assert bot_move is not None and scoring is not None and bot_move.seq < scoring.seq
    return {"bot turn": (bot_move.created_at - since).total_seconds(),
            "round scored": (scoring.created_at - since).total_seconds()}


def outage_phase(me: Timed, anonymous: Timed, match_id: str, username: str) -> None:
    """With Redis away, at turn 1 of a round (the bot has placed): the person places (the turn
    is revealed; the bot's next placement cannot be queued), places again, and reads; a
    long-poll still answers when something new is written."""
    place(me, match_id)
    reads(me, anonymous, match_id, username)
    version = Match.objects.get(id=match_id).version
    answered: list[tuple[int, float]] = []
    waiting = HttpClient(me.base_url, me.token)  # not timed: it waits on purpose

    def wait_for_news() -> None:
        status, _ = waiting.get(f"/api/matches/{match_id}/events?after={version}&wait=20")
        answered.append((status, time.monotonic()))

    waiter = threading.Thread(target=wait_for_news)
    waiter.start()
    time.sleep(1.0)  # the long-poll reaches its wait (nothing outside the server can tell)
    assert waiter.is_alive(), "the long-poll answered with nothing new"
    placed_at = time.monotonic()
    place(me, match_id)
    waiter.join(20)
    assert not waiter.is_alive(), "the long-poll never answered"
    # From the move's request: the move is committed (and the long-poll may answer) before
    # the move's own answer, which comes after it has tried to queue the bot's turn.
    (status, answered_at), = answered
    me.timings.append(("long-poll answered after the move was sent", status,
                       answered_at - placed_at))
    reads(me, anonymous, match_id, username)
    match, state = state_of(match_id)
    assert state.turn == 2 and state.pending[1] is None, "the bot cannot have placed"
    assert holds_for(lambda: state_of(match_id)[1].pending[1] is None, 1.0)


def test_play_goes_on_through_a_redis_outage_and_due_work_catches_up(stack):
    bot_accounts_ensure()
    timings: list[tuple[str, int, float]] = []
    url = stack["url"]
    username = f"outage-{uuid.uuid4().hex[:6]}"
    me = Timed(url, register(url, username).token, timings)
    anonymous = Timed(url, None, timings)
    status, created = me.post("/api/matches", {
        "game": "nimalia", "config": {"objectives": "first_game"}, "rated": False,
        "seats": [{"kind": "me"}, {"kind": "bot", "level": 1}]})
    assert status == 201, created
    match_id = created["id"]
    # Redis up: the bot places turn 0, the person too, the bot places turn 1.
    wait_until(lambda: bot_placed(match_id, 0), timeout=30, message="the bot never played")
    place(me, match_id)
    wait_until(lambda: bot_placed(match_id, 1), timeout=30, message="the bot never played")
    figures: dict[str, Any] = {}

    # ---- Redis stopped: connections refused.
    stack["redis"].stop()
    timings.clear()
    outage_phase(me, anonymous, match_id, username)
    figures["refused"] = list(timings)
    back = timezone.now()
    stack["redis"].start()
    figures["refused catch-up"] = catch_up(stack, match_id, 1, back)

    # Round 2: the bot places turn 0, the person too, the bot places turn 1.
    wait_until(lambda: bot_placed(match_id, 0, 2), timeout=30, message="the bot never played")
    place(me, match_id)
    wait_until(lambda: bot_placed(match_id, 1, 2), timeout=30, message="the bot never played")

    # ---- Redis hanging: connections accepted, never answered.
    stack["redis"].stop()
    hanging = HangingListener(stack["port"])
    timings.clear()
    try:
        outage_phase(me, anonymous, match_id, username)
    finally:
        hanging.close()
    figures["hanging"] = list(timings)
    back = timezone.now()
    stack["redis"].start()
    figures["hanging catch-up"] = catch_up(stack, match_id, 2, back)

    # Nothing ran twice: once more the sweep's period, then one scoring per round and one bot
    # placement per turn (3 turns a round).
    time.sleep(5)
    assert round_scores(match_id) == [1, 2]
    bot = Match.objects.get(id=match_id).seats.get(index=1).user
    third_round_started = Move.objects.filter(
        match_id=match_id, kind=Move.Kind.SYSTEM).order_by("seq").last().seq
    assert Move.objects.filter(match_id=match_id, user=bot,
                               seq__lt=third_round_started).count() == 6

    for phase in ("refused", "hanging"):
        rows = figures[phase]
        print(f"\n{phase}: {len(rows)} requests, slowest "
              f"{max(seconds for _, _, seconds in rows):.3f} s")
        for what, status, seconds in rows:
            print(f"  {status} {seconds:6.3f} s  {what}")
        print(f"{phase} catch-up: " + ", ".join(
            f"{what} {seconds:.1f} s" for what, seconds in figures[f'{phase} catch-up'].items()))
    print("restarts of the worker or beat: " + ("; ".join(stack["supervisor"].restarts) or "none"))
    for phase in ("refused", "hanging"):
        for what, status, seconds in figures[phase]:
            assert status < 500, (phase, what, status)
            bound = SLOW_REQUEST_SECONDS
            if phase == "hanging" and what.endswith("/moves") and what.startswith("POST"):
                bound = HANGING_BROKER_MOVE_SECONDS
            assert seconds < bound, (phase, what, seconds)
    # The outages are logged, not each failed request: one warning per outage and Redis use.
    log = stack["web"].output()
    for what in ("cache Redis", "events Redis"):
        warnings = log.count(f"{what} at redis://127.0.0.1:{stack['port']}")
        assert 1 <= warnings <= 8, (what, warnings)
    assert "Internal Server Error" not in log
