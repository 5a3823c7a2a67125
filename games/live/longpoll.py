"""Long-poll endpoints: async views that answer as soon as something newer exists, or after
``wait`` seconds (at most LONG_POLL_MAX_SECONDS) with nothing new.

    GET /api/matches/{id}/events?after=<seq>&wait=<s>&limit=<n>   the match's redacted move log
    GET /api/me/events?after=<id>&wait=<s>&limit=<n>             the caller's event feed

A waiting request subscribes to its channel on the events hub (``games.live.hub``) BEFORE it
reads the database, then awaits the hub: under an ASGI server (uvicorn, ``games.live.asgi``) waiting
costs an ``asyncio.Event``, not a thread. What it answers is always read again through the
selectors, so redaction and access rules are exactly those of the synchronous endpoints.

These are not DRF views (DRF would run them in a thread): authentication (``Authorization:
Token <key>`` only), parameter validation and the error envelope are done here, and the OpenAPI
schema comes from stand-in DRF views that only declare it (``games.api.events``).

Database reads run in threads only for as long as they read. Under ASGI they go to a small pool
of their own (LONG_POLL_DB_THREADS, default 4: one PostgreSQL connection per pool thread; a
player's own feed is read first, ``games.live.readers``);
under WSGI (gunicorn, the test client) Django runs an async view in an event loop of its own
per request, and reads go back to the request's own thread and database connection.
"""

from __future__ import annotations

import asyncio
import math
import re
import threading
import time
from collections.abc import Awaitable, Callable
from functools import cache, lru_cache, partial
from typing import Any, TypeVar
from uuid import UUID

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import close_old_connections, connections
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from rest_framework import exceptions, serializers

from accounts.authentication import CachedTokenAuthentication
from accounts.models import User
from config.api import ORJSONRenderer, QuerySerializer, StrictSerializer
from config.exceptions import ApplicationError, envelope
from config.i18n import activate_user_language
from config.throttling import LongPollRateThrottle
from games import metrics
from games.live import batching, fanout, presence, readers
from games.live import hub as events_hub
from games.selectors import feeds

T = TypeVar("T")

MAX_SEQ = 2**31 - 1  # Move.seq is a PostgreSQL integer
MAX_EVENT_ID = 2**63 - 1  # UserEvent.id is a bigint
# A key is URL-safe base64 behind a short prefix ("bp_..."; older keys: 40 hex digits).
TOKEN_KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")


# --------------------------------------------------------------------------- parameters

def _wait_field() -> serializers.IntegerField:
    return serializers.IntegerField(
        required=False, default=0, min_value=0, max_value=settings.LONG_POLL_MAX_SECONDS,
        help_text="Seconds to wait when nothing newer is there yet; 0 answers at once.")


class MatchEventsParams(QuerySerializer):
    after = serializers.IntegerField(required=False, default=0, min_value=0, max_value=MAX_SEQ,
                                     help_text="The last seq the caller has (next_after).")
    wait = _wait_field()
    limit = serializers.IntegerField(required=False, default=100, min_value=1, max_value=500)


class FeedParams(QuerySerializer):
    after = serializers.IntegerField(required=False, default=0, min_value=0,
                                     max_value=MAX_EVENT_ID,
                                     help_text="The last id the caller has (next_after).")
    wait = _wait_field()
    limit = serializers.IntegerField(required=False, default=feeds.FEED_DEFAULT_LIMIT,
                                     min_value=1, max_value=feeds.FEED_MAX_LIMIT)


# --------------------------------------------------------------------------- answers

_RENDERER = ORJSONRenderer()


def _render(data: Any) -> bytes:
    # The API's renderer, so datetimes and spacing match the synchronous endpoints byte for byte.
    return _RENDERER.render(data)


def _ok(body: bytes) -> HttpResponse:
    return HttpResponse(body, content_type="application/json",
                        headers={"Cache-Control": "no-store"})


def _error(status: int, code: str, message: str, extra: dict[str, Any] | None = None,
           headers: dict[str, str] | None = None) -> HttpResponse:
    return HttpResponse(_render(envelope(code, message, extra)), status=status,
                        content_type="application/json", headers=headers)


def _coded_error(exc: ApplicationError) -> HttpResponse:
    """The envelope of a coded domain error (a match not found, or turned private)."""
    return _error(exc.http_status, exc.code, exc.message, dict(exc.extra))


def _unauthorized(code: str, message: str) -> HttpResponse:
    return _error(401, code, message, headers={"WWW-Authenticate": "Token"})


def _validation_error(errors: dict[str, Any]) -> HttpResponse:
    fields = {name: [str(item) for item in items] if isinstance(items, list) else str(items)
              for name, items in errors.items()}
    return _error(400, "validation_error", "Validation error.", {"fields": fields})


# --------------------------------------------------------------------------- database reads

@lru_cache(maxsize=1)
def _db_pool() -> readers.PriorityReads:
    return readers.PriorityReads(getattr(settings, "LONG_POLL_DB_THREADS", 4), "longpoll-db")


# A read thread keeps its connection from one read to the next while reads follow each other
# closely (a wake-up's shared reads, the re-polls after it), instead of giving it back to the
# pool and taking one again (with its check) for every read.
KEEP_CONNECTION_SECONDS = 1.0
_last_read = threading.local()


def _in_pool(fn: Callable[..., T], *args: Any) -> T:
    # No request signals reach these threads: honour CONN_MAX_AGE and drop broken connections
    # here, as Django does at the start and end of every request; a connection used a moment
    # ago without error is kept (``KEEP_CONNECTION_SECONDS``).
    now = time.monotonic()
    last = getattr(_last_read, "at", None)
    if last is None or now - last > KEEP_CONNECTION_SECONDS or any(
            conn.errors_occurred for conn in connections.all(initialized_only=True)):
        close_old_connections()
    try:
        return fn(*args)
    finally:
        _last_read.at = time.monotonic()


def _served_by_asgi(request: HttpRequest) -> bool:
    return isinstance(request, ASGIRequest)


async def _read(request: HttpRequest, fn: Callable[..., T], *args: Any,
                urgent: bool = False) -> T:
    """``fn(*args)`` in a read thread; ``urgent`` reads (a player's own feed) go first."""
    if _served_by_asgi(request):
        return await _db_pool().run(readers.URGENT if urgent else readers.NORMAL,
                                    partial(_in_pool, fn, *args))
    return await sync_to_async(fn, thread_sensitive=True)(*args)


# --------------------------------------------------------------------------- authentication

def _token_user(key: str) -> User | str:
    """The token's user, or DRF's reason for refusing it (recent tokens come from the same
    short-lived memory as every other API request's)."""
    try:
        user, _ = CachedTokenAuthentication().authenticate_credentials(key)
    except exceptions.AuthenticationFailed as refused:
        return str(refused.detail)
    return user


class _ThrottledCaller:
    """What DRF's throttles read of a request: the user and the client address."""

    def __init__(self, request: HttpRequest, user: User) -> None:
        self.user = user
        self.META = request.META


def _throttle_wait(request: HttpRequest, user: User) -> float | None:
    """None when the caller is within its long-poll budget, else the seconds until it is."""
    throttle = LongPollRateThrottle()
    caller: Any = _ThrottledCaller(request, user)  # all the throttle reads of a DRF request
    if throttle.allow_request(caller, None):  # type: ignore[arg-type]
        return None
    return throttle.wait() or 1.0


def _token_key(request: HttpRequest) -> str | HttpResponse:
    """The key of ``Authorization: Token <key>``, or the 401 DRF would answer."""
    parts = request.headers.get("Authorization", "").split()
    if not parts or parts[0].lower() != "token":
        return _unauthorized("not_authenticated",
                             _("Authentication credentials were not provided."))
    if len(parts) == 1:
        return _unauthorized("authentication_failed",
                             _("Invalid token header. No credentials provided."))
    if len(parts) > 2:
        return _unauthorized("authentication_failed",
                             _("Invalid token header. Token string should not contain spaces."))
    key = parts[1]
    # Anything that cannot be a key (a NUL byte, say) never reaches the database.
    if not TOKEN_KEY.fullmatch(key):
        return _unauthorized("authentication_failed", _("Invalid token."))
    return key


# --------------------------------------------------------------------------- the wait

# Reads what is there for the caller; the subscription (None when not waiting) tells which
# reads may be shared with other waiters (games.live.fanout).
Reader = Callable[[events_hub.Subscription | None], Awaitable[tuple[fanout.Shared, bool]]]
Prepared = tuple[User, dict[str, Any]]


def _shared_ok(answer: fanout.Shared) -> HttpResponse:
    response = _ok(answer.body)
    setattr(response, fanout.SHARED_ATTR, answer)  # the ASGI handler shares its headers too
    return response


async def _long_poll(request: HttpRequest, *, channel: str, wait: int,
                     read: Reader) -> HttpResponse:
    """Answer ``read()``'s body once it says something new is there, else wait on the channel
    and read again; after ``wait`` seconds answer what the last read found."""
    if wait <= 0:
        answer, _ = await read(None)
        return _shared_ok(answer)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    async with metrics.waiting("longpoll"), \
            events_hub.listen(channel, shared=_served_by_asgi(request)) as subscription:
        while True:
            subscription.rearm()  # before the read: a commit during the read still wakes us
            answer, ready = await read(subscription)
            remaining = deadline - loop.time()
            if ready or remaining <= 0:
                return _shared_ok(answer)
            await subscription.wait(remaining)


def _caller(key: str, request: HttpRequest) -> tuple[User, float | None] | str:
    """In one trip to a database thread: the token's user (or DRF's reason for refusing it),
    and the caller's long-poll budget (None, or the seconds to wait when it is spent)."""
    user = _token_user(key)
    if isinstance(user, str):
        return user
    return user, _throttle_wait(request, user)


Caller = tuple[User, float | None] | str


def _callers(asked: list[tuple[str, HttpRequest]]) -> list[Caller | Exception]:
    """``_caller`` for each of ``asked``; a failure is that request's alone."""
    results: list[Caller | Exception] = []
    for key, request in asked:
        try:
            results.append(_caller(key, request))
        except Exception as exc:  # noqa: BLE001 - raised to that request alone
            results.append(exc)
    return results


async def _authenticate(request: HttpRequest) -> tuple[User, float | None] | HttpResponse:
    """The caller of ``Authorization: Token <key>`` with its long-poll budget (``_caller``),
    or the 401 DRF would answer."""
    key = _token_key(request)
    if isinstance(key, HttpResponse):
        return key
    if _served_by_asgi(request):
        # The requests arriving together (the re-polls of thousands of clients after a
        # wake-up) look their callers up in ONE trip to a database thread.
        caller = await batching.batches().ask(partial(_read, request), _callers, (key, request))
    else:
        caller = await _read(request, _caller, key, request)
    if isinstance(caller, str):
        return _unauthorized("authentication_failed", caller)
    activate_user_language(request, caller[0])  # the caller's own language from here on
    return caller


async def _prepare(request: HttpRequest,
                   params_class: type[StrictSerializer]) -> Prepared | HttpResponse:
    """Authenticate, then check the method and the query, in DRF's order."""
    caller = await _authenticate(request)
    if isinstance(caller, HttpResponse):
        return caller
    user, throttled = caller
    if request.method != "GET":
        return _error(405, "method_not_allowed", f'Method "{request.method}" not allowed.',
                      headers={"Allow": "GET"})
    # A per-user budget of its own (config.throttling.LongPollRateThrottle): a client looping
    # without waiting is slowed down, one waiting for news does not starve its other requests.
    if throttled is not None:
        seconds = math.ceil(throttled)
        return _error(429, "throttled",
                      f"Request was throttled. Expected available in {seconds} seconds.",
                      {"retry_after": seconds}, headers={"Retry-After": str(seconds)})
    try:
        params = _params_checker(params_class).run_validation(request.GET.dict())
    except serializers.ValidationError as invalid:
        return _validation_error(invalid.detail)  # type: ignore[arg-type]
    # The schema states the cap of the settings at start-up; a test may lower it at run time.
    cap = settings.LONG_POLL_MAX_SECONDS
    if "wait" in params and params["wait"] > cap:
        return _validation_error({"wait": [f"Ensure this value is less than or equal to {cap}."]})
    return user, params


@cache
def _params_checker(params_class: type[StrictSerializer]) -> StrictSerializer:
    """One instance per parameters class, reused for every request: a serializer copies its
    declared fields each time it is made, which thousands of clients polling at once pay for
    again and again. Validation keeps nothing on the instance."""
    return params_class()


def _long_poll_view(view: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a view for the ASGI router (``games.live.asgi``), which sends its requests to the
    long-poll handler."""
    view.long_poll = True  # type: ignore[attr-defined]
    return view


# --------------------------------------------------------------------------- the views

def match_reader(request: HttpRequest, user: User, match_id: UUID, *, after: int,
                 limit: int, first: list[tuple[str, int | None]] | None = None) -> Reader:
    """Reads of the match's log after ``after`` for ``user``, shared with every waiter of the
    same kind (games.live.fanout); an answer is "ready" once it has moves, the match is over, or
    its status changed since the first read. ``first`` keeps the status and the caller's seat
    found by the first read (a stream passes the same list to each of its readers)."""
    if first is None:
        first = []

    async def read(subscription: events_hub.Subscription | None) -> tuple[fanout.Shared, bool]:
        match, answer = await fanout.match_read(
            partial(_read, request), match_id, user, generation=fanout.generation(subscription),
            after=after, limit=limit, render=_render)
        if not first:
            first.append((match.status, fanout.viewer_of(match, user)))
        ready = answer.ready or not match.is_running or match.status != first[0][0]
        return answer, ready

    return read


def feed_reader(request: HttpRequest, user: User, *, after: int, limit: int) -> Reader:
    """Reads of the caller's feed after ``after``; "ready" once there are entries."""

    async def read(subscription: events_hub.Subscription | None) -> tuple[fanout.Shared, bool]:
        answer = await fanout.feed_answer(partial(_read, request, urgent=True), user,
                                          fanout.generation(subscription), after=after,
                                          limit=limit, render=_render)
        return answer, answer.ready

    return read


@_long_poll_view
async def match_events(request: HttpRequest, match_id: UUID) -> HttpResponse:
    prepared = await _prepare(request, MatchEventsParams)
    if isinstance(prepared, HttpResponse):
        return prepared
    user, params = prepared
    read = match_reader(request, user, match_id, after=params["after"], limit=params["limit"])
    try:
        return await presence.while_watching(user.id, match_id, _long_poll(
            request, channel=events_hub.match_channel(match_id), wait=params["wait"], read=read))
    except ApplicationError as exc:  # MatchNotFound, also when the match turns private
        return _coded_error(exc)


@_long_poll_view
async def user_events(request: HttpRequest) -> HttpResponse:
    prepared = await _prepare(request, FeedParams)
    if isinstance(prepared, HttpResponse):
        return prepared
    user, params = prepared
    read = feed_reader(request, user, after=params["after"], limit=params["limit"])
    return await presence.while_watching(user.id, None, _long_poll(
        request, channel=events_hub.user_channel(user.id), wait=params["wait"], read=read))
