"""The web client's service worker, ``/sw.js``, served from the site's root so that its scope is
the whole site (a worker's scope cannot be wider than the folder it is served from).

It is one script made of three parts: the app shell's list (every static file of the client
under its served, hashed name, and a version naming that list), the offline part
(``games/web/offline-worker.js``: the shell, the last answers of the inbox and the matches, moves
kept on the device) and the push part (``games/notify/serviceworker.js``). A deploy that changes
any static file changes the list, so browsers install the new worker and drop the old shell.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.templatetags.static import static
from django.views.decorators.http import require_safe

from games.web.views import CLIENT_DIR

PARTS = (
    Path(__file__).resolve().parent / "offline-worker.js",
    Path(__file__).resolve().parents[1] / "notify" / "serviceworker.js",
)
# What the shell keeps besides the client's own directory: nothing else is needed offline.
SHELL_SUFFIXES = (".js", ".css", ".png")


def shell_urls() -> list[str]:
    """The served URL of every static file of the client the app shell keeps."""
    files = sorted(path.relative_to(CLIENT_DIR).as_posix() for path in CLIENT_DIR.rglob("*")
                   if path.suffix in SHELL_SUFFIXES)
    return [static(f"boardpost/{name}") for name in files]


def worker_script() -> bytes:
    urls = shell_urls()
    sources = b"\n".join(part.read_bytes() for part in PARTS)
    version = hashlib.sha256("\n".join(urls).encode() + sources).hexdigest()[:16]
    shell = json.dumps({"version": version, "urls": urls}, separators=(",", ":"))
    prefix = f"self.BOARDPOST_SHELL = {shell};\n".encode()
    return prefix + sources


@lru_cache(maxsize=1)
def _cached_worker_script() -> bytes:
    return worker_script()


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    body = worker_script() if settings.DEBUG else _cached_worker_script()
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    # Browsers check for a new worker at every navigation; never serve a stale one.
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    response["X-Content-Type-Options"] = "nosniff"
    return response
