"""Health endpoints for operators and orchestrators (the docker compose health checks).

    GET /health/live    200 while the process serves requests; touches nothing else.
    GET /health/ready   200 when PostgreSQL answers ``SELECT 1``, every Redis the process uses
                        answers PING, and a Celery worker answers a ping; else 503 naming the
                        failing checks. Each check has a short timeout.

Both are plain Django views: no authentication, no throttling, no session, and not part of the
public API's OpenAPI schema. The readiness answer is remembered for HEALTH_READY_CACHE_SECONDS
so a busy prober costs one round of checks per interval and process. Details name what failed
and the exception's class, never a host or a password.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import redis
from django.conf import settings
from django.db import connections
from django.http import HttpRequest, JsonResponse

from config.exceptions import envelope

# Seconds each check may take.
CHECK_TIMEOUT = 2.0
WORKER_PING_TIMEOUT = 1.0
REDIS_CACHE_BACKENDS = ("django.core.cache.backends.redis.RedisCache",
                        "config.cache.FallbackRedisCache")

Check = Callable[[], dict[str, Any]]


def _allow_get(view: Callable[[HttpRequest], JsonResponse]) -> Callable[..., JsonResponse]:
    def wrapped(request: HttpRequest) -> JsonResponse:
        if request.method not in ("GET", "HEAD"):
            return JsonResponse(envelope("method_not_allowed",
                                         f'Method "{request.method}" not allowed.'),
                                status=405, headers={"Allow": "GET, HEAD"})
        response = view(request)
        response["Cache-Control"] = "no-store"
        return response

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


@_allow_get
def live(request: HttpRequest) -> JsonResponse:
    """The process is up and serving requests."""
    return JsonResponse({"status": "ok"})


@_allow_get
def ready(request: HttpRequest) -> JsonResponse:
    """The process can do its work: database, Redis and a Celery worker answer."""
    checks = _ready_checks()
    ok = all(check["ok"] for check in checks.values())
    body = {"status": "ok" if ok else "unavailable", "checks": checks}
    if not ok:
        body["failing"] = sorted(name for name, check in checks.items() if not check["ok"])
    return JsonResponse(body, status=200 if ok else 503)


# --------------------------------------------------------------------------- the checks

_remembered: dict[str, Any] = {"at": -1e9, "checks": None}
_remembered_lock = threading.Lock()


def _ready_checks() -> dict[str, dict[str, Any]]:
    seconds = float(getattr(settings, "HEALTH_READY_CACHE_SECONDS", 2.0))
    with _remembered_lock:
        if _remembered["checks"] is not None and time.monotonic() - _remembered["at"] < seconds:
            return dict(_remembered["checks"])
    checks = run_checks()
    with _remembered_lock:
        _remembered.update(at=time.monotonic(), checks=checks)
    return checks


def run_checks() -> dict[str, dict[str, Any]]:
    """Every readiness check that applies to this configuration, by name."""
    checks: dict[str, Check] = {"database": check_database}
    for name, url in redis_urls().items():
        checks[name] = _redis_check(url)
    results = {name: _timed(check) for name, check in checks.items()}
    if broker_supports_ping():
        broker = results.get("broker")
        if broker is not None and not broker["ok"]:
            # With the broker away no worker can answer; do not wait on it.
            results["worker"] = {"ok": False, "error": "broker unavailable", "ms": 0.0}
        else:
            results["worker"] = _timed(check_worker)
    return results


def _timed(check: Check) -> dict[str, Any]:
    started = time.monotonic()
    try:
        result = {"ok": True, **check()}
    except Exception as exc:  # noqa: BLE001 - any failure means "not ready"
        result = {"ok": False, "error": type(exc).__name__}
    result["ms"] = round((time.monotonic() - started) * 1000, 1)
    return result


def check_database() -> dict[str, Any]:
    """``SELECT 1`` on a connection of the kind requests use: from the pool when there is one
    (waiting at most CHECK_TIMEOUT for a free one), else a new connection."""
    connection = connections["default"]
    pool = getattr(connection, "pool", None)
    if pool is not None:
        pool.open()
        with pool.connection(timeout=CHECK_TIMEOUT) as conn:
            conn.execute("SELECT 1")
        stats = pool.get_stats()
        return {"pool_size": stats.get("pool_size", 0), "pool_max": pool.max_size}
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return {}


def redis_urls() -> dict[str, str]:
    """The Redis servers this process uses, by role (only the ones configured)."""
    urls: dict[str, str] = {}
    broker = str(getattr(settings, "CELERY_BROKER_URL", "") or "")
    if broker.startswith(("redis://", "rediss://")):
        urls["broker"] = broker
    cache = settings.CACHES.get("default", {})
    if cache.get("BACKEND") in REDIS_CACHE_BACKENDS:
        location = cache.get("LOCATION")
        if isinstance(location, list | tuple):
            location = location[0] if location else ""
        if location:
            urls["cache"] = str(location)
    events = str(getattr(settings, "EVENTS_REDIS_URL", "") or "")
    if events:
        urls["events"] = events
    return urls


def _redis_check(url: str) -> Check:
    def check() -> dict[str, Any]:
        client = redis.Redis.from_url(url, socket_connect_timeout=CHECK_TIMEOUT,
                                      socket_timeout=CHECK_TIMEOUT)
        try:
            client.ping()
        finally:
            client.close()
        return {}

    return check


def broker_supports_ping() -> bool:
    """Workers answer control commands over a Redis or AMQP broker (not the filesystem one)."""
    broker = str(getattr(settings, "CELERY_BROKER_URL", "") or "")
    return broker.startswith(("redis://", "rediss://", "amqp://", "amqps://", "pyamqp://"))


def check_worker() -> dict[str, Any]:
    """At least one Celery worker answers a ping within WORKER_PING_TIMEOUT."""
    from config.celery_app import app

    replies = app.control.ping(timeout=WORKER_PING_TIMEOUT, limit=1)
    if not replies:
        raise WorkerUnavailable()
    return {"workers": len(replies)}


class WorkerUnavailable(Exception):
    """No Celery worker answered the ping."""
