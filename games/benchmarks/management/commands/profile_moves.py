"""Where a move's time goes: the move path and the stack floor, profiled in one process.

``manage.py profile_moves`` plays Nibble moves through the project's WSGI application (the same
``config.wsgi`` gunicorn serves, so middleware, authentication, the engine, the recording path
and the renderer all run) and through the stack floor (``games.benchmarks.floor``), with
cProfile on, and prints for each: the CPU time per move (of as many moves played first without
the profiler, and with it) and the functions that take most of it, by own time and by
cumulative time. No network and no concurrency: this is the cost of one move
on one core, the figure that bounds what ``bench_api`` can reach. Run with ``DJANGO_DEBUG=false``
(the make target does) so the figures do not include Django's query log.
"""

from __future__ import annotations

import cProfile
import functools
import io
import json
import pstats
import random
import time
from typing import Any

from django.core.handlers.wsgi import WSGIHandler
from django.core.management.base import BaseCommand

from accounts.models import User
from accounts.services import token_create
from games.benchmarks.floor_wsgi import FloorHandler
from games.models import Match

from .bench_api import Command as BenchApiCommand


def _call(app: WSGIHandler, method: str, path: str, token: str,
          body: dict[str, Any] | None = None) -> tuple[int, Any]:
    payload = json.dumps(body).encode() if body is not None else b""
    environ = {
        "REQUEST_METHOD": method, "PATH_INFO": path, "SCRIPT_NAME": "", "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "127.0.0.1:8000",
        "HTTP_AUTHORIZATION": f"Token {token}", "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(payload)), "wsgi.input": io.BytesIO(payload),
        "wsgi.url_scheme": "http", "wsgi.errors": io.StringIO(), "wsgi.multithread": False,
        "wsgi.multiprocess": True, "wsgi.run_once": False, "wsgi.version": (1, 0),
    }
    status: list[str] = []

    def start_response(line: str, headers: Any, exc_info: Any = None) -> Any:
        status.append(line)
        return None

    chunks = app(environ, start_response)
    data = b"".join(chunks)
    return int(status[0].split()[0]), json.loads(data) if data else None


class Command(BaseCommand):
    help = ("Profile moves in one process (the move path and the stack floor) and print "
            "the CPU time per move and where it goes.")

    def add_arguments(self, parser) -> None:
        parser.add_argument("--moves", type=int, default=2000, help="moves per mode")
        parser.add_argument("--top", type=int, default=25, help="functions listed per table")
        parser.add_argument("--mode", choices=["both", "real", "floor"], default="both")
        parser.add_argument("--plain", type=int, metavar="N", default=None,
                            help="only play N moves of the move path, unprofiled, on matches "
                                 "set up first (for counting instructions: "
                                 "scripts/move_instructions.py)")

    def handle(self, *args, **options) -> None:
        users = []
        for n in range(2):
            user, _ = User.objects.get_or_create(username=f"profile-{n}")
            users.append((user, token_create(user, "profile").key))
        if options["plain"] is not None:
            self._plain(users, options["plain"])
            return
        modes = ["real", "floor"] if options["mode"] == "both" else [options["mode"]]
        for mode in modes:
            play = self._real(users) if mode == "real" else self._floor(users)
            for _ in range(50):  # warm up: imports, caches, prepared connections
                next(play)
            started = time.process_time()
            for _ in range(options["moves"]):
                next(play)
            plain = time.process_time() - started
            profile = cProfile.Profile()
            started = time.process_time()
            profile.enable()
            for _ in range(options["moves"]):
                next(play)
            profile.disable()
            cpu = time.process_time() - started
            self.stdout.write(f"\n== {mode}: {options['moves']} moves, "
                              f"{1000 * plain / options['moves']:.2f} ms of CPU per move "
                              f"in this process without the profiler, "
                              f"{1000 * cpu / options['moves']:.2f} ms with it")
            for order in ("tottime", "cumulative"):
                out = io.StringIO()
                stats = pstats.Stats(profile, stream=out)
                stats.strip_dirs().sort_stats(order).print_stats(options["top"])
                self.stdout.write(f"-- by {order}")
                self.stdout.write("\n".join(line for line in out.getvalue().splitlines()
                                            if line.strip() and "function calls" not in line
                                            and "Ordered by" not in line))

    @staticmethod
    def _real(users: list[tuple[User, str]]):
        """Moves through the public API, whole matches one after another."""
        app = WSGIHandler()
        rng = random.Random(7)
        tokens = [token for _, token in users]
        while True:
            status, detail = _call(app, "POST", "/api/matches", tokens[0], {
                "game": "nibble", "rated": False,
                "seats": [{"kind": "me"}, {"kind": "user", "username": users[1][0].username}]})
            assert status == 201, (status, detail)
            status, detail = _call(app, "POST", f"/api/matches/{detail['id']}/join", tokens[1])
            while detail["status"] == "active":
                seat = detail["to_act"][0]
                takeable = detail["view"]["takeable"]
                cells = takeable[rng.choice(sorted(takeable))]
                status, body = _call(app, "POST", f"/api/matches/{detail['id']}/moves",
                                     tokens[seat], {"move": {"take": [rng.choice(cells)]},
                                                    "expected_version": detail["version"]})
                assert status == 201, (status, body)
                detail = body["match"]
                yield

    @staticmethod
    def _plain(users: list[tuple[User, str]], moves: int) -> None:
        """``moves`` moves through the public API: the matches are created and warmed up
        first, enough of them, played in turn, that none ends among the moves (a Nibble match
        lasts over a hundred), and the moves alone run inside one ``functools.reduce``."""
        app = WSGIHandler()
        rng = random.Random(7)
        tokens = [token for _, token in users]
        details = []
        for _ in range(max(4, moves // 40 + 1)):
            status, detail = _call(app, "POST", "/api/matches", tokens[0], {
                "game": "nibble", "rated": False,
                "seats": [{"kind": "me"}, {"kind": "user", "username": users[1][0].username}]})
            assert status == 201, (status, detail)
            status, detail = _call(app, "POST", f"/api/matches/{detail['id']}/join", tokens[1])
            details.append(detail)

        def move(index: int) -> None:
            detail = details[index % len(details)]
            takeable = detail["view"]["takeable"]
            cells = takeable[rng.choice(sorted(takeable))]
            status, body = _call(app, "POST", f"/api/matches/{detail['id']}/moves",
                                 tokens[detail["to_act"][0]],
                                 {"move": {"take": [rng.choice(cells)]},
                                  "expected_version": detail["version"]})
            assert status == 201 and body["match"]["status"] == "active", (status, body)
            details[index % len(details)] = body["match"]

        warm = 5 * len(details)
        for index in range(warm):  # warm up: imports, caches, prepared statements
            move(index)
        # The counted moves run within one call of functools.reduce, nothing else: callgrind
        # counts only what runs inside it (scripts/move_instructions.py, --toggle-collect).
        functools.reduce(lambda _, index: move(warm + index), range(moves), None)

    @staticmethod
    def _floor(users: list[tuple[User, str]]):
        """Moves on one floor match, seats in turn."""
        app = FloorHandler()
        (match_id,) = BenchApiCommand._floor_matches([(users[0][0], users[1][0])])
        rng = random.Random(7)
        version = Match.objects.get(id=match_id).version
        while True:
            status, body = _call(app, "POST", f"/api/floor/matches/{match_id}/moves",
                                 users[version % 2][1],
                                 {"move": {"take": [[rng.randrange(16), rng.randrange(16)]]},
                                  "expected_version": version})
            assert status == 201, (status, body)
            version = body["version"]
            yield
