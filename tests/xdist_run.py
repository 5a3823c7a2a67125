"""The files an xdist run shares between its processes, named by the run's id and removed at
its end: the static files its browser tests collect once for every worker (STATIC_ROOT in
config.settings.test, ``boardpost-static-<run id>`` in the temporary directory), and the
template its test databases are copied from (tests/template_db.py). The root conftest calls
these from ``pytest_configure`` and ``pytest_unconfigure``."""

from __future__ import annotations

import shutil
import tempfile
import uuid
from pathlib import Path


def run_id_chosen(config) -> None:
    """In the process that starts the workers, fix the run's id (xdist's ``--testrunuid``) now
    rather than at the session's start, so that the end of the run knows what to remove."""
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return
    if getattr(config.option, "testrunuid", None) is None:
        config.option.testrunuid = uuid.uuid4().hex


def run_files_removed(config) -> None:
    """At the end of an xdist run, in the process that started it, what its workers shared."""
    run = None if hasattr(config, "workerinput") else getattr(config.option, "testrunuid", None)
    if run:
        root = Path(tempfile.gettempdir()) / f"boardpost-static-{run}"
        shutil.rmtree(root, ignore_errors=True)
        root.with_name(f"{root.name}.lock").unlink(missing_ok=True)
        from tests.template_db import template_dropped

        template_dropped(run)
