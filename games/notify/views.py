"""The web client's service worker, served from the site's root so that its scope is the whole
site (a worker's scope cannot be wider than the folder it is served from)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

WORKER = Path(__file__).resolve().parent / "serviceworker.js"


@lru_cache(maxsize=1)
def _worker() -> bytes:
    return WORKER.read_bytes()


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(_worker(), content_type="text/javascript; charset=utf-8")
    # Browsers check for a new worker at every navigation; never serve a stale one.
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    response["X-Content-Type-Options"] = "nosniff"
    return response
