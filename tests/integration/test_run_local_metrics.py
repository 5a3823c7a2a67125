"""``make run``'s metrics: the API server and the Celery worker that ``scripts/run_local.py``
starts share one prometheus-client multiprocess directory under var/, emptied at start, so the
API's ``/metrics`` shows the worker's task series after a bot's move."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import urllib.request
import uuid
from types import ModuleType

import pytest
from django.conf import settings
from django.core.management import call_command
from prometheus_client.parser import text_string_to_metric_families

from tests.games.helpers import first_nibble_take
from tests.integration.conftest import (
    ROOT,
    _needs_real_services,
    queue_env,
    wait_until,
)
from tests.integration.http import HttpClient, register
from tests.integration.servers import free_port


def run_local() -> ModuleType:
    spec = importlib.util.spec_from_file_location("run_local", ROOT / "scripts" / "run_local.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def scrape(url: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    with urllib.request.urlopen(url + "/metrics", timeout=30) as response:
        text = response.read().decode()
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def value(samples, name: str, **labels: str) -> float:
    return sum(v for (n, got), v in samples.items()
               if n == name and set(labels.items()) <= got)


def stale_counter(directory: str) -> None:
    """A previous run's file: a task count written by a process that has gone."""
    subprocess.run([sys.executable, "-c",
                    "from prometheus_client import Counter; Counter('boardpost_celery_tasks', "
                    "'', ['task', 'state']).labels('stale.task', 'SUCCESS').inc(7)"],
                   env={**os.environ, "PROMETHEUS_MULTIPROC_DIR": directory}, check=True)


@pytest.mark.integration
def test_make_runs_api_metrics_show_the_workers_task_series(transactional_db, server_database):
    _needs_real_services()
    local = run_local()
    queue = f"runlocal-{uuid.uuid4().hex[:8]}"
    directory = ROOT / "var" / f"metrics-{queue}"
    port = free_port()
    # What run_local.main() gives its processes, on this test's PostgreSQL database and Redis
    # (which the script's docstring offers) instead of the embedded SQLite and filesystem broker.
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.local",
           **server_database.env(), "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
           **queue_env(queue),
           "EVENTS_REDIS_URL": settings.CELERY_BROKER_URL, "LOG_FORMAT": "plain",
           "PROMETHEUS_MULTIPROC_DIR": str(directory)}
    directory.mkdir(parents=True, exist_ok=True)
    stale_counter(str(directory))
    assert list(directory.glob("*.db"))
    assert local.metrics_dir(env) == directory
    assert not list(directory.glob("*.db")), "the previous run's files were left"

    call_command("seed_bots")  # as run_local does before starting its processes
    commands = local.commands("127.0.0.1", port, env)
    logs = {name: ROOT / "var" / f"runlocal-{name}-{queue}.log" for name in ("worker", "server")}
    processes = {name: subprocess.Popen(commands[name], cwd=ROOT, env=env,
                                        stdout=logs[name].open("w"), stderr=subprocess.STDOUT,
                                        start_new_session=True)
                 for name in ("worker", "server")}
    url = f"http://127.0.0.1:{port}"
    try:
        def up() -> bool:
            for name, process in processes.items():
                if process.poll() is not None:
                    raise AssertionError(f"{name} exited:\n{logs[name].read_text()}")
            if "ready." not in logs["worker"].read_text():
                return False
            try:
                with urllib.request.urlopen(url + "/health/live", timeout=2) as response:
                    return response.status == 200
            except OSError:
                return False

        wait_until(up, timeout=120, interval=0.5, message="make run's processes did not start")
        player = HttpClient(url, register(url, f"runlocal{uuid.uuid4().hex[:6]}").token)
        status, created = player.post("/api/matches", {
            "game": "nibble", "config": {"first_seat": 0}, "rated": False,
            "seats": [{"kind": "me"}, {"kind": "bot", "level": 1}]})
        assert status == 201, created
        match_url = f"/api/matches/{created['id']}"
        detail = player.get(match_url)[1]
        status, moved = player.post(f"{match_url}/moves", {
            "move": first_nibble_take(detail["legal_moves"]),
            "expected_version": detail["version"]})
        assert status == 201, moved
        # The bot answers in the worker process.
        wait_until(lambda: player.get(match_url)[1]["version"] >= 2, timeout=120,
                   message="the bot did not move")

        def worker_counted() -> dict | None:
            samples = scrape(url)
            done = value(samples, "boardpost_celery_tasks_total",
                         task="games.match_bot_move_play", state="SUCCESS")
            return samples if done >= 1 else None

        samples = wait_until(worker_counted, timeout=60, message="no bot task in /metrics")
    finally:
        for process in processes.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in processes.values():
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)
    # The API server's /metrics answers for the worker process too: its task counts and run
    # times, the bot's think time and the bot's move, beside the server's own requests and the
    # player's move; nothing of the emptied previous run.
    assert value(samples, "boardpost_celery_task_seconds_count",
                 task="games.match_bot_move_play") >= 1
    assert value(samples, "boardpost_bot_think_seconds_count", game="nibble", level="1") >= 1
    assert value(samples, "boardpost_moves_total", game="nibble", kind="bot") >= 1
    assert value(samples, "boardpost_moves_total", game="nibble", kind="player") == 1
    assert value(samples, "boardpost_http_requests_total", view="games:moves", method="POST",
                 status="201") == 1
    assert value(samples, "boardpost_celery_tasks_total", task="stale.task") == 0
    pids = {path.stem.rpartition("_")[2] for path in directory.glob("*.db")}
    assert {str(process.pid) for process in processes.values()} <= pids, (
        "both processes write to the shared directory", pids)
    for path in [*logs.values(), *directory.glob("*.db")]:
        path.unlink(missing_ok=True)
    directory.rmdir()
