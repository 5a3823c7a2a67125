"""The whole test suite as ``make test`` runs it: the browser and integration tests (which mostly
wait on servers, workers and a browser) and the rest in two pytest processes at once, so a
2-core machine finishes in a little over half the time.

The two runs share nothing that could mix them up: with PostgreSQL each has its own database
(the browser and integration run's name ends in ``_waiting``, and pytest-django makes
``test_<name>`` of each), and with Redis its own database number (that run's is the next one
up), which holds its Celery broker, its wake-ups' presence records and everything else the
settings derive from ``CELERY_BROKER_URL``. The rest's output is shown as it comes; the other
run's is shown when it ends. The exit status is non-zero when either run fails.

    python scripts/test_suite.py [pytest arguments for both runs]
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
WAITING = ["tests/browser", "tests/integration"]


def _waiting_database(url: str) -> str:
    parts = urlsplit(url)
    if not parts.scheme.startswith("postgres") or not parts.path.strip("/"):
        return url  # SQLite: each test database lives in its own process's memory
    return urlunsplit(parts._replace(path=parts.path.rstrip("/") + "_waiting"))


def _waiting_redis(url: str) -> str:
    parts = urlsplit(url)
    if not parts.scheme.startswith("redis"):
        return url
    number = parts.path.strip("/")
    index = int(number) if number.isdigit() else 0
    return urlunsplit(parts._replace(path=f"/{index + 1}"))


def main(args: list[str]) -> int:
    env = dict(os.environ)
    waiting_env = dict(env)
    if env.get("DATABASE_URL"):
        waiting_env["DATABASE_URL"] = _waiting_database(env["DATABASE_URL"])
    if env.get("CELERY_BROKER_URL"):
        waiting_env["CELERY_BROKER_URL"] = _waiting_redis(env["CELERY_BROKER_URL"])
    for name in ("EVENTS_REDIS_URL", "CACHE_URL"):
        if env.get(name):
            waiting_env[name] = _waiting_redis(env[name])
    python = sys.executable
    with tempfile.TemporaryFile(mode="w+") as waiting_log:
        waiting = subprocess.Popen([python, "-m", "pytest", *WAITING, *args], cwd=ROOT,
                                   env=waiting_env, stdout=waiting_log,
                                   stderr=subprocess.STDOUT)
        ignored = [option for path in WAITING for option in ("--ignore", path)]
        rest = subprocess.run([python, "-m", "pytest", *ignored, *args], cwd=ROOT, env=env,
                              check=False).returncode
        waiting_code = waiting.wait()
        waiting_log.seek(0)
        print(f"\n==== the browser and integration tests ({', '.join(WAITING)}) ====",
              flush=True)
        sys.stdout.write(waiting_log.read())
    print(f"\n==== rest of the suite: exit {rest}; browser and integration tests: exit "
          f"{waiting_code} ====")
    # pytest's 5 (no tests collected) counts as a failure: the suite is never empty.
    return 0 if rest == 0 and waiting_code == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
