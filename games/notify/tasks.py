"""The notification tasks: thin, ids in, one service call, safe to run twice (the delivery
rows make a repeat send nothing again)."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import OperationalError

from games.notify.delivery import deliver
from games.notify.digest import digest_send
from games.notify.sending import DeliveryDeferred
from games.notify.sweeps import sweep
from games.services import scheduling as names

# Retries with exponential backoff (about 2 s, 4 s, ... capped at 10 minutes, with jitter):
# a push service's 429/5xx, an SMTP server that is away, a database hiccup. The last try gives
# up what still fails (recorded "failed").
MAX_RETRIES = 8
RETRY_OPTIONS: dict[str, Any] = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": (DeliveryDeferred, OperationalError),
    "retry_backoff": 2,
    "retry_backoff_max": 600,
    "retry_jitter": True,
    "max_retries": MAX_RETRIES,
}


@shared_task(name=names.NOTIFY_DELIVER, bind=True, **RETRY_OPTIONS)
def notify_deliver_task(self: Any, event_ids: list[int]) -> dict[str, int]:
    return deliver(event_ids, final=self.request.retries >= MAX_RETRIES)


@shared_task(name=names.NOTIFY_DIGEST_SEND, acks_late=True, reject_on_worker_lost=True,
             autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def notify_digest_send_task() -> dict[str, int]:
    return digest_send()


@shared_task(name=names.NOTIFY_SWEEP, acks_late=True, reject_on_worker_lost=True,
             autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def notify_sweep_task() -> dict[str, int]:
    return sweep()
