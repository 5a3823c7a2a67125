"""The whole test suite as ``make test`` runs it: one pytest run spread over WORKERS processes
(pytest-xdist: one a core and one more, at most four, unless ``TEST_WORKERS`` says otherwise),
a module's tests all in one process so that its shared servers and workers start once. The
integration modules, which mostly sleep (outages, sweeps, workers killed and restarted), go to
half the processes, the lanes, one module at a time, while the others share out the rest; the
browser modules and the modules that compute take turns in the order they are handed out
(tests/xdist_workers.py). On a 2-core machine four processes, without lanes, took 18 min 39 s
end to end and two 14 min 49 s (2026-12-07). With two lanes of four processes CI met a timing
race in three of four runs (the cores shared by four suites' servers, workers and browsers):
the default is three processes again, one lane; ``TEST_WORKERS=4`` gives two lanes. The README
has the latest figures.

The processes share nothing that could mix them up: with PostgreSQL each has its own test
database (pytest-django names it ``test_<name>_gw<n>``), and with Redis its own database
number, ``CELERY_BROKER_URL``'s plus ``n`` (so 12 to 15 for ``redis://.../12``), which holds its
Celery broker, its wake-ups' presence records and everything else the settings derive from
``CELERY_BROKER_URL`` (tests/xdist_workers.py). The exit status is pytest's: non-zero when any
test fails, and when no test was collected.

    python scripts/test_suite.py [--alongside COMMAND] [pytest arguments]

``--alongside COMMAND`` runs a shell command (make test's lint and client checks) at the same
time as the suite: the suite leaves the cores idle while it waits on servers, workers and
browsers, and the checks take about half a minute on their own. The command's output is
printed as one block when it ends, and the exit status is non-zero when either fails.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKERS = min((os.cpu_count() or 2) + 1, 4)


def command(args: list[str], workers: int) -> list[str]:
    """The pytest command line: ``-p tests.xdist_workers`` before anything loads the settings,
    modules kept whole (``--dist loadfile``) and handed out in the order collected."""
    return [sys.executable, "-m", "pytest", "-p", "tests.xdist_workers", "-n", str(workers),
            "--dist", "loadfile", "--no-loadscope-reorder", *args]


class Alongside(threading.Thread):
    """A shell command run beside the suite, its output kept in a file and printed in one
    block when it ends (so that it does not break the lines of pytest's progress)."""

    def __init__(self, shell_command: str) -> None:
        super().__init__(daemon=True)
        self.shell_command = shell_command
        self.returncode: int | None = None

    def run(self) -> None:
        started = time.monotonic()
        with tempfile.TemporaryFile("w+") as output:
            self.returncode = subprocess.run(self.shell_command, shell=True, cwd=ROOT,
                                             stdout=output, stderr=subprocess.STDOUT,
                                             check=False).returncode
            output.seek(0)
            text = output.read()
        verdict = "passed" if self.returncode == 0 else f"FAILED (exit {self.returncode})"
        sys.stdout.write(f"\n--- {self.shell_command}: {verdict} in "
                         f"{time.monotonic() - started:.0f} s\n{text}---\n")
        sys.stdout.flush()


def split_alongside(args: list[str]) -> tuple[str | None, list[str]]:
    """``--alongside COMMAND`` taken out of the arguments; the rest are pytest's."""
    if "--alongside" not in args:
        return None, args
    at = args.index("--alongside")
    if at + 1 >= len(args):
        raise SystemExit("--alongside needs a command")
    return args[at + 1], args[:at] + args[at + 2:]


def main(args: list[str]) -> int:
    workers = int(os.environ.get("TEST_WORKERS") or WORKERS)
    shell_command, pytest_args = split_alongside(args)
    checks = Alongside(shell_command) if shell_command else None
    if checks:
        checks.start()
    status = subprocess.run(command(pytest_args, workers), cwd=ROOT, check=False).returncode
    if checks:
        checks.join()
        if checks.returncode != 0:
            return checks.returncode or 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
