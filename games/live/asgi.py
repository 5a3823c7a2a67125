"""ASGI plumbing for the live-update views (long-polls and streams): a waiting request holds
no thread and costs no thread hop.

Django's stock ASGI handler costs every request several trips through asgiref's ONE
process-wide sync thread: each ``MiddlewareMixin`` middleware runs its hooks there
(``__acall__`` -> ``sync_to_async``), and so do the request signals and the closing of the
response. With thousands of clients connecting or being woken at once, that thread is the
bottleneck. ``with_long_poll(app)`` sends the live-update URLs to ``LongPollASGIHandler``
instead, which:

* runs the project's middleware hooks (``process_request``, ``process_view``,
  ``process_exception``, ``process_response``) inline on the event loop. They are all cheap and
  never block for these views: nothing here touches the session, the CSRF token, messages or the
  database, so the headers they add (security headers, CSP, X-Frame-Options) and a database
  outage answered 503 are exactly those of every other URL. WhiteNoise (static files only) and
  django-axes (acts only on a refused sign-in) are left out;
* sends no ``request_started`` / ``request_finished`` signals: the views read the database only
  in their own thread pool, which closes stale connections itself (``games.live.longpoll``);
* cancels the view when the client goes away (``http.disconnect``), so a waiter's subscription
  and memory are freed at once, and streams a streaming response as it comes.

The process's garbage collector is tuned so a wake-up is not stalled by a full collection
(``calm_garbage_collector``).

Answers shared by many waiters (``games.live.fanout``) also share the headers the middleware
computed for the first of them, per URL scheme and language (``Content-Language``, from
middleware marked ``by_language``), so a wake-up sends prepared bytes; per waiter only the
hooks marked ``every_response`` run (the request id, the request metrics).

Every other URL goes to the application given, unchanged.
"""

from __future__ import annotations

import asyncio
import gc
import io
import logging
from collections.abc import Callable
from contextlib import aclosing, suppress
from typing import Any

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.core.handlers.exception import response_for_exception
from django.http import HttpRequest, HttpResponseBase
from django.urls import Resolver404, ResolverMatch, resolve
from django.utils import translation
from django.utils.deprecation import MiddlewareMixin
from django.utils.module_loading import import_string

from games.live.fanout import SHARED_ATTR

logger = logging.getLogger(__name__)

# Middleware the live-update handler leaves out, and why.
SKIPPED_MIDDLEWARE = {
    "whitenoise.middleware.WhiteNoiseMiddleware": "serves static files only",
    "axes.middleware.AxesMiddleware": "acts only on a sign-in refused for too many failures",
}


def long_poll_middleware() -> list[str]:
    """The project's middleware minus what serves static files."""
    return [path for path in settings.MIDDLEWARE
            if path != "whitenoise.middleware.WhiteNoiseMiddleware"]


def sync_only_middleware(paths: list[str]) -> list[str]:
    """The middleware among ``paths`` that the handler could not run on the event loop: neither
    hook-based (``MiddlewareMixin``) nor known to be irrelevant here."""
    return [path for path in paths
            if path not in SKIPPED_MIDDLEWARE
            and not issubclass(import_string(path), MiddlewareMixin)]


def _never(request: HttpRequest) -> HttpResponseBase:  # pragma: no cover - never called
    raise RuntimeError("hooks only")


class LongPollASGIHandler:
    """The ASGI application for the live-update URLs (see the module docstring)."""

    def __init__(self) -> None:
        paths = long_poll_middleware()
        unsupported = sync_only_middleware(paths)
        if unsupported:
            raise RuntimeError(f"middleware the live-update handler cannot run: {unsupported}")
        chain = [import_string(path)(_never) for path in paths if path not in SKIPPED_MIDDLEWARE]
        self.request_hooks = [m.process_request for m in chain if hasattr(m, "process_request")]
        self.view_hooks = [m.process_view for m in chain if hasattr(m, "process_view")]
        self.exception_hooks = [m.process_exception for m in reversed(chain)
                                if hasattr(m, "process_exception")]
        self.response_hooks = [m.process_response for m in reversed(chain)
                               if hasattr(m, "process_response")]
        # Middleware marked ``every_response`` (the request id, request metrics) answers each
        # waiter of a shared answer too; the headers it names are never shared. Those of
        # middleware marked ``by_language`` are shared per language.
        own = [m for m in reversed(chain) if getattr(m, "every_response", False)]
        self.own_hooks = [m.process_response for m in own]
        self.own_headers = {name.lower() for m in own for name in
                            getattr(m, "response_headers", ())}
        self.by_language = any(getattr(m, "by_language", False) for m in chain)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any,
                       match: ResolverMatch | None = None) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        body = await _read_body(receive)
        if body is None:
            return  # gone before it finished asking
        request = ASGIRequest(scope, io.BytesIO(body))
        responding = asyncio.ensure_future(self._respond(request, send, match))
        # The client going away cancels the view: its subscription and memory go at once.
        leaving = asyncio.ensure_future(_disconnected(receive))
        leaving.add_done_callback(lambda _: responding.cancel())
        try:
            with suppress(asyncio.CancelledError):
                await responding
        finally:
            leaving.cancel()

    async def _respond(self, request: ASGIRequest, send: Any,
                       match: ResolverMatch | None) -> None:
        response = self._call_hooks(self.request_hooks, request)
        if response is None:
            try:
                response = await self._view(request, match)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - answered like Django answers it
                response = (self._call_hooks(self.exception_hooks, request, exc)
                            or response_for_exception(request, exc))
        await self._send(request, response, send)

    async def _view(self, request: ASGIRequest, match: ResolverMatch | None) -> HttpResponseBase:
        if match is None:
            match = resolve(request.path_info)
        request.resolver_match = match
        response = self._call_hooks(self.view_hooks, request, match.func, match.args,
                                    match.kwargs)
        if response is None:
            response = await match.func(request, *match.args, **match.kwargs)
        return response

    @staticmethod
    def _call_hooks(hooks: list[Callable[..., Any]], request: HttpRequest,
                    *args: Any) -> HttpResponseBase | None:
        for hook in hooks:
            response = hook(request, *args)
            if response is not None:
                return response
        return None

    def _shared_key(self, request: ASGIRequest) -> tuple[str, str | None]:
        return request.scheme, translation.get_language() if self.by_language else None

    def _headers(self, request: ASGIRequest, response: HttpResponseBase) -> tuple[int, list]:
        shared = getattr(response, SHARED_ATTR, None)
        if shared is not None:
            prepared = shared.headers.get(self._shared_key(request))
            if prepared is not None:
                return self._own_headers(request, response, prepared)
        for hook in self.response_hooks:
            response = hook(request, response)
        headers = [(str(name).encode("ascii"), str(value).encode("latin1"))
                   for name, value in response.items()]
        headers += [(b"Set-Cookie", cookie.output(header="").encode("ascii").strip())
                    for cookie in response.cookies.values()]
        prepared = (response.status_code, headers)
        # Headers shared only when the hooks set no cookie: a cookie belongs to one client.
        if shared is not None and not response.cookies:
            shared.headers[self._shared_key(request)] = (prepared[0], [
                header for header in headers
                if header[0].decode("ascii").lower() not in self.own_headers])
        return prepared

    def _own_headers(self, request: ASGIRequest, response: HttpResponseBase,
                     prepared: tuple[int, list]) -> tuple[int, list]:
        for hook in self.own_hooks:
            response = hook(request, response)
        own = self.own_headers
        return prepared[0], prepared[1] + [
            (name.encode("ascii"), value.encode("latin1")) for name, value in response.items()
            if name.lower() in own]

    async def _send(self, request: ASGIRequest, response: HttpResponseBase, send: Any) -> None:
        status, headers = self._headers(request, response)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        if response.streaming:
            stream: Any = response
            async with aclosing(aiter(stream)) as content:
                async for part in content:
                    await send({"type": "http.response.body", "body": bytes(part),
                                "more_body": True})
            await send({"type": "http.response.body"})
        else:
            await send({"type": "http.response.body",
                        "body": response.content})  # type: ignore[attr-defined]


async def _read_body(receive: Any) -> bytes | None:
    chunks = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


async def _disconnected(receive: Any) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


def long_poll_match(scope: dict[str, Any]) -> ResolverMatch | None:
    """The resolved URL when ``scope`` asks for a live-update view, else None."""
    if scope.get("type") != "http":
        return None
    path = scope.get("path", "")
    root = scope.get("root_path", "")
    if root and path.startswith(root):
        path = path[len(root):]
    try:
        match = resolve(path)
    except Resolver404:
        return None
    return match if getattr(match.func, "long_poll", False) else None


def is_long_poll(scope: dict[str, Any]) -> bool:
    return long_poll_match(scope) is not None


def calm_garbage_collector() -> None:
    """Keep the cyclic garbage collector from stalling a wake-up.

    Waking thousands of clients allocates many short-lived objects, and every so often that
    triggers a full collection, which walks every object of the process: with Django loaded and
    thousands of waiting requests, a few hundred milliseconds each time, during which no client
    is answered. So the objects alive after start-up (the code, settings, URL patterns) are
    moved out of the collector's sight (``gc.freeze``), and the youngest generation is collected
    less often (a threshold of 50,000 allocations instead of 700): reference counting still
    frees nearly everything at once, the collector only reclaims cycles."""
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(GC_THRESHOLD, older, oldest)


# Allocations between two collections of the youngest generation (Python's default: 700).
GC_THRESHOLD = 50_000


def with_long_poll(application: Any) -> Any:
    """``application`` with the live-update URLs served by a ``LongPollASGIHandler``."""
    long_poll = LongPollASGIHandler()
    calm_garbage_collector()

    async def router(scope: dict[str, Any], receive: Any, send: Any) -> None:
        match = long_poll_match(scope)
        if match is not None:
            await long_poll(scope, receive, send, match)
        else:
            await application(scope, receive, send)

    return router
