"""Run a benchmark command and report the CPU time the servers it drives used, per kind.

    python scripts/cpu_of.py --process gunicorn=config.wsgi --process worker=celery \\
        --database boardpost_bench -- python manage.py bench_api --clients 16

Every ``--process NAME=TEXT`` counts the processes of this machine whose command line contains
TEXT (sampled every 0.2 s, so processes that start and end during the run count too, up to
their last sample); ``--database`` counts the PostgreSQL backends connected to that database
(the server must run on this machine, and /proc must show its processes). The command's own
processes are left out unless a pattern matches them. Printed after the command's output: CPU
seconds per kind, the wall time, and the load average before and after, so a figure per core
is "work done / CPU seconds", whatever else the machine was running.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: str) -> float | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICKS


def command_line(pid: str) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(
            errors="replace")
    except OSError:
        return ""


def backend_pids(database: str) -> set[str]:
    """PostgreSQL backends serving ``database``: their process titles name it."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            line = command_line(entry.name)
            if line.startswith("postgres: ") and f" {database} " in line:
                found.add(entry.name)
    return found


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--process", action="append", default=[], metavar="NAME=TEXT")
    parser.add_argument("--database", default=None)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    command = options.command[1:] if options.command[:1] == ["--"] else options.command
    patterns = dict(item.split("=", 1) for item in options.process)
    seen: dict[tuple[str, str], float] = {}  # (kind, pid) -> CPU seconds at its last sample
    baseline: dict[tuple[str, str], float] = {}
    me = str(os.getpid())
    done = threading.Event()

    def sample() -> None:
        pids = [entry.name for entry in Path("/proc").iterdir() if entry.name.isdigit()]
        kinds: dict[str, str] = {}
        for pid in pids:
            if pid == me:
                continue
            line = command_line(pid)
            for name, text in patterns.items():
                if text in line and "cpu_of.py" not in line:
                    kinds[pid] = name
                    break
        if options.database:
            for pid in backend_pids(options.database):
                kinds[pid] = "postgresql"
        for pid, kind in kinds.items():
            value = cpu_seconds(pid)
            if value is not None:
                baseline.setdefault((kind, pid), value if not started else 0.0)
                seen[(kind, pid)] = value

    def sampler() -> None:
        while not done.is_set():
            sample()
            time.sleep(0.2)

    started = False
    sample()  # processes already running count from here on
    started = True
    load_before, wall = load(), time.monotonic()
    thread = threading.Thread(target=sampler, daemon=True)
    thread.start()
    code = subprocess.call(command)
    done.set()
    thread.join()
    sample()
    wall = time.monotonic() - wall
    totals: dict[str, float] = {}
    for (kind, pid), value in seen.items():
        totals[kind] = totals.get(kind, 0.0) + value - baseline[(kind, pid)]
    print(f"\ncpu_of: wall {wall:.1f} s; load before {load_before}, after {load()}")
    for kind, seconds in sorted(totals.items()):
        print(f"cpu_of: {kind}: {seconds:.1f} CPU seconds")
    return code


if __name__ == "__main__":
    sys.exit(main())
