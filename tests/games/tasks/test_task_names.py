"""Every task the services enqueue by name is registered under that name, runs the service
of the same name, and keeps the delivery guarantees: acknowledged late, handed out again when
its worker dies, retried when the database hiccups."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import OperationalError

from config.celery_app import app
from games import services, tasks
from games.lifecycle.export import export_build
from games.lifecycle.recovery import password_reset_send
from games.lifecycle.sweep import account_work_sweep
from games.services import scheduling

SERVICES = {
    scheduling.MATCH_BOT_MOVE_PLAY: services.match_bot_move_play,
    scheduling.MATCH_BOT_RACE_TICK: services.match_bot_race_tick,
    scheduling.MATCH_SYSTEM_STEP_RUN: services.match_system_step_run,
    scheduling.DEADLINES_SWEEP: services.deadlines_sweep,
    scheduling.MATCH_RATE: services.match_rate,
    scheduling.DUE_WORK_SWEEP: services.due_work_sweep,
    scheduling.VACATIONS_SWEEP: services.vacations_sweep,
    scheduling.EXPORT_BUILD: export_build,
    scheduling.PASSWORD_RESET_SEND: password_reset_send,
    scheduling.ACCOUNT_WORK_SWEEP: account_work_sweep,
}


@pytest.mark.parametrize("name", scheduling.TASK_NAMES)
def test_each_scheduled_name_is_a_task_named_after_its_service(name: str) -> None:
    task = app.tasks[name]
    service = SERVICES[name]
    assert name == f"games.{service.__name__}"
    assert getattr(tasks, f"{service.__name__}_task").name == name
    assert task.acks_late and task.reject_on_worker_lost
    assert OperationalError in task.autoretry_for and task.max_retries == 5


def test_the_beat_schedule_names_registered_tasks() -> None:
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert entry["task"] in app.tasks
    scheduled = {e["task"] for e in settings.CELERY_BEAT_SCHEDULE.values()}
    assert scheduling.DEADLINES_SWEEP in scheduled
    assert scheduling.DUE_WORK_SWEEP in scheduled
    assert scheduling.VACATIONS_SWEEP in scheduled
