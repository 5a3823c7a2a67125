"""A Celery app for the kill-a-worker test: the same tasks, but each system step first sleeps
SLOW_SYSTEM_STEP seconds, so the test can kill the worker while the task is in hand."""

import os
import time

from celery.signals import task_prerun

from config.celery_app import app

__all__ = ["app"]


@task_prerun.connect
def _pause_before_system_step(task=None, **kwargs) -> None:
    delay = float(os.environ.get("SLOW_SYSTEM_STEP", "0"))
    if delay and task is not None and task.name == "games.match_system_step_run":
        # Not a wait: this sleep is the slow task the test needs, holding the step (received,
        # not acknowledged, not yet run) until the test kills the worker. The test itself waits
        # for the worker's log to show the task before killing it.
        time.sleep(delay)
