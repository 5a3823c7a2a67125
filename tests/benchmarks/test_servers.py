"""The benchmarks' servers: Granian set up as gunicorn (WSGI) and as uvicorn (ASGI), ``bench_api
--server`` and ``bench_longpoll --server`` planning and printing both, and a tiny run of each
command under Granian (PostgreSQL and Redis; a few seconds of a few clients, no benchmark)."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command

from games.benchmarks.longpoll_floor import Figures, servers_lines
from games.benchmarks.management.commands.bench_api import Plan
from games.benchmarks.ratios import Row, ratio_table
from games.benchmarks.servers import asgi_command, wsgi_command
from tests.integration.conftest import _database_url


def _flags(command: list[str]) -> dict[str, str]:
    """Each ``--option value`` of a command line (a lone flag maps to "")."""
    flags: dict[str, str] = {}
    for n, word in enumerate(command):
        if word.startswith("--"):
            following = command[n + 1] if n + 1 < len(command) else "--"
            flags[word] = "" if following.startswith("--") else following
    return flags


def test_granian_runs_a_wsgi_app_as_gunicorn_s_sync_workers_do():
    gunicorn = _flags(wsgi_command("gunicorn", "config.wsgi:application", host="127.0.0.1",
                                   port=8123, workers=4, threads=1))
    granian = _flags(wsgi_command("granian", "config.wsgi:application", host="127.0.0.1",
                                  port=8123, workers=4, threads=1))
    assert gunicorn["--bind"] == "127.0.0.1:8123"
    assert (granian["--host"], granian["--port"]) == ("127.0.0.1", "8123")
    assert gunicorn["--workers"] == granian["--workers"] == "4"
    assert gunicorn["--backlog"] == granian["--backlog"]
    # One request at a time per worker, its connection taken only when the worker is free; a
    # new connection per request, as a sync worker closes each.
    assert granian["--interface"] == "wsgi"
    assert granian["--blocking-threads"] == granian["--backpressure"] == "1"
    assert "--no-http1-keep-alive" in granian and "--no-access-log" in granian
    threaded = _flags(wsgi_command("granian", "app:application", host="127.0.0.1", port=1,
                                   workers=2, threads=2))
    # Threaded workers keep connections alive: idle ones must not hold the worker's requests.
    assert threaded["--blocking-threads"] == "2" and "--http1-keep-alive" in threaded
    assert threaded["--backpressure"] == "1000"
    # The web service as deployed writes an access log; so does Granian in its place.
    logged = wsgi_command("granian", "app:application", host="127.0.0.1", port=1, workers=4,
                          threads=2, access_log=True)
    assert "--access-log" in logged and "--no-access-log" not in logged


def test_granian_runs_an_asgi_app_as_uvicorn_does():
    uvicorn = _flags(asgi_command("uvicorn", "config.asgi:application", host="127.0.0.1",
                                  port=8124, backlog=4096, concurrency=5512))
    granian = _flags(asgi_command("granian", "config.asgi:application", host="127.0.0.1",
                                  port=8124, backlog=4096, concurrency=5512))
    assert uvicorn["--backlog"] == granian["--backlog"] == "4096"
    assert "--no-access-log" in uvicorn and "--no-access-log" in granian
    assert (granian["--interface"], granian["--workers"], granian["--loop"]) == (
        "asgi", "1", "uvloop")
    # Every client waits at once, as under uvicorn, which takes any number of requests.
    assert granian["--backpressure"] == "5512"
    with pytest.raises(ValueError):
        asgi_command("gunicorn", "config.asgi:application", host="127.0.0.1", port=1,
                     backlog=1, concurrency=1)


def test_both_servers_take_turns_in_every_round():
    options = {"bare": True, "floor": True, "server": "both", "rounds": 2, "clients": 16,
               "client_processes": 4, "workers": 4, "threads": 1, "seconds": 20.0,
               "warmup": 2.0}
    plan = Plan.of(options)
    first_round = [("gunicorn", "bare"), ("granian", "bare"), ("gunicorn", "floor"),
                   ("granian", "floor"), ("gunicorn", "real"), ("granian", "real")]
    assert plan.order == first_round + first_round[::-1]
    assert plan.by_server()[:3] == [("gunicorn", "bare"), ("gunicorn", "floor"),
                                    ("gunicorn", "real")]
    assert plan.label(("granian", "bare")) == "bare floor (games.benchmarks.bare), granian"
    alone = Plan.of({**options, "server": "gunicorn"})
    assert alone.order[:3] == [("gunicorn", "bare"), ("gunicorn", "floor"),
                               ("gunicorn", "real")]
    assert alone.label(("gunicorn", "bare")) == "bare floor (games.benchmarks.bare)"


def test_the_table_gives_each_row_s_ratio_to_its_own_server_s_floor_too():
    gunicorn_bare, granian_bare = Row("g bare", 100.0, 0.01, 0.04, 0), Row("n bare", 200.0,
                                                                            0.01, 0.02, 0)
    granian_path = Row("n path", 100.0, 0.02, 0.08, 0)
    lines = ratio_table([gunicorn_bare, granian_bare, granian_path],
                        own=[gunicorn_bare, granian_bare, granian_bare])
    assert "own floor: moves/s ratio" in lines[0]
    assert lines[3].split()[-4:] == ["1.00", "2.00", "0.50", "4.00"]
    assert "own floor" not in ratio_table([gunicorn_bare, granian_path])[0]


def test_the_servers_are_printed_side_by_side_with_their_floors():
    def figures(label: str, p99: float) -> Figures:
        return Figures(label, 10, 10, [p99 / 2, p99], [0.0, 0.01], [0.05], 0)

    lines = servers_lines([(figures("floor, uvicorn", 0.2), figures("Boardpost, uvicorn", 2.0)),
                           (figures("floor, granian", 0.1), figures("Boardpost, granian", 0.5))])
    assert "p99 / floor, uvicorn" in lines[1] and "p99 / own floor" in lines[1]
    assert lines[-1].split()[-2:] == ["2.50", "5.00"]
    without = servers_lines([(None, figures("Boardpost, uvicorn", 2.0)),
                             (None, figures("Boardpost, granian", 0.5))])
    assert len(without) == 4 and without[-1].split()[-1] == "0.25"


@pytest.mark.needs_postgresql("the bare floor and the servers need PostgreSQL")
@pytest.mark.needs_redis("the moves' tasks and wake-ups go to Redis")
@pytest.mark.django_db(transaction=True)
class TestTinyRunsUnderGranian:
    @staticmethod
    def run(monkeypatch, *args: str) -> str:
        """The command's output, the servers it starts on the test database."""
        monkeypatch.setenv("DATABASE_URL", _database_url())
        out = io.StringIO()
        call_command(*args, stdout=out, stderr=io.StringIO())
        return out.getvalue()

    def test_bench_api_runs_every_mode(self, monkeypatch):
        # A warm-up long enough for a cold worker's first requests on a busy machine: in CI a
        # half-second warm-up and a one-second round once saw no move answered in time.
        text = self.run(monkeypatch, "bench_api", "--server", "granian", "--bare", "--clients",
                        "2", "--client-processes", "1", "--workers", "1", "--seconds", "2",
                        "--rounds", "1", "--warmup", "5")
        assert "granian=1x1" in text
        assert "bare floor (games.benchmarks.bare), granian" in text
        assert "move path (POST /api/matches/<id>/moves), granian" in text

    def test_bench_longpoll_wakes_every_waiter(self, monkeypatch):
        text = self.run(monkeypatch, "bench_longpoll", "--server", "granian", "--floor",
                        "--clients", "4", "--case", "broadcast", "--wait", "5", "--moves-to",
                        "same")
        assert "server: granian, 1 process" in text
        assert "got the change: 4 of 4" in text
        assert re.search(r"bare ASGI floor, granian +4/4 ", text)
        assert re.search(r"Boardpost, granian +4/4 ", text)
