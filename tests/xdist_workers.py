"""Each pytest-xdist worker on a Redis database of its own, as it is on a database of its own.

pytest-django gives every worker its own test database (``test_<name>_gw<n>``); Redis is told
apart here: worker ``gw<n>`` moves ``CELERY_BROKER_URL`` (and ``EVENTS_REDIS_URL`` and
``CACHE_URL`` when set) ``n`` database numbers up, so its Celery queues, wake-ups and presence
records never meet another worker's. The settings read those variables when they load, before
any conftest, so this is a plugin named on the command line: ``-p tests.xdist_workers``
(scripts/test_suite.py passes it). It also says in which order the processes get the modules,
and keeps the modules that mostly sleep to half the processes (the lanes) while the others
compute. Without xdist it changes nothing.
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
# Modules that mostly sleep (outages, sweeps, kill-and-restart, real-time bots): only the lanes,
# half the processes (gw0, gw1, ...), take them, one module at a time, while the other processes
# keep the cores busy with the rest; a lane takes other modules once none of these is left.
SLEEPING = ("tests/integration/",)


def lanes(workers: int) -> int:
    """How many of ``workers`` processes go through the sleeping modules: half, at least one."""
    return max(1, workers // 2)


def _relative(config, path) -> str:
    return Path(path).relative_to(config.rootpath).as_posix()


def pytest_collection_modifyitems(config, items):
    """Under xdist, the sleeping modules first (the lanes take them, see
    ``pytest_xdist_make_scheduler``), then a module that waits on a browser and a module that
    computes take turns in the order the processes are handed modules, each module's tests in
    their own order: the longest modules start first, and while some processes wait, others
    keep the cores busy. A run without xdist keeps the usual order."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    modules: dict[object, list] = {}
    for item in items:
        modules.setdefault(item.path, []).append(item)
    sleeping, waiting, computing = [], [], []
    for path, tests in modules.items():
        name = _relative(config, path)
        (sleeping if name.startswith(SLEEPING) else waiting if name.startswith(WAITING)
         else computing).append(tests)
    order: list = [test for tests in sleeping for test in tests]
    for index in range(max(len(waiting), len(computing))):
        for kind in (waiting, computing):
            if index < len(kind):
                order.extend(kind[index])
    items[:] = order


def pytest_xdist_make_scheduler(config, log):
    """``--dist loadfile`` (a module's tests all in one process, modules handed out in the
    order collected) with the sleeping modules kept to the lanes: a lane takes the next
    sleeping module, any other process the next other one; when a process's kind runs out it
    takes the next module of either kind. With four processes on two cores (make test's), two
    lanes go through the sleeping modules in half the time one would, while the two others
    compute."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    def sleeping(scope: str) -> bool:
        return scope.startswith(SLEEPING)

    class SleepingLanes(LoadFileScheduling):
        def _is_lane(self, node) -> bool:
            number = node.gateway.id.removeprefix("gw")
            return number.isdigit() and int(number) < lanes(self.numnodes)

        def _assign_work_unit(self, node) -> None:
            lane = self._is_lane(node)
            scope = next((scope for scope in self.workqueue if sleeping(scope) == lane),
                         next(iter(self.workqueue)))
            self.workqueue.move_to_end(scope, last=False)
            super()._assign_work_unit(node)

    return SleepingLanes(config, log)


_move_redis_urls()
