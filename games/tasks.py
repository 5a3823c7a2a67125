"""Thin Celery tasks: ids and ints in, one service call, safe to run twice.

Each task is named "games." and the name of the service it calls (the names live in
``games.services.scheduling``, which enqueues them by name after commit). Dependencies run one
way: the tasks import the services, the services never import the tasks.

Each task carries the match version it was scheduled for; the service checks it under the row
lock, so a repeated or late task finds the match moved on and does nothing.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import OperationalError

from games.lifecycle.erasure import guests_idle_delete
from games.lifecycle.export import export_build
from games.lifecycle.recovery import password_reset_send
from games.lifecycle.sweep import account_work_sweep
from games.services import (
    deadlines_sweep,
    due_work_sweep,
    match_bot_move_play,
    match_bot_race_tick,
    match_rate,
    match_system_step_run,
    vacations_sweep,
)
from games.services import scheduling as names

TASK_OPTIONS: dict[str, Any] = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,
    "max_retries": 5,
}


@shared_task(name=names.MATCH_SYSTEM_STEP_RUN, **TASK_OPTIONS)
def match_system_step_run_task(match_id: str, version: int) -> bool:
    return match_system_step_run(match_id=match_id, expected_version=version)


@shared_task(name=names.MATCH_BOT_MOVE_PLAY, **TASK_OPTIONS)
def match_bot_move_play_task(match_id: str, version: int, seat: int) -> bool:
    return match_bot_move_play(match_id=match_id, expected_version=version, seat=seat)


@shared_task(name=names.MATCH_BOT_RACE_TICK, **TASK_OPTIONS)
def match_bot_race_tick_task(match_id: str, seat: int, ticket: int) -> bool:
    return match_bot_race_tick(match_id=match_id, seat=seat, ticket=ticket)


@shared_task(name=names.DEADLINES_SWEEP, **TASK_OPTIONS)
def deadlines_sweep_task() -> dict[str, int]:
    return deadlines_sweep()


@shared_task(name=names.MATCH_RATE, **TASK_OPTIONS)
def match_rate_task(match_id: str) -> bool:
    return match_rate(match_id=match_id)


@shared_task(name=names.DUE_WORK_SWEEP, **TASK_OPTIONS)
def due_work_sweep_task() -> dict[str, int]:
    return due_work_sweep()


@shared_task(name=names.GUESTS_IDLE_DELETE, **TASK_OPTIONS)
def guests_idle_delete_task() -> dict[str, int]:
    return guests_idle_delete()


@shared_task(name=names.VACATIONS_SWEEP, **TASK_OPTIONS)
def vacations_sweep_task() -> dict[str, int]:
    return vacations_sweep()


@shared_task(name=names.EXPORT_BUILD, **TASK_OPTIONS)
def export_build_task(export_id: str) -> bool:
    return export_build(export_id=export_id)


@shared_task(name=names.PASSWORD_RESET_SEND, **TASK_OPTIONS)
def password_reset_send_task(request_id: int) -> int:
    return password_reset_send(request_id=request_id)


@shared_task(name=names.ACCOUNT_WORK_SWEEP, **TASK_OPTIONS)
def account_work_sweep_task() -> dict[str, int]:
    return account_work_sweep()
