"""The whole test suite as ``make test`` runs it: one pytest run spread over WORKERS processes
(pytest-xdist: one a core, at most four, unless ``TEST_WORKERS`` says otherwise), a module's
tests all in one process so that its shared servers and workers start once. The browser and
integration modules, which mostly wait, take turns with the modules that compute in the order
they are handed out (tests/xdist_workers.py). On a 2-core machine four processes took 18 min
39 s end to end and two 14 min 49 s (2026-12-07), so it runs one process a core (the README has
the latest figures).

The processes share nothing that could mix them up: with PostgreSQL each has its own test
database (pytest-django names it ``test_<name>_gw<n>``), and with Redis its own database
number, ``CELERY_BROKER_URL``'s plus ``n`` (so 12 to 15 for ``redis://.../12``), which holds its
Celery broker, its wake-ups' presence records and everything else the settings derive from
``CELERY_BROKER_URL`` (tests/xdist_workers.py). The exit status is pytest's: non-zero when any
test fails, and when no test was collected.

    python scripts/test_suite.py [pytest arguments]
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKERS = min(os.cpu_count() or 2, 4)


def command(args: list[str], workers: int) -> list[str]:
    """The pytest command line: ``-p tests.xdist_workers`` before anything loads the settings,
    modules kept whole (``--dist loadfile``) and handed out in the order collected."""
    return [sys.executable, "-m", "pytest", "-p", "tests.xdist_workers", "-n", str(workers),
            "--dist", "loadfile", "--no-loadscope-reorder", *args]


def main(args: list[str]) -> int:
    workers = int(os.environ.get("TEST_WORKERS") or WORKERS)
    return subprocess.run(command(args, workers), cwd=ROOT, check=False).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
