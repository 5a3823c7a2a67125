"""The tasks a benchmark leaves behind: its moves queue follow-up tasks (notifications, bot
moves) that no worker of the benchmark runs. They are purged when the benchmark ends, so a
worker started later on the same broker never plays them."""

from __future__ import annotations

from django.conf import settings


def purge_task_queues() -> int:
    """Drop every task waiting in the broker's queues; the number dropped (0 without Redis)."""
    if not settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
        return 0
    from config.celery_app import app

    return int(app.control.purge() or 0)
