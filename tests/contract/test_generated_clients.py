"""Generated clients that play: a Python client generated from the committed schema by
openapi-python-client, with a play script that uses only its typed models, passes
``mypy --strict`` and plays a complete match of every game (Nimble in both modes, Nimalia with
2 players and solo) against a bot through a live server and a Celery worker. (The
TypeScript check is ``make clients``: it needs npm.)"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from tests.integration.conftest import (  # noqa: F401
    celery_queue,
    celery_worker_process,
    server_database,
)

ROOT = Path(settings.BASE_DIR)
CLIENT = ROOT / "clients" / "python"
BIN = Path(sys.executable).parent

pytestmark = pytest.mark.skipif(shutil.which("openapi-python-client", path=str(BIN)) is None,
                                reason="openapi-python-client is not installed")


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    """The client package generated from docs/openapi.yaml, in a fresh directory."""
    out = tmp_path_factory.mktemp("python-client")
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(
        [str(BIN / "openapi-python-client"), "generate", "--path",
         str(ROOT / "docs" / "openapi.yaml"), "--meta", "none", "--output-path",
         str(out / "boardpost_client"), "--config", str(CLIENT / "config.yaml")],
        cwd=out, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (out / "boardpost_client" / "models" / "nibble_view.py").exists()
    return out


def test_the_generated_client_covers_every_response(generated):
    # The generator skips what it cannot type; the board picture is returned as text.
    board = (generated / "boardpost_client" / "api" / "matches" / "matches_board_svg.py")
    assert "response.text" in board.read_text()


def test_the_play_script_passes_mypy_strict(generated):
    done = subprocess.run(
        [str(BIN / "mypy"), "--config-file", str(CLIENT / "mypy.ini"),
         str(CLIENT / "play.py")],
        cwd=generated, env={**os.environ, "MYPYPATH": str(generated)},
        capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.integration
def test_the_generated_client_plays_every_game(generated, live_server,
                                               celery_worker_process):  # noqa: F811
    # A real worker plays the bots' turns, the race bot's clock and Nimalia's round scoring,
    # as in production (eager tasks would run a race bot's whole chain inside one request).
    call_command("seed_bots", stderr=StringIO(), stdout=StringIO())
    done = subprocess.run(
        [sys.executable, str(CLIENT / "play.py"), live_server.url],
        env={**os.environ, "PYTHONPATH": str(generated)},
        capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    print(done.stdout)
    lines = done.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "nibble", "nimble turns", "nimble race", "nimalia 2 players", "nimalia solo"], lines
    assert "title" in lines[-1]
