"""Thin Celery tasks: ids and ints in, one service call, safe to run twice.

Each task carries the match version it was scheduled for; the service checks it under the row
lock, so a repeated or late task finds the match moved on and does nothing.
"""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError, transaction

TASK_OPTIONS = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,
    "max_retries": 5,
}


@shared_task(name="games.run_system_step", **TASK_OPTIONS)
def run_system_step(match_id: str, version: int) -> bool:
    from games.services import match_system_step_run

    return match_system_step_run(match_id=match_id, expected_version=version)


@shared_task(name="games.play_bot_turn", **TASK_OPTIONS)
def play_bot_turn(match_id: str, version: int, seat: int) -> bool:
    from games.services.bots import match_bot_move_play

    return match_bot_move_play(match_id=match_id, expected_version=version, seat=seat)


@shared_task(name="games.bot_race_tick", **TASK_OPTIONS)
def bot_race_tick(match_id: str, seat: int, ticket: int) -> bool:
    from games.services.bots import match_bot_race_tick

    return match_bot_race_tick(match_id=match_id, seat=seat, ticket=ticket)


def schedule_race_tick(match_id: str, seat: int, ticket: int, level: int) -> None:
    """The bot's next real-time action, after its level's reaction time."""
    from games.kit.bots import REACTION_SECONDS

    bot_race_tick.apply_async((match_id, seat, ticket), countdown=REACTION_SECONDS[level])


@shared_task(name="games.sweep_deadlines", **TASK_OPTIONS)
def sweep_deadlines() -> dict[str, int]:
    from games.services.deadlines import deadlines_sweep

    return deadlines_sweep()


@shared_task(name="accounts.rate_match", **TASK_OPTIONS)
def rate_match(match_id: str) -> bool:
    from accounts.services import match_rate

    return match_rate(match_id=match_id)


def schedule_rating(match_id: str) -> None:
    transaction.on_commit(lambda: rate_match.delay(match_id))
