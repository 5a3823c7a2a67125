"""What the services leave for later: Celery tasks, enqueued by name once the change commits.

Dependencies run one way. ``games.tasks`` holds thin Celery tasks that import the services
and call one each; the services never import the tasks. Instead they enqueue a task by its
registered name through the Celery app. The names live here, one per service a task calls
("games." and the service's name), and ``games.tasks`` registers its tasks under them, so the
two cannot drift apart.

Everything is enqueued with ``transaction.on_commit``: a worker never sees a change before it
is committed, and a change that rolls back leaves nothing behind. A name the running process
has registered goes through its task (so an eager configuration runs it in-process); any other
is sent to the broker as is.

The message is never the only record of the work: the transition that made it due marked the
match in the database (``games.services.due``), and the due-work sweep queues it again if it
does not happen. So a broker that cannot take the message (down, unreachable, restarting) costs
a delay, never the change that was just committed: ``send`` logs the failure and returns.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import current_app
from celery.exceptions import Retry
from django.conf import settings
from django.db import transaction

from config.outages import Breaker
from games.kit.bots import DEEP_LEVELS, REACTION_SECONDS

MATCH_BOT_MOVE_PLAY = "games.match_bot_move_play"
MATCH_BOT_RACE_TICK = "games.match_bot_race_tick"
MATCH_SYSTEM_STEP_RUN = "games.match_system_step_run"
MATCH_RATE = "games.match_rate"
DEADLINES_SWEEP = "games.deadlines_sweep"
DUE_WORK_SWEEP = "games.due_work_sweep"
GUESTS_IDLE_DELETE = "games.guests_idle_delete"
VACATIONS_SWEEP = "games.vacations_sweep"
# Notifications (games.notify.tasks): push and mail for new feed entries; the daily digest.
NOTIFY_DELIVER = "games.notify_deliver"
NOTIFY_DIGEST_SEND = "games.notify_digest_send"
NOTIFY_SWEEP = "games.notify_sweep"
# The chat's periodic clean-up (games.people.tasks, which names it too), a tournament's next
# step (a round paired and started, its end recorded) and the tournaments' sweep
# (games.tournaments, which names them too).
PEOPLE_SWEEP = "games.people_sweep"
TOURNAMENT_ADVANCE = "games.tournament_advance"
TOURNAMENTS_SWEEP = "games.tournaments_sweep"

# The account's life (games.lifecycle): a data export's build, a password reset mail, and the
# sweep of what is due (deletions, builds and mails waiting too long, expired archives).
EXPORT_BUILD = "games.export_build"
PASSWORD_RESET_SEND = "games.password_reset_send"
ACCOUNT_WORK_SWEEP = "games.account_work_sweep"

# Every task goes to the queue of its kind, so that one kind of work never waits behind
# another: a flood of bot moves never delays a round's scoring that every player of the match
# waits for, and a slow mail server never holds up a rating. Each queue has workers of its own
# (docker/compose.yaml, scripts/run_local.py); a queue is named CELERY_QUEUE_PREFIX and its kind.
# The deep bot levels' moves go to BOTS_DEEP_QUEUE instead (``bot_queue``).
BOTS, STEPS, RATINGS, NOTIFICATIONS, SWEEPS = "bots", "steps", "ratings", "notifications", "sweeps"
QUEUE_KINDS = (BOTS, STEPS, RATINGS, NOTIFICATIONS, SWEEPS)
KIND_OF_TASK = {
    MATCH_BOT_MOVE_PLAY: BOTS,
    MATCH_BOT_RACE_TICK: BOTS,
    MATCH_SYSTEM_STEP_RUN: STEPS,
    TOURNAMENT_ADVANCE: STEPS,
    EXPORT_BUILD: STEPS,
    MATCH_RATE: RATINGS,
    NOTIFY_DELIVER: NOTIFICATIONS,
    NOTIFY_DIGEST_SEND: NOTIFICATIONS,
    PASSWORD_RESET_SEND: NOTIFICATIONS,
    DEADLINES_SWEEP: SWEEPS,
    DUE_WORK_SWEEP: SWEEPS,
    VACATIONS_SWEEP: SWEEPS,
    GUESTS_IDLE_DELETE: SWEEPS,
    NOTIFY_SWEEP: SWEEPS,
    PEOPLE_SWEEP: SWEEPS,
    TOURNAMENTS_SWEEP: SWEEPS,
    ACCOUNT_WORK_SWEEP: SWEEPS,
}


def queue_of_kind(kind: str) -> str:
    """The name of the queue of ``kind`` (one of QUEUE_KINDS)."""
    return f"{getattr(settings, 'CELERY_QUEUE_PREFIX', '')}{kind}"


def kind_queues() -> list[str]:
    """Every queue of a kind, in the order of QUEUE_KINDS."""
    return [queue_of_kind(kind) for kind in QUEUE_KINDS]


def route_task(name: str, args: Any, kwargs: Any, options: Any, task: Any = None,
               **_: Any) -> dict[str, str] | None:
    """Celery's router (``CELERY_TASK_ROUTES``): a task to the queue of its kind; a queue named
    when the task is sent (the deep bots') wins, as Celery merges the two."""
    kind = KIND_OF_TASK.get(name)
    return None if kind is None else {"queue": queue_of_kind(kind)}


TASK_NAMES = (MATCH_BOT_MOVE_PLAY, MATCH_BOT_RACE_TICK, MATCH_SYSTEM_STEP_RUN, MATCH_RATE,
              DEADLINES_SWEEP, DUE_WORK_SWEEP, VACATIONS_SWEEP, EXPORT_BUILD,
              PASSWORD_RESET_SEND, ACCOUNT_WORK_SWEEP)

logger = logging.getLogger(__name__)


def broker_breaker() -> Breaker:
    return Breaker("Celery broker", logger=logger,
                   fallback="leaving the work to the due-work sweep")


# A broker that is down or hangs costs one failed publish per REDIS_RETRY_SECONDS and process,
# not one per request: in between, the mark on the match row is all the work needs.
BROKER = broker_breaker()


def send(name: str, args: tuple[Any, ...], countdown: float | None = None,
         queue: str | None = None) -> None:
    """Enqueue the task called ``name`` now (``countdown``: seconds to wait before it runs).

    A failure to hand the message to the broker is logged (the task's name and its arguments:
    ids, versions, seats, tickets; never game state) and swallowed: the due-work sweep queues
    the work again. After a failure the process leaves the broker alone for a while (``BROKER``,
    a circuit breaker), so a hanging broker slows one request per interval, not every one.
    Run eagerly (tests, a development setup without a broker), the task runs here and its
    errors are its own: they propagate as a worker would report them. A task that asks to be
    retried (a database outage, a push service away) is not an error: run eagerly there is
    nobody to run it again later, so it is logged and left to the sweeps, and the request that
    queued it is answered as if a worker had it."""
    signature = current_app.signature(name, args=args)
    if queue is not None:
        signature.set(queue=queue)
    if current_app.conf.task_always_eager:
        try:
            signature.apply_async(countdown=countdown)
        except Retry as retry:
            logger.info("%s%r asked to be retried (%s); run eagerly, it is left to the sweeps",
                        name, args, retry.message or retry.exc)
        return
    if not BROKER.allow():
        logger.info("broker unavailable: left %s%r to the due-work sweep", name, args)
        return
    try:
        signature.apply_async(countdown=countdown)
    except Exception as exc:
        BROKER.failed(exc)
        logger.warning("could not enqueue %s%r (match %s); the due-work sweep will queue it "
                       "again", name, args, args[0] if args else "-", exc_info=True)
    else:
        BROKER.succeeded()


def _after_commit(name: str, args: tuple[Any, ...], countdown: float | None = None,
                  queue: str | None = None) -> None:
    # ``send`` is looked up when the callback runs, so a test can stand in for it.
    if queue is None:
        transaction.on_commit(lambda: send(name, args, countdown))
    else:
        transaction.on_commit(lambda: send(name, args, countdown, queue=queue))


def bot_queue(level: int | None) -> str | None:
    """The queue of a bot's moves: the deep levels' own (``BOTS_DEEP_QUEUE``, consumed by a
    worker of its own, so seconds of thinking never delay a quick bot or a round's scoring),
    else None, the default queue."""
    if level in DEEP_LEVELS:
        return str(getattr(settings, "BOTS_DEEP_QUEUE", "bots-deep"))
    return None


def bot_move_after_commit(*, match_id: str, version: int, seat: int,
                          level: int | None = None) -> None:
    """A turn bot's move for ``seat``, valid only while the match is at ``version``; a deep
    level's move goes to its own queue."""
    _after_commit(MATCH_BOT_MOVE_PLAY, (match_id, version, seat), queue=bot_queue(level))


def race_tick_after_commit(*, match_id: str, seat: int, ticket: int, level: int) -> None:
    """A real-time bot's next action, after its level's reaction time."""
    _after_commit(MATCH_BOT_RACE_TICK, (match_id, seat, ticket), REACTION_SECONDS[level],
                  queue=bot_queue(level))


def system_step_after_commit(*, match_id: str, version: int) -> None:
    """The engine's automatic work, valid only while the match is at ``version``."""
    _after_commit(MATCH_SYSTEM_STEP_RUN, (match_id, version))


def rating_after_commit(*, match_id: str) -> None:
    """The rating update of a finished, rated match."""
    _after_commit(MATCH_RATE, (match_id,))


def notify_after_commit(*, event_ids: list[int]) -> None:
    """Push and mail for these new feed entries (``games.notify``), where their players want
    them. A message that is lost (the broker down at commit) is made good by the notification
    sweep (``games.notify.sweeps.sweep``), which finds entries that were never delivered."""
    _after_commit(NOTIFY_DELIVER, (event_ids,))


def export_build_after_commit(*, export_id: str) -> None:
    """The build of a data export's archive (``games.lifecycle.export``)."""
    _after_commit(EXPORT_BUILD, (export_id,))


def password_reset_send_after_commit(*, request_id: int) -> None:
    """The password reset mails of one request (``games.lifecycle.recovery``)."""
    _after_commit(PASSWORD_RESET_SEND, (request_id,))
