"""Metrics over several processes (prometheus-client's multiprocess mode): the directory the
start scripts set and empty, the exit hook of gunicorn's workers, and the live gauges of
processes that died without one (uvicorn's workers, a killed process) left out of a scrape."""

from __future__ import annotations

import os
import runpy
import stat
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.parser import text_string_to_metric_families

from config.metrics import LiveProcessesCollector, forget_dead_processes

ROOT = Path(__file__).resolve().parents[2]
DOCKER = ROOT / "docker"

# A process writing metrics as the application's do: ``waiting`` live waiters (a livesum
# gauge) and ``served`` requests, then it exits, or waits for a line on stdin first.
WRITER = """
import sys
from prometheus_client import Counter, Gauge
Gauge("boardpost_live_waiters", "", ["kind"], multiprocess_mode="livesum").labels(
    kind="longpoll").inc(int(sys.argv[1]))
Counter("boardpost_http_requests", "", ["view"]).labels(view="v").inc(int(sys.argv[2]))
if sys.argv[3] == "wait":
    print("written", flush=True)
    sys.stdin.readline()
"""


def write(directory: Path, waiting: int, served: int, wait: bool = False) -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, "-c", WRITER, str(waiting), str(served),
                                "wait" if wait else "exit"],
                               env={**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(directory)},
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    if wait:
        assert process.stdout is not None and process.stdout.readline() == "written\n"
    else:
        assert process.wait(timeout=60) == 0
    return process


def scrape(directory: Path) -> dict[str, float]:
    registry = CollectorRegistry()
    LiveProcessesCollector(registry, path=str(directory))
    text = generate_latest(registry).decode()
    return {sample.name: sample.value for family in text_string_to_metric_families(text)
            for sample in family.samples}


def test_a_scrape_leaves_out_the_live_gauges_of_dead_processes_and_keeps_their_counts(tmp_path):
    live = write(tmp_path, waiting=2, served=5, wait=True)
    try:
        gone = write(tmp_path, waiting=3, served=4)  # exited without an exit hook
        assert (tmp_path / f"gauge_livesum_{gone.pid}.db").exists()
        samples = scrape(tmp_path)
        # The dead process's waiters no longer wait; the requests it served were served.
        assert samples["boardpost_live_waiters"] == 2
        assert samples["boardpost_http_requests_total"] == 9
        assert not (tmp_path / f"gauge_livesum_{gone.pid}.db").exists()
        assert forget_dead_processes(str(tmp_path)) == []  # the live one stays
    finally:
        assert live.stdin is not None
        live.stdin.write("\n")
        live.stdin.close()
        live.wait(timeout=60)
    samples = scrape(tmp_path)
    assert samples.get("boardpost_live_waiters", 0) == 0
    assert samples["boardpost_http_requests_total"] == 9


def test_gunicorns_child_exit_marks_the_worker_dead(tmp_path, monkeypatch):
    gone = write(tmp_path, waiting=1, served=1)
    hooks = runpy.run_path(str(DOCKER / "gunicorn.conf.py"))
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    hooks["child_exit"](None, SimpleNamespace(pid=gone.pid))
    assert not (tmp_path / f"gauge_livesum_{gone.pid}.db").exists()
    assert (tmp_path / f"counter_{gone.pid}.db").exists()
    # Without the directory (one process) the hook does nothing.
    monkeypatch.delenv("PROMETHEUS_MULTIPROC_DIR")
    hooks["child_exit"](None, SimpleNamespace(pid=gone.pid))


def fake_server(bin_dir: Path, name: str) -> None:
    """Stands for gunicorn / uvicorn / granian / celery: says which directory it was given and
    what the directory holds when it starts (the scale-out test starts the real ones)."""
    path = bin_dir / name
    path.write_text('#!/bin/sh\necho "dir=$PROMETHEUS_MULTIPROC_DIR"\n'
                    'ls -A "$PROMETHEUS_MULTIPROC_DIR"\n')
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def run_script(script: str, env: dict[str, str], tmp_path: Path) -> list[str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    for name in ("gunicorn", "uvicorn", "granian", "celery"):
        fake_server(bin_dir, name)
    base = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}
    done = subprocess.run([str(DOCKER / script)], cwd=ROOT, capture_output=True, text=True,
                          env={**base, "PATH": f"{bin_dir}:{os.environ['PATH']}",
                               "DATABASE_URL": "", **env}, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.parametrize("script, env, default", [
    ("start-web.sh", {"PORT": "8123"}, "boardpost-metrics-web-8123"),
    ("start-events.sh", {"PORT": "8124"}, "boardpost-metrics-events-8124"),
    ("start-worker.sh", {"WORKER_NAME": "bots@here"}, "boardpost-metrics-worker-bots@here"),
])
def test_the_start_scripts_give_their_server_an_emptied_metrics_directory(
        tmp_path, script, env, default):
    given = tmp_path / "given"
    given.mkdir()
    (given / "counter_4242.db").write_bytes(b"stale")
    (given / "notes.txt").write_text("not a metric file: kept")
    assert run_script(script, {**env, "PROMETHEUS_MULTIPROC_DIR": str(given)}, tmp_path) == [
        f"dir={given}", "notes.txt"]
    # Unset (outside compose), a directory of this server's own on this host, emptied too.
    own = tmp_path / "tmp" / default
    own.mkdir(parents=True)
    (own / "histogram_4242.db").write_bytes(b"stale")
    assert run_script(script, {**env, "TMPDIR": str(tmp_path / "tmp")}, tmp_path) == [
        f"dir={own}"]


def test_the_entry_point_empties_the_containers_metrics_directory(tmp_path):
    directory = tmp_path / "metrics"
    directory.mkdir()
    (directory / "gauge_livesum_1.db").write_bytes(b"stale")
    done = subprocess.run([str(DOCKER / "entrypoint.sh"), "ls", "-A", str(directory)],
                          env={**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(directory),
                               "DATABASE_URL": ""},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout == "", done
    # A container's first start: the directory is made.
    fresh = tmp_path / "fresh"
    done = subprocess.run([str(DOCKER / "entrypoint.sh"), "test", "-d", str(fresh)],
                          env={**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(fresh),
                               "DATABASE_URL": ""}, timeout=60)
    assert done.returncode == 0


def test_compose_gives_each_container_its_directory_and_the_workers_a_metrics_port():
    import yaml

    spec = yaml.safe_load((DOCKER / "compose.yaml").read_text())
    app = spec["x-app"]["environment"]
    assert app["PROMETHEUS_MULTIPROC_DIR"].startswith("/tmp/")  # inside each container
    assert app["METRICS_TOKEN"] == "${METRICS_TOKEN:-}"
    for name, service in spec["services"].items():
        assert not any("metrics" in str(volume) for volume in service.get("volumes", [])), name
    for name in ("worker", "worker-bots"):
        port = spec["services"][name]["environment"]["CELERY_METRICS_PORT"]
        assert spec["services"][name]["expose"] == [port], name
