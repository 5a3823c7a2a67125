"""Every task goes to the queue of its kind: bot moves, steps, ratings, notifications and sweeps
each have a queue (and workers) of their own; the deep bots' queue, named when a level-4 move
is sent, wins over the route; /metrics reads the depth of every one of them."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import override_settings

from config.celery_app import app
from games.metrics import QueueDepthCollector
from games.services import scheduling


def routed(name: str, **options: str) -> str:
    return app.amqp.router.route(dict(options), name)["queue"].name


def test_every_project_task_has_a_kind() -> None:
    project = {name for name in app.tasks if name.startswith("games.")}
    assert project == set(scheduling.KIND_OF_TASK)
    assert set(scheduling.KIND_OF_TASK.values()) == set(scheduling.QUEUE_KINDS)


@pytest.mark.parametrize(("name", "queue"), [
    (scheduling.MATCH_BOT_MOVE_PLAY, "bots"),
    (scheduling.MATCH_BOT_RACE_TICK, "bots"),
    (scheduling.MATCH_SYSTEM_STEP_RUN, "steps"),
    (scheduling.MATCH_RATE, "ratings"),
    (scheduling.NOTIFY_DELIVER, "notifications"),
    (scheduling.NOTIFY_DIGEST_SEND, "notifications"),
    (scheduling.DUE_WORK_SWEEP, "sweeps"),
    (scheduling.DEADLINES_SWEEP, "sweeps"),
    (scheduling.NOTIFY_SWEEP, "sweeps"),
])
def test_each_task_goes_to_the_queue_of_its_kind(name: str, queue: str) -> None:
    assert routed(name) == queue
    with override_settings(CELERY_QUEUE_PREFIX="site1."):
        assert routed(name) == f"site1.{queue}"


def test_a_queue_named_when_sending_wins_over_the_route() -> None:
    deep = scheduling.bot_queue(4)
    assert deep == settings.BOTS_DEEP_QUEUE
    assert routed(scheduling.MATCH_BOT_MOVE_PLAY, queue=deep) == deep
    assert scheduling.bot_queue(1) is None


def test_an_unrouted_task_takes_the_default_queue() -> None:
    assert routed("someone.elses_task") == settings.CELERY_TASK_DEFAULT_QUEUE


def test_a_worker_without_a_list_consumes_the_default_queue_and_every_kind() -> None:
    declared = [queue.name for queue in settings.CELERY_TASK_QUEUES]
    assert declared == [settings.CELERY_TASK_DEFAULT_QUEUE, *scheduling.kind_queues()]


def test_metrics_read_the_depth_of_every_queue() -> None:
    queues = QueueDepthCollector.queues()
    assert set(queues) >= {settings.CELERY_TASK_DEFAULT_QUEUE, settings.BOTS_DEEP_QUEUE,
                           "bots", "steps", "ratings", "notifications", "sweeps"}
