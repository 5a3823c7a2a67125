"""The Celery application; tasks are discovered in the Django apps.

Signals wired here: the request id travels from the request that queued a task into the task's
log lines (``config.request_id``), task counts and run times are measured (``config.metrics``),
and workers log through Django's ``LOGGING`` (JSON lines by default, ``config.logging``) instead
of Celery's own format.
"""

import logging.config
import os
from typing import Any

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("boardpost")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


# The receivers import their modules when first called: this module is imported by
# config/__init__.py, before Django's settings are ready.


@signals.setup_logging.connect(weak=False)
def _logging_from_django(**_: Any) -> None:
    from django.conf import settings

    logging.config.dictConfig(settings.LOGGING)


@signals.before_task_publish.connect(weak=False)
def _publishing(**kwargs: Any) -> None:
    from config import request_id

    request_id.publish_request_id(**kwargs)


@signals.task_prerun.connect(weak=False)
def _task_starting(**kwargs: Any) -> None:
    from config import metrics, request_id

    request_id.task_context_set(**kwargs)
    metrics.task_started(**kwargs)


@signals.task_postrun.connect(weak=False)
def _task_finished(**kwargs: Any) -> None:
    from config import metrics, request_id

    metrics.task_finished(**kwargs)
    request_id.task_context_clear(**kwargs)


@signals.worker_init.connect(weak=False)
def _worker_starting(**kwargs: Any) -> None:
    from config import metrics

    metrics.worker_metrics_serve(**kwargs)


@signals.worker_process_shutdown.connect(weak=False)
def _pool_process_ending(pid: int | None = None, **_: Any) -> None:
    from config import metrics

    metrics.mark_process_dead(pid or os.getpid())
