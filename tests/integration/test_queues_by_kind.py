"""Queues by kind: a flood of bot work on the bots' queue does not delay a Nimalia round's
scoring, which travels on the steps' queue to a worker of its own.

Two worker processes, as the compose file splits them (``worker``: bots, ``worker-steps``:
steps), one pool process each. Twenty matches of level-3 bots against each other keep the bots'
queue deep (each of their moves is a search of up to two seconds) while two people play a round
of Nimalia over HTTP: the round's scoring is recorded within SCORING_BOUND seconds of the last
placement, while bot moves still wait in their queue.
"""

from __future__ import annotations

import pytest
import redis

from games.models import Match, Move
from games.services import SeatSpec, bot_accounts_ensure, match_create
from tests.factories import UserFactory
from tests.integration.conftest import Worker, queue_env, wait_until
from tests.integration.http import register

pytestmark = pytest.mark.integration

FLOOD_MATCHES = 20
# The longest a round's scoring may take after its last placement, bot flood or not: the steps'
# worker takes the task at once (one round trip to Redis) and scores in milliseconds; two
# seconds leave room for a loaded machine. Behind the flood on one queue it would wait for
# every bot move queued before it (twenty searches of up to two seconds each).
SCORING_BOUND = 2.0


def _placement(legal: dict) -> dict:
    row, col = legal["anchors"][0]
    return {"card": legal["cards"][0], "row": row, "col": col, "rotation": 0}


def test_a_flood_of_bot_moves_does_not_delay_a_rounds_scoring(live_server, celery_queue,
                                                                 server_database, settings):
    settings.MAX_ACTIVE_BOT_MATCHES = 0
    names = queue_env(celery_queue)
    bots_queue = f"{names['CELERY_QUEUE_PREFIX']}bots"
    steps_queue = f"{names['CELERY_QUEUE_PREFIX']}steps"
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    bot_accounts_ensure()
    bots = Worker(celery_queue, server_database, concurrency=1, queues=bots_queue)
    steps = Worker(celery_queue, server_database, concurrency=1, queues=steps_queue)
    try:
        bots.start()
        steps.start()
        for _ in range(FLOOD_MATCHES):
            match_create(user=UserFactory(), game="nibble", config={}, rated=False,
                         seats=[SeatSpec("bot", level=3), SeatSpec("bot", level=3)])
        wait_until(lambda: broker.llen(bots_queue) >= FLOOD_MATCHES // 2, timeout=60,
                   message="the bot moves did not queue up")

        players = [register(live_server.url, name) for name in ("flo", "gus")]
        status, created = players[0].post("/api/matches", {
            "game": "nimalia", "config": {"objectives": "first_game"}, "rated": False,
            "seats": [{"kind": "me"}, {"kind": "user", "username": "gus"}]})
        assert status == 201, created
        match_id = created["id"]
        assert players[1].post(f"/api/matches/{match_id}/join")[0] == 200

        # The bot moves waiting when the round's last placement was answered (read after every
        # placement: the round may be scored before the loop looks again).
        waiting_bot_moves = None
        while not Move.objects.filter(match_id=match_id, kind=Move.Kind.SYSTEM).exists():
            detail = players[0].get(f"/api/matches/{match_id}")[1]
            if not detail["to_act"]:
                wait_until(lambda: Move.objects.filter(match_id=match_id,
                                                       kind=Move.Kind.SYSTEM).exists(),
                           timeout=60, message="the round was not scored")
                break
            for seat in detail["to_act"]:
                legal = players[seat].get(f"/api/matches/{match_id}")[1]["legal_moves"]
                if legal is None or legal["undo"]:
                    continue
                status, body = players[seat].post(f"/api/matches/{match_id}/moves",
                                                  {"move": _placement(legal)})
                assert status == 201, body
                waiting_bot_moves = broker.llen(bots_queue)

        # The round's scoring and the placement before it (a player's loop may already have
        # placed in the next round).
        first_scored = Move.objects.filter(match_id=match_id, kind=Move.Kind.SYSTEM).order_by(
            "seq").values_list("seq", flat=True)[0]
        scored, placed = (Move.objects.filter(match_id=match_id, seq__lte=first_scored)
                          .order_by("-seq").values_list("created_at", "kind")[:2])
        assert scored[1] == Move.Kind.SYSTEM and placed[1] == Move.Kind.MOVE
        delay = (scored[0] - placed[0]).total_seconds()
        print(f"\nthe round was scored {delay:.3f}s after its last placement, with "
              f"{waiting_bot_moves} bot moves waiting on their queue")
        assert waiting_bot_moves, "the bots' queue was empty: no flood was shown"
        assert delay <= SCORING_BOUND
        assert Match.objects.filter(game="nibble", moves__user__is_bot=True).exists()
    finally:
        bots.stop()
        steps.stop()
        broker.delete(bots_queue, steps_queue)
