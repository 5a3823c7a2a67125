"""What the project's request stack costs a request in CPU, piece by piece, in one process.

``manage.py stack_costs`` calls views that do no work of their own (``games.benchmarks.stack``)
through a WSGI handler, with the request a client's move sends (``POST``, a JSON body,
``Authorization: Token``), and measures the CPU time per request (``time.process_time``, no
profiler) of:

* each middleware of ``MIDDLEWARE``: the whole chain around an empty view, less the chain
  without that one middleware (so what it costs where it stands, its hooks and its call);
* the whole chain, and no middleware at all;
* DRF's pieces, each added to the one before: DRF alone with its stock JSON parser and
  renderer, its content negotiation, the project's parser and renderer, the token looked up by
  one query (the stack floor's), the project's token authentication (the token remembered),
  the permission, the throttles;
* the database: a request's life (its signals take a pooled connection and give it back)
  around one token look-up, in SQL through the cursor as the bare floor does it, and through
  the ORM with the user as the project does it;
* a floor move's whole work through the whole stack, the bare floor's view (SQL) against the
  stack floor's (the ORM), on two matches of their own.

Each figure is the least of ``--repeats`` batches of ``--requests`` requests, in microseconds
of this process's CPU per request (the database server's is not counted); a piece's cost is a
difference of two figures whose batches were taken in turn, so a change in the machine's speed
touches both, and one of a few microseconds is within the noise. ``profile_moves`` profiles the
stack floor and the move path whole. Run with ``DJANGO_DEBUG=false`` and the throttle rates of
``make profile-moves``, so no budget runs out.
"""

from __future__ import annotations

import gc
import io
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.sessions.middleware import SessionMiddleware
from django.core.management.base import BaseCommand, CommandError
from django.core.signals import request_finished, request_started
from django.db import connection
from django.test.utils import override_settings
from django.utils.module_loading import import_string

from accounts.models import ApiToken, User, token_digest
from accounts.services import token_create
from games.benchmarks.management.commands.bench_api import Command as BenchApi
from games.benchmarks.stack import ADDS_TO, DRF_VARIANTS, StackHandler

# Middleware that refuses to run without the session middleware before it (on the requests it
# does not skip): measuring the session middleware leaves them out on both sides of the
# difference.
NEEDS_SESSION = (AuthenticationMiddleware, MessageMiddleware)

BODY = b'{"move": {"take": [[3, 4]]}, "expected_version": 6}'
# A floor move that any version takes.
MOVE = b'{"move": {"take": [[3, 4]]}}'


def request_environ(path: str, token: str, body: bytes = BODY) -> dict[str, Any]:
    """The WSGI environ of a client's move: POST, a small JSON body, a token header."""
    return {
        "REQUEST_METHOD": "POST", "PATH_INFO": path, "SCRIPT_NAME": "", "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "127.0.0.1:8000",
        "HTTP_AUTHORIZATION": f"Token {token}", "HTTP_ACCEPT": "application/json",
        "HTTP_ACCEPT_LANGUAGE": "en", "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)), "wsgi.input": io.BytesIO(body),
        "wsgi.url_scheme": "http", "wsgi.errors": io.StringIO(), "wsgi.multithread": False,
        "wsgi.multiprocess": True, "wsgi.run_once": False, "wsgi.version": (1, 0),
    }


def caller(app: StackHandler, path: str, token: str, body: bytes = BODY) -> Callable[[], int]:
    """One request to ``path`` through ``app``; returns the status."""
    template = request_environ(path, token, body)
    statuses: list[str] = []

    def start_response(line: str, headers: Any, exc_info: Any = None) -> None:
        statuses.append(line)

    def call() -> int:
        environ = dict(template)
        environ["wsgi.input"] = io.BytesIO(body)
        statuses.clear()
        response = app(environ, start_response)
        b"".join(response)
        response.close()
        return int(statuses[0].split()[0])

    return call


def token_lookups(token: str) -> dict[str, Callable[[], int]]:
    """A request's life around one token look-up, three ways: none (the request signals only:
    the pooled connection taken and given back), in SQL through the cursor (the bare floor's
    way) and through the ORM with the user (the project's way)."""
    digest = token_digest(token)

    def life(look_up: Callable[[], Any]) -> Callable[[], int]:
        def call() -> int:
            request_started.send(sender=None)
            try:
                look_up()
            finally:
                request_finished.send(sender=None)
            return 201

        return call

    def in_sql() -> Any:
        with connection.cursor() as cursor:
            cursor.execute("SELECT user_id FROM accounts_apitoken WHERE digest = %s", [digest])
            return cursor.fetchone()

    def in_orm() -> Any:
        return ApiToken.objects.select_related("user").get(digest=digest)

    return {"the request's signals alone (no query, no connection)": life(lambda: None),
            "the token's user id in SQL (cursor)": life(in_sql),
            "the token and its user through the ORM": life(in_orm)}


def warm_up(call: Callable[[], int], requests: int) -> None:
    for _ in range(min(200, requests)):
        status = call()
        if status != 201:
            raise CommandError(f"the view answered {status}, not 201")


def batch(call: Callable[[], int], requests: int) -> float:
    """Microseconds of process CPU per request over one batch (after a collection, so one
    batch does not pay for the garbage of another)."""
    gc.collect()
    started = time.process_time()
    for _ in range(requests):
        call()
    return 1e6 * (time.process_time() - started) / requests


def paired(calls: list[Callable[[], int]], requests: int, repeats: int) -> list[float]:
    """The least batch of each of ``calls``, their batches taken in turn so that a change in
    the machine's speed touches all alike."""
    for call in calls:
        warm_up(call, requests)
    figures: list[list[float]] = [[] for _ in calls]
    for _ in range(repeats):
        for call, found in zip(calls, figures, strict=True):
            found.append(batch(call, requests))
    return [min(found) for found in figures]


class Command(BaseCommand):
    help = ("CPU per request of each middleware and of DRF's pieces around views that do "
            "nothing (in process, no profiler).")

    def add_arguments(self, parser) -> None:
        parser.add_argument("--requests", type=int, default=1000, help="requests per batch")
        parser.add_argument("--repeats", type=int, default=15,
                            help="batches per figure, taken in turn (the least is kept)")
        parser.add_argument("--part", choices=["all", "middleware", "drf", "database", "moves"],
                            default="all")

    def handle(self, *args, **options) -> None:
        user, _ = User.objects.get_or_create(username="stack-costs")
        token = token_create(user, "stack costs").key
        requests, repeats = options["requests"], options["repeats"]

        def handler(middleware: list[str]) -> StackHandler:
            with override_settings(MIDDLEWARE=middleware):
                return StackHandler()

        def compare(*cases: tuple[str, list[str]]) -> list[float]:
            return paired([caller(handler(middleware), path, token) for path, middleware in cases],
                          requests, repeats)

        self.stdout.write(f"stack costs: {repeats} batches of {requests} requests, least batch, "
                          "µs of CPU per request (POST, JSON body, Authorization: Token)")
        if options["part"] in ("all", "middleware"):
            self._middleware(list(settings.MIDDLEWARE), compare)
        if options["part"] in ("all", "drf"):
            self._drf(list(settings.MIDDLEWARE), compare)
        if options["part"] in ("all", "database"):
            self._database(token, requests, repeats)
        if options["part"] in ("all", "moves"):
            self._moves(requests, repeats)

    def _middleware(self, chain: list[str], compare: Callable[..., list[float]]) -> None:
        self.stdout.write("\n-- middleware (each: the chain with it less the chain without it)")
        none, full = compare(("/api/stack/empty", []), ("/api/stack/empty", chain))
        self.stdout.write(f"{'no middleware (an empty Django view)':58} {none:8.1f}")
        self.stdout.write(f"{'the whole chain, added to that':58} {full - none:8.1f}")
        for path in chain:
            needing = (set() if not issubclass(import_string(path), SessionMiddleware) else
                       {p for p in chain if issubclass(import_string(p), NEEDS_SESSION)})
            kept = [p for p in chain if p not in needing]
            with_it, without = compare(("/api/stack/empty", kept),
                                       ("/api/stack/empty", [p for p in kept if p != path]))
            self.stdout.write(f"  {path:56} {with_it - without:8.1f}")

    def _drf(self, chain: list[str], compare: Callable[..., list[float]]) -> None:
        self.stdout.write("\n-- DRF (the whole middleware chain; each adds one piece to the "
                          "one above)")
        previous = ("", "/api/stack/empty")
        for name in DRF_VARIANTS:
            base = (ADDS_TO[name], f"/api/stack/drf/{ADDS_TO[name]}") if name in ADDS_TO \
                else previous
            before, after = compare((base[1], chain), (f"/api/stack/drf/{name}", chain))
            label = f"{name} (instead of {previous[0]})" if name in ADDS_TO else name
            self.stdout.write(f"  {label:56} {after - before:8.1f}   (request: {after:.1f})")
            previous = (name, f"/api/stack/drf/{name}")

    def _database(self, token: str, requests: int, repeats: int) -> None:
        self.stdout.write("\n-- the database: one token look-up in a request's life (its "
                          "signals give the pooled connection back)")
        cycles = token_lookups(token)
        figures = paired(list(cycles.values()), requests, repeats)
        base = figures[0]
        for (name, _), figure in zip(cycles.items(), figures, strict=True):
            extra = "" if figure is base else f"   (request: {figure:.1f})"
            self.stdout.write(f"  {name:56} {figure - (0 if figure is base else base):8.1f}"
                              f"{extra}")

    def _moves(self, requests: int, repeats: int) -> None:
        self.stdout.write("\n-- a floor move's work through the whole stack (the token, the "
                          "match locked, the seat, the move row, the state and version)")
        first, _ = User.objects.get_or_create(username="stack-costs-0")
        second, _ = User.objects.get_or_create(username="stack-costs-1")
        token = token_create(first, "stack costs").key
        app = StackHandler()
        sql, orm = (caller(app, f"/api/stack/moves/{way}/{match_id}", token, MOVE)
                    for way, match_id in zip(("sql", "orm"), BenchApi._floor_matches(
                        [(first, second), (first, second)]), strict=True))
        in_sql, in_orm = paired([sql, orm], requests, repeats)
        self.stdout.write(f"  {'in SQL through the cursor (the bare floor view)':56} {in_sql:8.1f}")
        self.stdout.write(f"  {'through the ORM (the stack floor view)':56} {in_orm:8.1f}   "
                          f"(+{in_orm - in_sql:.1f})")
