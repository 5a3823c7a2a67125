"""The HTTP servers the benchmarks (and the live tests) run an application under, as command
lines: gunicorn or Granian for a WSGI application, uvicorn or Granian for an ASGI one.

Each pair is set up alike, so that a figure measured under one compares with the other's:

* **WSGI** (``bench_api``): ``workers`` processes on the same address and listen backlog, no
  access log. Gunicorn with one thread per worker runs its sync workers: a worker accepts one
  connection, answers its one request and closes it. Granian runs the application in its
  workers' blocking threads, so it gets ``threads`` of them (one: a worker runs one request at
  a time). HTTP/1 keep-alive follows gunicorn's worker: off with sync workers (every request on
  a new connection under both servers), on with threaded ones (gunicorn keeps an idle
  connection 2 s by default). Granian's cap on connections served at once per worker
  (``--backpressure``) is 1 with sync workers, so a busy worker leaves the next connection to
  an idle one as gunicorn's do, and gunicorn's ``worker_connections`` (1000) with threaded
  ones: a cap as low as the threads would leave a client waiting behind idle kept-alive
  connections.
* **ASGI** (``bench_longpoll`` and the live tests): one process, the same listen backlog, no
  access log, uvloop's event loop, client addresses never rewritten from proxy headers
  (Granian reads none). Uvicorn takes any number of connections at once; Granian's default cap
  per worker (its backlog) is raised to ``concurrency``, at least the number of clients.

Granian's master process starts its workers as processes of their own, even one:
:func:`worker_pid` finds the process that serves.
"""

from __future__ import annotations

import sys
from pathlib import Path

WSGI_SERVERS = ("gunicorn", "granian")
ASGI_SERVERS = ("uvicorn", "granian")
# Gunicorn's default listen backlog, given to both WSGI servers, and its default cap on the
# connections a threaded worker holds at once.
WSGI_BACKLOG = 2048
WORKER_CONNECTIONS = 1000


def wsgi_command(server: str, app: str, *, host: str, port: int, workers: int, threads: int,
                 backlog: int = WSGI_BACKLOG, access_log: bool = False) -> list[str]:
    """The command line serving the WSGI application ``app`` ("module:attribute"), its access
    log written to the output with ``access_log``."""
    if server == "gunicorn":
        return [sys.executable, "-m", "gunicorn", app, "--bind", f"{host}:{port}",
                "--workers", str(workers), "--threads", str(threads),
                "--backlog", str(backlog), "--log-level", "warning",
                *(["--access-logfile", "-"] if access_log else [])]
    if server == "granian":
        sync = threads == 1
        return [*_granian(app, "wsgi", host, port, backlog, access_log),
                "--workers", str(workers), "--blocking-threads", str(threads),
                "--backpressure", "1" if sync else str(WORKER_CONNECTIONS),
                "--no-http1-keep-alive" if sync else "--http1-keep-alive"]
    raise ValueError(f"not a WSGI server: {server}")


def asgi_command(server: str, app: str, *, host: str, port: int, backlog: int,
                 concurrency: int) -> list[str]:
    """The command line serving the ASGI application ``app`` in one process."""
    if server == "uvicorn":
        return [sys.executable, "-m", "uvicorn", app, "--host", host, "--port", str(port),
                "--no-access-log", "--no-proxy-headers", "--log-level", "warning",
                "--backlog", str(backlog)]
    if server == "granian":
        return [*_granian(app, "asgi", host, port, backlog), "--workers", "1",
                "--loop", "uvloop", "--backpressure", str(max(concurrency, backlog))]
    raise ValueError(f"not an ASGI server: {server}")


def _granian(app: str, interface: str, host: str, port: int, backlog: int,
             access_log: bool = False) -> list[str]:
    return [sys.executable, "-m", "granian", "--interface", interface, "--host", host,
            "--port", str(port), "--backlog", str(backlog),
            "--access-log" if access_log else "--no-access-log", "--log-level", "warning", app]


def worker_pid(pid: int, server: str) -> int | None:
    """The process that serves an ASGI application: uvicorn's own, Granian's one worker (its
    master's first child; None while the master has not started it)."""
    if server != "granian":
        return pid
    workers = children(pid)
    return workers[0] if workers else None


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (a server's workers), as Linux lists them."""
    return [int(part) for part in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
