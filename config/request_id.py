"""Request ids: one per HTTP request, returned in ``X-Request-ID`` and carried into every log
line the request causes, including those of the Celery tasks it queued.

* ``RequestIdMiddleware`` (first in ``MIDDLEWARE``) takes a well-formed incoming
  ``X-Request-ID`` (8-64 letters, digits and dashes: a UUID, a proxy's hex id) or makes one
  (a UUID4 in hex), keeps it in a context variable for the request and sets the response header.
  It is a hook-based middleware (``MiddlewareMixin``) so the live-update ASGI handler
  (``games.live.asgi``) runs it inline on the event loop like the others; context variables
  follow each request there (one asyncio task per request) as in threads and in
  ``sync_to_async``.
* ``publish_request_id`` (Celery's ``before_task_publish``) adds the id to the headers of every
  task published while it is set; ``task_context_set`` / ``task_context_clear``
  (``task_prerun`` / ``task_postrun``) set it, with the task's name, id and match id, in the worker
  process for the task's run. An eager task (tests, no broker) runs inside the request and so
  keeps the request's context.
* ``LogContextFilter`` adds ``request_id``, ``user_id``, ``match_id``, ``task`` and
  ``task_id`` to every record a handler emits (see ``config.logging``).
"""

from __future__ import annotations

import contextvars
import logging
import re
import uuid
from typing import Any

from django.core.signals import request_finished
from django.http import HttpRequest, HttpResponseBase
from django.utils.deprecation import MiddlewareMixin
from django.utils.functional import SimpleLazyObject, empty

logger = logging.getLogger(__name__)

HEADER = "X-Request-ID"
# What an incoming id may look like; anything else is replaced by a new id (never echoed).
# No underscore, so nothing shaped like an API key (``bp_...``) can pose as a request id.
WELL_FORMED = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{7,63}")
# The Celery message header that carries the id.
TASK_HEADER = "boardpost_request_id"

request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "boardpost_request_id", default=None)
current_request: contextvars.ContextVar[HttpRequest | None] = contextvars.ContextVar(
    "boardpost_request", default=None)
# The running task: {"task": name, "task_id": id, "match_id": ...}.
current_task: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar(
    "boardpost_task", default=None)


def new_request_id() -> str:
    return uuid.uuid4().hex


def accepted(value: str | None) -> str | None:
    """``value`` if it is a well-formed request id, else None."""
    if value and WELL_FORMED.fullmatch(value):
        return value
    return None


class RequestIdMiddleware(MiddlewareMixin):
    """Give each request its id (see the module docstring). The live-update handler runs its
    response hook for every waiter and never shares the header it sets between waiters."""

    every_response = True
    response_headers = (HEADER,)

    def process_request(self, request: HttpRequest) -> None:
        rid = accepted(request.META.get("HTTP_X_REQUEST_ID")) or new_request_id()
        request.request_id = rid  # type: ignore[attr-defined]
        request_id.set(rid)
        current_request.set(request)

    def process_response(self, request: HttpRequest,
                         response: HttpResponseBase) -> HttpResponseBase:
        rid = getattr(request, "request_id", None)
        if rid:
            response[HEADER] = rid
        return response


def _request_finished(**_: Any) -> None:
    """When the server closes the response (after Django's own request log line, after a
    streamed body): a worker thread serves the next request with the same context, so it
    forgets this one. (Under ASGI every request has a context of its own anyway.)"""
    request_id.set(None)
    current_request.set(None)


request_finished.connect(_request_finished, dispatch_uid="boardpost_request_id_finished")


# --------------------------------------------------------------------------- Celery


def publish_request_id(headers: dict[str, Any] | None = None, **_: Any) -> None:
    """``before_task_publish``: the publishing request's id travels in the task's headers."""
    rid = request_id.get()
    if rid and headers is not None:
        headers.setdefault(TASK_HEADER, rid)
    if logger.isEnabledFor(logging.DEBUG) and headers is not None:
        logger.debug("queued %s[%s]", headers.get("task"), headers.get("id"))


def _task_match_id(args: Any, kwargs: Any) -> str | None:
    """A task's match id: its ``match_id`` argument, or (the tasks of ``games.tasks`` take it
    first) its first argument when that looks like one."""
    if isinstance(kwargs, dict) and kwargs.get("match_id"):
        return str(kwargs["match_id"])
    if args and isinstance(args[0], str):
        try:
            return str(uuid.UUID(args[0]))
        except ValueError:
            return None
    return None


def task_context_set(task: Any = None, task_id: str | None = None, args: Any = None,
                     kwargs: Any = None, **_: Any) -> None:
    """``task_prerun``: the task's request id (from its headers), name, id and match id."""
    info = {"task": getattr(task, "name", None), "task_id": task_id,
            "match_id": _task_match_id(args, kwargs)}
    current_task.set(info)
    request = getattr(task, "request", None)
    if request is None or getattr(request, "is_eager", False):
        return  # run inside the caller, whose request id (if any) stays
    rid = request.get(TASK_HEADER)
    if rid is None:
        headers = request.get("headers") or {}
        rid = headers.get(TASK_HEADER) if isinstance(headers, dict) else None
    request_id.set(accepted(rid))


def task_context_clear(task: Any = None, **_: Any) -> None:
    """``task_postrun``: the worker process forgets the task's context."""
    current_task.set(None)
    request = getattr(task, "request", None)
    if request is not None and not getattr(request, "is_eager", False):
        request_id.set(None)


# --------------------------------------------------------------------------- logging


def _user_id(request: HttpRequest) -> Any:
    """The id of the request's user if it is already known: never loads a session or a token
    (that would query the database, perhaps on the event loop)."""
    user = request.__dict__.get("user")
    if user is None:
        return None
    if isinstance(user, SimpleLazyObject):
        wrapped = user._wrapped  # type: ignore[attr-defined]
        if wrapped is empty:
            return None
        user = wrapped
    return getattr(user, "pk", None)


class LogContextFilter:
    """Adds the request's and the task's context to every record (never drops one)."""

    def filter(self, record: Any) -> bool:
        # Django's request log lines name their request; others use the current one.
        request = record.__dict__.get("request")
        if not isinstance(request, HttpRequest):
            request = current_request.get()
        record.request_id = (getattr(record, "request_id", None)
                             or getattr(request, "request_id", None) or request_id.get())
        task = current_task.get()
        if request is not None:
            if getattr(record, "user_id", None) is None:
                record.user_id = _user_id(request)
            match = getattr(request, "resolver_match", None)
            if getattr(record, "match_id", None) is None and match is not None:
                found = match.kwargs.get("match_id")
                record.match_id = str(found) if found is not None else None
        if task is not None:
            for key, value in task.items():
                if getattr(record, key, None) is None:
                    setattr(record, key, value)
        return True
