"""The web service's gunicorn (docker/gunicorn.conf.py) answers requests it refuses itself with
the JSON error envelope and closes the connection; what reaches Django gets Django's."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "docker" / "gunicorn.conf.py"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    gunicorn = Path(sys.executable).with_name("gunicorn")
    if not gunicorn.exists() and shutil.which("gunicorn") is None:
        pytest.skip("gunicorn is not installed")
    port = _free_port()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test",
           "WEB_CONCURRENCY": "1", "WEB_THREADS": "2"}
    process = subprocess.Popen(
        [str(gunicorn), "--config", str(CONFIG), "--bind", f"127.0.0.1:{port}",
         "config.wsgi:application"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.2)
    else:
        process.kill()
        pytest.fail("gunicorn did not start")
    yield port
    process.terminate()
    process.wait(timeout=30)


def exchange(port: int, raw: bytes) -> tuple[int, dict[str, str], bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(raw)
        data = b""
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            headers = dict(line.split(": ", 1) for line in
                           head.decode("latin-1").split("\r\n")[1:] if ": " in line)
            length = int({k.lower(): v for k, v in headers.items()}.get("content-length", -1))
            if length >= 0 and len(body) >= length:
                break
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.lower(): v for k, v in (line.split(": ", 1) for line in lines[1:])}
    return status, headers, body


@pytest.mark.parametrize("raw, status, code", [
    (b"GARBAGE\r\n\r\n", 400, "malformed_request"),
    (b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: localhost\r\n\r\n", 414,
     "request_line_too_long"),
    (b"GET / HTTP/1.1\r\nHost: localhost\r\nBad Header Name: x\r\n\r\n", 400,
     "malformed_request"),
    (b"GET / HTTP/1.1\r\nHost: localhost\r\n"
     + b"".join(b"X-H%d: v\r\n" % n for n in range(60)) + b"\r\n", 431,
     "request_headers_too_large"),
])
def test_gunicorn_refusals_use_the_json_envelope(server, raw, status, code):
    got, headers, body = exchange(server, raw)
    assert got == status
    assert headers["content-type"] == "application/json"
    assert headers["connection"] == "close"
    envelope = json.loads(body)
    assert set(envelope) == {"code", "message", "extra"} and envelope["code"] == code


def test_what_reaches_django_gets_its_envelope(server):
    status, headers, body = exchange(
        server, b"GET /api/nowhere HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    assert status == 404 and json.loads(body)["code"] == "not_found"
