"""ASGI plumbing for the long-poll views, so that a waiting request holds no thread.

Django's stock ASGI handler costs a waiting request a thread in two ways: a middleware that is
not async-capable (WhiteNoise) makes Django run the rest of the chain, the view included, from a
thread blocked on the event loop; and the per-request ``ThreadSensitiveContext`` starts a
thread for the request's first thread-sensitive call (the ``request_started`` signal) that
idles until the request ends. ``with_long_poll(app)`` sends the long-poll URLs to a handler
without either: the same middleware minus WhiteNoise (it serves static files only, never an API
URL), and no per-request context, so the few thread-sensitive calls left (the request signals,
closing the response) share asgiref's one process-wide sync thread. Every other URL goes to the
application given, unchanged.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.handlers.asgi import ASGIHandler
from django.urls import Resolver404, resolve
from django.utils.module_loading import import_string

logger = logging.getLogger(__name__)

# Middleware the long-poll handler leaves out: static files only, and not async-capable.
STATIC_ONLY_MIDDLEWARE = frozenset({"whitenoise.middleware.WhiteNoiseMiddleware"})


def long_poll_middleware() -> list[str]:
    return [path for path in settings.MIDDLEWARE if path not in STATIC_ONLY_MIDDLEWARE]


def sync_only_middleware(paths: list[str]) -> list[str]:
    """The middleware among ``paths`` that would make Django hold a thread per request."""
    return [path for path in paths
            if not getattr(import_string(path), "async_capable", False)]


class LongPollASGIHandler(ASGIHandler):
    """Django's ASGI handler for the long-poll URLs alone (see the module docstring)."""

    def load_middleware(self, is_async: bool = False) -> None:
        middleware = long_poll_middleware()
        for path in sync_only_middleware(middleware):
            logger.warning("%s is not async-capable: every waiting long-poll request will hold "
                           "a thread", path)
        # BaseHandler reads settings.MIDDLEWARE; hand it the shorter list while it builds the
        # chain (once, at start-up, before any request is served).
        saved = settings.MIDDLEWARE
        settings.MIDDLEWARE = middleware
        try:
            super().load_middleware(is_async=is_async)
        finally:
            settings.MIDDLEWARE = saved

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        await self.handle(scope, receive, send)


def is_long_poll(scope: dict[str, Any]) -> bool:
    if scope.get("type") != "http":
        return False
    path = scope.get("path", "")
    root = scope.get("root_path", "")
    if root and path.startswith(root):
        path = path[len(root):]
    try:
        match = resolve(path)
    except Resolver404:
        return False
    return getattr(match.func, "long_poll", False)


def with_long_poll(application: Any) -> Any:
    """``application`` with the long-poll URLs served by a ``LongPollASGIHandler``."""
    long_poll = LongPollASGIHandler()

    async def router(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if is_long_poll(scope):
            await long_poll(scope, receive, send)
        else:
            await application(scope, receive, send)

    return router
