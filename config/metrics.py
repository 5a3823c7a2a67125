"""Metrics in the Prometheus text format at ``/metrics``, and the Celery task metrics.

What is measured, and where:

* requests by route name (``games:moves``, never the raw path), method and status, with their
  times: ``RequestMetricsMiddleware`` (``boardpost_http_requests_total``,
  ``boardpost_http_request_seconds``). Not django-prometheus's middleware: it updates about a
  dozen series per request, measured at 8-9 times the cost of these two, which the live-update
  handler pays for every client a move wakes;
* Celery tasks by name and final state, and their run times: ``task_prerun`` /
  ``task_postrun`` (``boardpost_celery_tasks_total``, ``boardpost_celery_task_seconds``);
* the game server's own (moves, move latency, bot think time, live waiters) in
  ``games.metrics``, and what is read at scrape time (queue depth, due work, active matches) by
  the collectors named in ``METRICS_COLLECTORS``.

Processes. prometheus-client keeps metrics per process. With several processes (gunicorn
workers, uvicorn workers, Celery's prefork pool) set ``PROMETHEUS_MULTIPROC_DIR`` to a directory
all of a host's (or container's) processes share, emptied before they start (the docker start
scripts and ``make run`` do both): each process then writes its metrics there and ``/metrics``
answers the sum over all of them (prometheus-client's multiprocess mode). The live gauges of a
process that ended leave the sum: gunicorn's ``child_exit`` hook (docker/gunicorn.conf.py) and a
Celery pool process's shutdown say so, and each scrape forgets those of processes that died
without a word (uvicorn's workers have no exit hook; ``forget_dead_processes``). The Celery
worker of another container answers its own scrape on ``CELERY_METRICS_PORT``
(``worker_metrics_serve``). Without the variable each process answers for itself, which is
right for one process only.

Access (``metrics_view``): a scraper sends ``Authorization: Bearer <METRICS_TOKEN>`` or connects
from an address in ``METRICS_ALLOWED_ADDRESSES``; with neither configured ``/metrics`` is off
(404). A refusal is the API's coded error envelope.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import os
import time
from functools import cache
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.utils.deprecation import MiddlewareMixin
from django.utils.module_loading import import_string
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)

from config.exceptions import envelope

logger = logging.getLogger(__name__)

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"

REQUESTS = Counter("boardpost_http_requests",
                   "HTTP requests answered, by route name, method and status.",
                   ["view", "method", "status"])
REQUEST_SECONDS = Histogram(
    "boardpost_http_request_seconds",
    "Time from the request reaching Django to its response (a long-poll's wait included), "
    "by route name.", ["view"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60))
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

TASKS = Counter("boardpost_celery_tasks", "Celery tasks run, by task name and final state.",
                ["task", "state"])
TASK_SECONDS = Histogram(
    "boardpost_celery_task_seconds", "Celery task run time in the worker, by task name.",
    ["task"], buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25))


def multiprocess_mode() -> bool:
    return bool(os.environ.get(MULTIPROC_ENV))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    return True


def forget_dead_processes(path: str) -> list[int]:
    """Mark dead every process whose live gauges (``gauge_live*_<pid>.db``) are in ``path`` but
    which no longer runs: a uvicorn worker has no exit hook, and a process killed outright never
    ran its own. Only right where the directory belongs to one host or container (one process
    id space), which is how it is meant to be used. The process ids marked dead."""
    dead = set()
    for name in os.listdir(path):
        if name.startswith("gauge_live") and name.endswith(".db"):
            pid = name[:-len(".db")].rpartition("_")[2]
            if pid.isdigit() and not _alive(int(pid)):
                dead.add(int(pid))
    for pid in dead:
        multiprocess.mark_process_dead(pid, path)  # type: ignore[no-untyped-call]
    return sorted(dead)


class LiveProcessesCollector(multiprocess.MultiProcessCollector):
    """prometheus-client's multiprocess collector, which first forgets the live gauges of
    processes that died without saying so (``forget_dead_processes``)."""

    def collect(self) -> Any:
        forget_dead_processes(self._path)
        return super().collect()  # type: ignore[no-untyped-call]


def base_registry() -> CollectorRegistry:
    """The metrics every process writes: this process's own, or in multiprocess mode those of
    every process sharing the directory."""
    if multiprocess_mode():
        registry = CollectorRegistry()
        LiveProcessesCollector(registry)
        return registry
    return REGISTRY


@cache
def scrape_registry() -> CollectorRegistry:
    """The collectors read at scrape time (``METRICS_COLLECTORS``), in a registry of their own:
    they answer from the scraping process, never through the multiprocess files."""
    registry = CollectorRegistry(auto_describe=False)
    for path in settings.METRICS_COLLECTORS:
        registry.register(import_string(path)())
    return registry


def exposition() -> bytes:
    return generate_latest(base_registry()) + generate_latest(scrape_registry())


# --------------------------------------------------------------------------- requests


class RequestMetricsMiddleware(MiddlewareMixin):
    """Counts each answered request by route name (``games:moves``; ``unmatched`` for a URL
    that names no route) and status, and observes its time. Right after the request-id
    middleware, so it times (nearly) everything.

    Two metric updates a request, through label children kept per (view, method, status): a
    few microseconds, cheap enough for the live-update handler to run it for every waiter it
    wakes, shared answers included (``every_response``)."""

    every_response = True

    def __init__(self, get_response: Any) -> None:
        super().__init__(get_response)
        self._counters: dict[tuple[str, str, int], Any] = {}
        self._timers: dict[str, Any] = {}

    def process_request(self, request: HttpRequest) -> None:
        request.boardpost_started = time.perf_counter()  # type: ignore[attr-defined]

    def process_response(self, request: HttpRequest,
                         response: HttpResponseBase) -> HttpResponseBase:
        started = getattr(request, "boardpost_started", None)
        match = getattr(request, "resolver_match", None)
        view = (match.view_name or "unnamed") if match is not None else "unmatched"
        method = request.method if request.method in METHODS else "other"
        key = (view, method or "other", response.status_code)
        counter = self._counters.get(key)
        if counter is None:
            counter = self._counters[key] = REQUESTS.labels(
                view=view, method=method, status=str(response.status_code))
        counter.inc()
        if started is not None:
            timer = self._timers.get(view)
            if timer is None:
                timer = self._timers[view] = REQUEST_SECONDS.labels(view=view)
            timer.observe(time.perf_counter() - started)
        return response


# --------------------------------------------------------------------------- access


def _address_allowed(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    for allowed in settings.METRICS_ALLOWED_ADDRESSES:
        try:
            if ip in ipaddress.ip_network(allowed, strict=False):
                return True
        except ValueError:
            logger.warning("METRICS_ALLOWED_ADDRESSES: %r is not an address or network",
                           allowed)
    return False


def _refusal(request: HttpRequest) -> JsonResponse | None:
    token = settings.METRICS_TOKEN
    if not token and not settings.METRICS_ALLOWED_ADDRESSES:
        return JsonResponse(envelope("not_found", "Not found."), status=404)
    sent = request.headers.get("Authorization", "")
    if token and sent.startswith("Bearer "):
        if hmac.compare_digest(sent[len("Bearer "):].strip().encode(), token.encode()):
            return None
        return JsonResponse(envelope("authentication_failed", "The metrics token is wrong."),
                            status=401)
    if _address_allowed(request.META.get("REMOTE_ADDR", "")):
        return None
    if token:
        response = JsonResponse(envelope("not_authenticated",
                                         "Send Authorization: Bearer <metrics token>."),
                                status=401)
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    return JsonResponse(envelope("permission_denied", "Metrics are not served to this address."),
                        status=403)


def metrics_view(request: HttpRequest) -> HttpResponse:
    if request.method not in ("GET", "HEAD"):
        response = JsonResponse(envelope("method_not_allowed", "Use GET."), status=405)
        response["Allow"] = "GET, HEAD"
        return response
    refused = _refusal(request)
    if refused is not None:
        return refused
    return HttpResponse(exposition(), content_type=CONTENT_TYPE_LATEST)


# --------------------------------------------------------------------------- Celery


def task_started(task_id: str | None = None, task: Any = None, **_: Any) -> None:
    """``task_prerun``: when the task began (kept on the task's request)."""
    request = getattr(task, "request", None)
    if request is not None:
        request.boardpost_started = time.perf_counter()


def task_finished(task_id: str | None = None, task: Any = None, state: str | None = None,
                  **_: Any) -> None:
    """``task_postrun``: count the task by its final state and observe its run time."""
    name = getattr(task, "name", None) or "unknown"
    TASKS.labels(task=name, state=state or "UNKNOWN").inc()
    started = getattr(getattr(task, "request", None), "boardpost_started", None)
    if started is not None:
        TASK_SECONDS.labels(task=name).observe(time.perf_counter() - started)


def mark_process_dead(pid: int) -> None:
    """For a process manager's exit hook (gunicorn's ``child_exit``, a Celery pool process's
    shutdown): the dead process's live gauges stop counting."""
    if multiprocess_mode():
        multiprocess.mark_process_dead(pid)  # type: ignore[no-untyped-call]


def worker_metrics_serve(**_: Any) -> None:
    """``worker_init`` in a worker's main process: serve the worker's metrics (its pool
    processes' through the multiprocess directory) on ``CELERY_METRICS_PORT``, if set. The port
    answers anyone who reaches it: keep it on the private network."""
    port = settings.CELERY_METRICS_PORT
    if not port:
        return
    if not multiprocess_mode():
        logger.warning("CELERY_METRICS_PORT is set without %s: the pool processes' task "
                       "metrics would not be seen; not serving them", MULTIPROC_ENV)
        return
    from prometheus_client import start_http_server

    start_http_server(port, registry=base_registry())
    logger.info("Celery worker metrics served on port %s", port)
