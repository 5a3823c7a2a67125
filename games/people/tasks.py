"""The chat's periodic task: thin, one service call, safe to run twice."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from games.people.sweeps import people_sweep

PEOPLE_SWEEP = "games.people_sweep"


@shared_task(name=PEOPLE_SWEEP, acks_late=True, reject_on_worker_lost=True,
             autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def people_sweep_task() -> dict[str, int]:
    return people_sweep()
