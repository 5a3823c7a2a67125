"""WSGI entry of the bare move floor (``games.benchmarks.bare``), for ``bench_api --bare``.

Always the bare settings, whatever DJANGO_SETTINGS_MODULE the benchmark's own process has."""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ["DJANGO_SETTINGS_MODULE"] = "games.benchmarks.bare.settings"

application = get_wsgi_application()
