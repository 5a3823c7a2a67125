"""Settings of the bare move floor: Django and DRF with nothing of the project's.

No middleware, no project app, DRF with only its JSON parser and renderer, no authentication,
permission or throttle classes. The database is the one DATABASE_URL names (the benchmark's),
with one persistent connection per worker process: the cheapest way a sync worker can talk to
PostgreSQL.
"""

from __future__ import annotations

import secrets

import environ

env = environ.Env()

SECRET_KEY = secrets.token_urlsafe(32)
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
USE_TZ = True
INSTALLED_APPS = ["rest_framework"]
MIDDLEWARE: list[str] = []
ROOT_URLCONF = "games.benchmarks.bare.urls"

DATABASES = {"default": env.db("DATABASE_URL")}
DATABASES["default"]["CONN_MAX_AGE"] = None
DATABASES["default"]["ATOMIC_REQUESTS"] = False

REST_FRAMEWORK = {
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": [],
    "DEFAULT_THROTTLE_CLASSES": [],
    # No django.contrib.auth: a request without authentication has no user object at all.
    "UNAUTHENTICATED_USER": None,
    "EXCEPTION_HANDLER": "games.benchmarks.bare.views.coded_error",
}
