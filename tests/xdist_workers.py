"""Each pytest-xdist worker on a Redis database of its own, as it is on a database of its own.

pytest-django gives every worker its own test database (``test_<name>_gw<n>``); Redis is told
apart here: worker ``gw<n>`` moves ``CELERY_BROKER_URL`` (and ``EVENTS_REDIS_URL`` and
``CACHE_URL`` when set) ``n`` database numbers up, so its Celery queues, wake-ups and presence
records never meet another worker's. The settings read those variables when they load, before
any conftest, so this is a plugin named on the command line: ``-p tests.xdist_workers``
(scripts/test_suite.py passes it). Without xdist it changes nothing.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

REDIS_URLS = ("CELERY_BROKER_URL", "EVENTS_REDIS_URL", "CACHE_URL")


def redis_number_moved(url: str, offset: int) -> str:
    """``url`` with its Redis database number ``offset`` higher (0 when it names none); any
    other URL unchanged."""
    parts = urlsplit(url)
    if not parts.scheme.startswith("redis"):
        return url
    number = parts.path.strip("/")
    index = int(number) if number.isdigit() else 0
    return urlunsplit(parts._replace(path=f"/{index + offset}"))


def _worker_offset() -> int:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    return int(worker[2:]) if worker.startswith("gw") and worker[2:].isdigit() else 0


def _move_redis_urls() -> None:
    offset = _worker_offset()
    if offset:
        for name in REDIS_URLS:
            if os.environ.get(name):
                os.environ[name] = redis_number_moved(os.environ[name], offset)


WAITING = ("tests/browser/", "tests/integration/")


def pytest_collection_modifyitems(config, items):
    """Under xdist, a module that mostly waits (browser and integration: servers, workers and a
    browser) and a module that computes take turns in the order the processes are handed
    modules, the waiting ones first, each module's tests in their own order: the longest
    modules start first, and while some processes wait on a browser or a server, others keep
    the cores busy. A run without xdist keeps the usual order."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    root = config.rootpath
    modules: dict[object, list] = {}
    for item in items:
        modules.setdefault(item.path, []).append(item)
    waiting = [tests for path, tests in modules.items()
               if Path(path).relative_to(root).as_posix().startswith(WAITING)]
    computing = [tests for path, tests in modules.items()
                 if not Path(path).relative_to(root).as_posix().startswith(WAITING)]
    order: list = []
    for index in range(max(len(waiting), len(computing))):
        for kind in (waiting, computing):
            if index < len(kind):
                order.extend(kind[index])
    items[:] = order


_move_redis_urls()
