"""docker/start-events.sh: the events process runs under Granian unless EVENTS_SERVER says
uvicorn, with the backlog, the workers and the open files it is given. The servers are stand-ins
that print their command line (the scale-out test starts the real ones)."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "docker" / "start-events.sh"


def run(tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    for name in ("granian", "uvicorn"):
        path = bin_dir / name
        path.write_text('#!/bin/sh\necho "$(basename "$0") $*"\n')
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
    base = {key: value for key, value in os.environ.items()
            if not key.startswith(("EVENTS_", "TRUSTED_PROXY"))}
    return subprocess.run([str(SCRIPT)], capture_output=True, text=True, timeout=60, env={
        **base, "PATH": f"{bin_dir}:{os.environ['PATH']}", "TMPDIR": str(tmp_path),
        "EVENTS_OPEN_FILES": "1024", **env})


def test_granian_serves_the_events_by_default(tmp_path):
    done = run(tmp_path, PORT="8125", EVENTS_WORKERS="3", EVENTS_BACKLOG="512")
    assert done.returncode == 0, done.stderr
    words = done.stdout.split()
    assert words[:4] == ["granian", "--interface", "asgi", "config.asgi:application"]
    options = dict(zip(words[4::2], words[5::2], strict=False))
    assert (options["--port"], options["--workers"], options["--backlog"]) == ("8125", "3", "512")
    assert options["--backpressure"] == "1024"  # as many requests as open files
    assert {"--no-access-log", "--respawn-failed-workers"} <= set(words)


def test_uvicorn_when_asked_with_proxy_headers_only_behind_trusted_proxies(tmp_path):
    direct = run(tmp_path, EVENTS_SERVER="uvicorn").stdout.split()
    assert direct[:2] == ["uvicorn", "config.asgi:application"]
    assert "--no-proxy-headers" in direct
    proxied = run(tmp_path, EVENTS_SERVER="uvicorn", TRUSTED_PROXY_COUNT="1").stdout.split()
    assert "--proxy-headers" in proxied and "--no-proxy-headers" not in proxied


def test_an_unknown_server_is_refused(tmp_path):
    done = run(tmp_path, EVENTS_SERVER="hypercorn")
    assert done.returncode == 2
    assert "EVENTS_SERVER must be granian or uvicorn, not hypercorn" in done.stderr
