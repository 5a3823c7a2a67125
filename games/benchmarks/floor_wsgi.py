"""WSGI entry of the stack floor (``games.benchmarks.floor``), for the benchmark only.

The project's settings and middleware, with the floor's URLconf in place of the project's."""

from __future__ import annotations

import os
from typing import Any

import django
from django.core.handlers.wsgi import WSGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
django.setup(set_prefix=False)


class FloorHandler(WSGIHandler):
    def get_response(self, request: Any) -> Any:
        request.urlconf = "games.benchmarks.floor"
        return super().get_response(request)


application = FloorHandler()
