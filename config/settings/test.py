"""Settings for the test suite: fast hashing, eager Celery unless a test starts a real worker."""

import atexit
import os
import shutil
import tempfile
from pathlib import Path

from config.database import databases

from .base import *  # noqa: F403
from .base import _SQLITE_URL, env

# No connection pool unless DB_POOL=true: the test runner keeps a connection per thread for a
# whole test (TestCase's transaction, the threads of the concurrency tests), which a pool would
# only make wait. The integration tests run their server processes with the pool on.
DATABASES = databases(env, _SQLITE_URL, pool=env.bool("DB_POOL", default=False))

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Eager unless a real worker runs the tasks: the integration tests start worker processes with
# BOARDPOST_CELERY_EAGER=false, so whatever those workers enqueue goes back to the broker.
CELERY_TASK_ALWAYS_EAGER = env.bool("BOARDPOST_CELERY_EAGER", default=True)
CELERY_TASK_EAGER_PROPAGATES = True
REST_FRAMEWORK = {**REST_FRAMEWORK}  # noqa: F405
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] = {
    **REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
}

# Static files straight from the apps until collectstatic has run: the browser tests run it
# once into STATIC_ROOT, and from then on the pages name the hashed, compressed files. The
# processes of one pytest-xdist run share one directory, named by the run's id (the same in each
# of them; the first to need it collects, the others wait and read its manifest, and the run
# removes it at its end: tests/conftest.py); any other test process has one of its own (other
# test runs may share the checkout).
_XDIST_RUN = os.environ.get("PYTEST_XDIST_TESTRUNUID")
if _XDIST_RUN:
    STATIC_ROOT = Path(tempfile.gettempdir()) / f"boardpost-static-{_XDIST_RUN}"
else:
    STATIC_ROOT = Path(tempfile.mkdtemp(prefix="boardpost-static-"))
    atexit.register(shutil.rmtree, STATIC_ROOT, ignore_errors=True)
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "config.staticfiles.DevStaticStorage"},
}
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
