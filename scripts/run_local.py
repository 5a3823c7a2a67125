"""`make run`: migrate, create the bot accounts, then run the API server, a Celery worker for
each kind of task (bot moves, steps, ratings, notifications, sweeps), one for the level-4 bots'
queue and Celery beat together on the embedded defaults (SQLite and a filesystem broker under
var/).

Ctrl-C stops them all. Set DATABASE_URL / CELERY_BROKER_URL to use PostgreSQL and Redis.

Metrics: the server and the workers share one prometheus-client multiprocess directory,
var/metrics (or PROMETHEUS_MULTIPROC_DIR when set), emptied at start, so the API's /metrics
also answers the workers' task counts and run times and the bots' think time.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


# Every waiting live-update client (long-poll or stream) holds a socket of the server's.
OPEN_FILES = 65536


def raise_open_files(wanted: int = OPEN_FILES) -> int:
    """Raise this process's soft open-file limit (the server inherits it) towards ``wanted``,
    up to the hard limit; the limit now in force."""
    try:
        import resource
    except ImportError:  # not on POSIX
        return 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft


def metrics_dir(env: dict[str, str]) -> Path:
    """Give every process started here one multiprocess directory (``PROMETHEUS_MULTIPROC_DIR``
    from ``env``, else var/metrics), created and emptied of a previous run's metric files
    (``*.db``), which would be added to this run's counts. Sets it in ``env``."""
    folder = Path(env.get("PROMETHEUS_MULTIPROC_DIR") or ROOT / "var" / "metrics")
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("*.db"):
        stale.unlink()
    env["PROMETHEUS_MULTIPROC_DIR"] = str(folder)
    return folder


# A worker per kind of task, as docker/compose.yaml runs them (games.services.scheduling): its
# node name, its queues (by kind; "default" is CELERY_TASK_DEFAULT_QUEUE) and its threads.
KIND_WORKERS = {
    "worker": ("bots", ("bots", "default"), 4),
    "worker-steps": ("steps", ("steps",), 2),
    "worker-ratings": ("ratings", ("ratings",), 1),
    "worker-notifications": ("notifications", ("notifications",), 2),
    "worker-sweeps": ("sweeps", ("sweeps",), 1),
}


def kind_queues(kinds: tuple[str, ...], env: dict[str, str]) -> str:
    """The ``-Q`` list of ``kinds``, named as the settings name them from ``env``."""
    prefix = env.get("CELERY_QUEUE_PREFIX", "")
    return ",".join(env.get("CELERY_TASK_DEFAULT_QUEUE", "celery") if kind == "default"
                    else f"{prefix}{kind}" for kind in kinds)


def commands(host: str, port: int, env: dict[str, str]) -> dict[str, list[str]]:
    """What runs: a Celery worker for each kind of task, the level-4 bots' worker, beat and
    the API server."""
    celery = [PYTHON, "-m", "celery", "-A", "config.celery_app"]
    workers = {name: [*celery, "worker", "--loglevel=INFO", "--pool=threads",
                      f"--concurrency={threads}", "-Q", kind_queues(kinds, env), "-n",
                      f"{node}@%h"]
               for name, (node, kinds, threads) in KIND_WORKERS.items()}
    return {
        **workers,
        # Level-4 bot moves (seconds of thinking each) on their own queue and process, so
        # they never hold up the quick bots.
        "worker-bots": [*celery, "worker", "--loglevel=INFO", "--pool=solo", "-Q",
                        env.get("BOTS_DEEP_QUEUE", "bots-deep"), "-n", "bots-deep@%h"],
        "beat": [*celery, "beat", "--loglevel=INFO",
                 f"--schedule={ROOT / 'var' / 'celerybeat-schedule'}"],
        "server": [PYTHON, "-m", "uvicorn", "config.asgi:application", "--host", host,
                   "--port", str(port), "--no-access-log"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args()

    env = {**os.environ, "DJANGO_SETTINGS_MODULE": os.environ.get(
        "DJANGO_SETTINGS_MODULE", "config.settings.local")}
    for folder in ("var/celery/queue", "var/celery/processed"):
        (ROOT / folder).mkdir(parents=True, exist_ok=True)

    open_files = raise_open_files()
    if open_files and open_files < 4096:
        print(f"note: the open-file limit is {open_files}; each waiting live-update client "
              "takes one (raise it with ulimit -n)", file=sys.stderr)
    manage = [PYTHON, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput"], check=True, cwd=ROOT, env=env)
    # Hashed, gzip- and Brotli-compressed static files, served as in production.
    subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], check=True, cwd=ROOT, env=env)
    subprocess.run([*manage, "seed_bots"], check=True, cwd=ROOT, env=env)
    # A Web Push key pair of this checkout's own, kept under var/ (config.settings.local).
    subprocess.run([*manage, "vapid_keys", "--keep", str(ROOT / "var" / "vapid.json")],
                   check=True, cwd=ROOT, env=env)

    # After the commands above, whose processes' metrics are of no interest.
    metrics_dir(env)
    processes = [subprocess.Popen(argv, cwd=ROOT, env=env)
                 for argv in commands(args.host, args.port, env).values()]
    base = f"http://{args.host}:{args.port}"
    print(f"\nBoardpost is running.\n  API:      {base}/api/\n  API docs: {base}/api/docs\n"
          f"  Schema:   {base}/api/schema\n  Web:      {base}/\nPress Ctrl-C to stop.\n",
          flush=True)

    def stop(*_: object) -> None:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    try:
        while all(process.poll() is None for process in processes):
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        stop()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
