"""No match gets stuck on a lost message: with real worker and beat processes on Redis, work
whose task was lost (the queue gone with the broker's data, a worker killed holding the task)
is queued again by the due-work sweep and happens once; a move is answered 201 while the broker
is unreachable, and publishing to a dead broker gives up within seconds.

The sweep runs here every second with a 3 s grace period (DUE_WORK_TEST_GRACE and
DUE_WORK_TEST_SWEEP set others, such as the production defaults 30 and 15), so the bounds these
tests measure are "grace + sweep interval + the task's own time"; the figures are printed
(pytest -s)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager

import pytest
import redis
from django.conf import settings

from config.celery_app import app as celery_app
from games.catalog import get_engine
from games.models import Match, Move, Seat
from games.nibble.engine import takeable_discs
from games.services import (
    SeatSpec,
    bot_accounts_ensure,
    match_create,
    match_join,
    match_move_submit,
)
from tests.factories import UserFactory
from tests.integration.conftest import (
    ROOT,
    ServerDatabase,
    holds_for,
    queue_env,
    stop_group,
    wait_until,
)
from tests.integration.http import register
from tests.integration.test_nimalia_worker import _play_to_round_end

pytestmark = pytest.mark.integration

# Seconds: DUE_WORK_GRACE_SECONDS for the workers of these tests, and between two sweeps.
GRACE = int(os.environ.get("DUE_WORK_TEST_GRACE", "3"))
SWEEP = int(os.environ.get("DUE_WORK_TEST_SWEEP", "1"))
SWEEP_ENV = {"DUE_WORK_GRACE_SECONDS": str(GRACE)}


class Beat:
    """A Celery beat process sending the sweeps to the test's queue every ``SWEEP`` seconds."""

    def __init__(self, queue: str, database: ServerDatabase) -> None:
        self.queue, self.database = queue, database
        self.dir = ROOT / "var" / f"beat-{queue}"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test",
               **self.database.env(), "BOARDPOST_CELERY_EAGER": "false",
               **queue_env(self.queue), "DUE_WORK_SWEEP_SECONDS": str(SWEEP),
               "DEADLINE_SWEEP_SECONDS": "3600", **SWEEP_ENV}
        self.log = self.dir / "beat.log"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config.celery_app", "beat",
             "--loglevel=INFO", "-s", str(self.dir / "schedule"), "--max-interval=1"],
            cwd=ROOT, env=env, stdout=self.log.open("w"), stderr=subprocess.STDOUT,
            start_new_session=True)

    def stop(self) -> None:
        stop_group(self.process)


@pytest.fixture
def beat(celery_queue, server_database):
    process = Beat(celery_queue, server_database)
    yield process
    process.stop()


def broker() -> redis.Redis:
    return redis.Redis.from_url(settings.CELERY_BROKER_URL)


def lose_queue(queue: str) -> int:
    """Drop every message of ``queue`` from the broker, as a broker restarted empty would."""
    client = broker()
    keys = list(client.scan_iter(match=f"{queue}*"))
    return client.delete(*keys) if keys else 0


def system_moves(match: Match) -> int:
    return Move.objects.filter(match=match, kind=Move.Kind.SYSTEM).count()


def test_work_lost_with_the_queue_is_queued_again_and_done_once(make_worker, beat,
                                                                 celery_queue):
    bot_accounts_ensure()
    # A bot's turn: the person moves first, then the bot must.
    person = UserFactory()
    nibble = match_create(user=person, game="nibble", config={"first_seat": 0},
                          seats=[SeatSpec("me"), SeatSpec("bot", level=1)])
    takeable = takeable_discs(get_engine("nibble").load(Match.objects.get(id=nibble.id).state))
    match_move_submit(user=person, match_id=nibble.id,
                      move={"take": [list(takeable[min(takeable)][0])]})
    # A Nimalia round waiting for its scoring.
    users = [UserFactory() for _ in range(2)]
    nimalia = match_create(user=users[0], game="nimalia",
                           seats=[SeatSpec("me"), SeatSpec("user", username=users[1].username)])
    match_join(user=users[1], match_id=nimalia.id)
    round_end = _play_to_round_end(nimalia, users)
    # A race: the bot's first action is queued (with its reaction time) at the start.
    racer = UserFactory()
    race = match_create(user=racer, game="nimble", config={"mode": "race"},
                        seats=[SeatSpec("me"), SeatSpec("bot", level=1)])
    due = [Match.objects.get(id=m.id).work_due_at for m in (nibble, nimalia, race)]
    assert all(due), "every waiting match is marked in the database"

    assert lose_queue(celery_queue) >= 1, "the tasks were in the broker, now they are gone"
    lost_at = time.monotonic()
    make_worker(env=SWEEP_ENV)
    beat.start()
    started_at = time.monotonic()

    def done() -> bool:
        return (Match.objects.get(id=nibble.id).version >= 2
                and Match.objects.get(id=nimalia.id).version > round_end
                and Seat.objects.get(match=race, index=1).bot_ticket >= 1)

    wait_until(done, timeout=GRACE + SWEEP + 60, message="the lost work was never queued again")
    recovered = time.monotonic()
    print(f"\nqueue lost: work done {recovered - lost_at:.1f} s after the loss, "
          f"{recovered - started_at:.1f} s after the worker and beat started "
          f"(grace {GRACE} s, sweep every {SWEEP} s)")
    assert recovered - started_at < GRACE + SWEEP + 30
    # Exactly once: more sweeps run meanwhile, and nothing happens twice.
    assert holds_for(lambda: system_moves(nimalia) == 1
                     and Move.objects.filter(match=nibble, user__is_bot=True).count() == 1,
                     seconds=3 * GRACE)
    scored = Move.objects.get(match=nimalia, kind=Move.Kind.SYSTEM)
    assert scored.seq == round_end + 1
    # The race's bot chain runs on by itself: its ticket keeps growing, one tick at a time.
    ticket = Seat.objects.get(match=race, index=1).bot_ticket
    race_row = Match.objects.get(id=race.id)
    if race_row.status == Match.Status.ACTIVE:
        wait_until(lambda: Seat.objects.get(match=race, index=1).bot_ticket > ticket
                   or Match.objects.get(id=race.id).status != Match.Status.ACTIVE,
                   timeout=30, message="the restarted race chain stopped")


def test_a_worker_killed_mid_task_is_covered_by_the_sweep(make_worker, beat):
    users = [UserFactory() for _ in range(2)]
    match = match_create(user=users[0], game="nimalia",
                         seats=[SeatSpec("me"), SeatSpec("user", username=users[1].username)])
    match_join(user=users[1], match_id=match.id)
    slow = make_worker(app="tests.integration.slow_worker",
                       env={"SLOW_SYSTEM_STEP": "60", **SWEEP_ENV})
    version = _play_to_round_end(match, users)
    wait_until(lambda: "Task games.match_system_step_run[" in slow.output(), timeout=30,
               message="the slow worker never received the system step")
    slow.kill()
    killed_at = time.monotonic()
    assert Match.objects.get(id=match.id).version == version
    # The visibility timeout (60 s) is left as configured: the sweep has to do it.
    make_worker(env=SWEEP_ENV)
    beat.start()
    wait_until(lambda: Match.objects.get(id=match.id).version > version,
               timeout=GRACE + SWEEP + 60, message="the killed worker's step never ran")
    recovered = time.monotonic() - killed_at
    print(f"\nworker killed: the round was scored {recovered:.1f} s after the kill "
          f"(grace {GRACE} s, sweep every {SWEEP} s, visibility timeout "
          f"{settings.CELERY_BROKER_TRANSPORT_OPTIONS.get('visibility_timeout')} s)")
    assert recovered < GRACE + SWEEP + 20
    assert holds_for(lambda: system_moves(match) == 1, seconds=3 * GRACE)
    assert Move.objects.get(match=match, kind=Move.Kind.SYSTEM).seq == version + 1


# --------------------------------------------------------------------------- a dead broker


@contextmanager
def broker_at(url: str):
    """Have this process's Celery app publish to ``url`` (a write URL, which the environment's
    CELERY_BROKER_URL does not override), with fresh connection and producer pools."""
    amqp = celery_app.amqp
    saved = (celery_app.conf.get("broker_write_url"), celery_app._pool, amqp._producer_pool)
    celery_app.conf.broker_write_url = url
    celery_app._pool = None
    amqp._producer_pool = None
    try:
        yield
    finally:
        celery_app.conf.broker_write_url, celery_app._pool, amqp._producer_pool = saved


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def silent_server():
    """A TCP server on this machine that accepts connections and never answers, like a broker
    that hangs; yields its port."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    server.settimeout(0.2)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        stop.set()
        thread.join(timeout=5)
        for conn in accepted:
            conn.close()
        server.close()


@pytest.mark.parametrize("kind", ["refused", "silent"])
def test_a_move_is_201_and_fast_while_the_broker_is_dead(kind, live_server, celery_queue):
    bot_accounts_ensure()
    me = register(live_server.url, f"dead-broker-{kind}")
    status, created = me.post("/api/matches", {
        "game": "nibble", "config": {"first_seat": 0},
        "seats": [{"kind": "me"}, {"kind": "bot", "level": 1}]})
    assert status == 201, created
    match_id = created["id"]
    detail = me.get(f"/api/matches/{match_id}")[1]
    takeable = detail["legal_moves"]["takeable"]
    move = {"take": [takeable[sorted(takeable, key=int)[0]][0]]}
    with silent_server() as silent_port:
        port = silent_port if kind == "silent" else free_port()
        with broker_at(f"redis://127.0.0.1:{port}/0"):
            started = time.monotonic()
            status, body = me.post(f"/api/matches/{match_id}/moves", {"move": move})
            took = time.monotonic() - started
    print(f"\nbroker {kind}: the move was answered {status} in {took:.2f} s")
    assert status == 201, body
    assert took < 10, "publishing gives up within seconds"
    match = Match.objects.get(id=match_id)
    assert match.version == 1 and match.work_due_at is not None


def test_publishing_to_a_dead_broker_gives_up_within_seconds(server_database):
    """Measured in a fresh process, as a web process would meet it."""
    script = (
        "import time, django; django.setup()\n"
        "from games.services import scheduling\n"
        "t = time.monotonic(); scheduling.send('games.match_rate', ('m',))\n"
        "print('took', round(time.monotonic() - t, 2))\n")
    with silent_server() as silent_port:
        for url in (f"redis://127.0.0.1:{free_port()}/0", f"redis://127.0.0.1:{silent_port}/0"):
            env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test",
                   "BOARDPOST_CELERY_EAGER": "false", "CELERY_BROKER_URL": url,
                   **server_database.env()}
            result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env,
                                    capture_output=True, text=True, timeout=60)
            assert result.returncode == 0, result.stderr
            took = float(result.stdout.split("took")[-1])
            print(f"\npublish to {url}: gave up after {took:.2f} s")
            assert took < 10
            assert "could not enqueue games.match_rate" in result.stderr
