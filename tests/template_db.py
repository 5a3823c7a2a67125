"""The test databases of an xdist run made from one migrated template: the first process to
need a database migrates ``test_<name>_template`` (under a lock, named by the run's id, that the
others wait on), and every process's ``test_<name>_gw<n>`` is created as a copy of it
(PostgreSQL's ``CREATE DATABASE ... TEMPLATE``, which Django's ``TEST["TEMPLATE"]`` asks for),
so the migrations run once a run rather than once a process: about 4 s of CPU each, and the
processes start at the same time. Django's migrate then finds nothing to do on the copy.

Only when the run makes its databases afresh (``--create-db``, as CI does); a run that reuses
them (``--reuse-db``) keeps pytest-django's usual way. The process that started the workers drops
the template at the run's end (tests/xdist_run.py)."""

from __future__ import annotations

import fcntl
import tempfile
from pathlib import Path

from django.db import connection

SUFFIX = "_template"


def _marker(run: str) -> Path:
    return Path(tempfile.gettempdir()) / f"boardpost-template-{run}"


def template_name(test_name: str, worker: str) -> str:
    """``test_<name>_template`` for a worker's ``test_<name>_<worker>``."""
    return test_name.removesuffix(f"_{worker}") + SUFFIX


def _migrated(name: str) -> None:
    """``name`` made afresh and migrated, as Django makes a test database; the connection's
    settings left as they were."""
    settings_dict = connection.settings_dict
    kept_name, kept_test = settings_dict["NAME"], settings_dict["TEST"]
    settings_dict["TEST"] = {**kept_test, "NAME": name, "TEMPLATE": None}
    try:
        connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    finally:
        connection.close()  # a template takes no copies while someone is connected to it
        settings_dict["NAME"], settings_dict["TEST"] = kept_name, kept_test


def copies_from_template(run: str, worker: str) -> None:
    """This process's test database to be a copy of the run's template, which the first
    process to get here makes."""
    name = template_name(connection.settings_dict["TEST"]["NAME"], worker)
    marker = _marker(run)
    with marker.with_suffix(".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not marker.exists():
            _migrated(name)
            marker.write_text(name)
    connection.settings_dict["TEST"]["TEMPLATE"] = name


def template_dropped(run: str) -> None:
    """At the run's end, in the process that started it: the template, if one was made."""
    marker = _marker(run)
    if marker.exists():
        import psycopg

        params = {**connection.get_connection_params(), "dbname": "postgres"}
        with psycopg.connect(**params, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{marker.read_text()}" WITH (FORCE)')
        marker.unlink(missing_ok=True)
    marker.with_suffix(".lock").unlink(missing_ok=True)
