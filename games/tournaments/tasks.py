"""The tournament tasks: thin, ids in, one service call each, safe to run twice."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from games.tournaments.services.due import tournament_advance, tournaments_sweep
from games.tournaments.services.results import TOURNAMENT_ADVANCE

TOURNAMENTS_SWEEP = "games.tournaments_sweep"


@shared_task(name=TOURNAMENT_ADVANCE, acks_late=True, reject_on_worker_lost=True,
             autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def tournament_advance_task(tournament_id: str) -> str:
    return tournament_advance(tournament_id=tournament_id)


@shared_task(name=TOURNAMENTS_SWEEP, acks_late=True, reject_on_worker_lost=True,
             autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def tournaments_sweep_task() -> dict[str, int]:
    return tournaments_sweep()
