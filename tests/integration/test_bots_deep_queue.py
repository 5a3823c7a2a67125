"""Level-4 bot moves travel on the deep bots' queue: a worker that consumes only that queue
plays a level-4 bot's move, so the default queue's worker never carries its thinking."""

from __future__ import annotations

import pytest

from games.models import Match, Move
from games.services import SeatSpec, bot_accounts_ensure, match_create
from tests.factories import UserFactory
from tests.integration.conftest import Worker, wait_until

pytestmark = pytest.mark.integration


def test_a_level_4_move_is_played_by_the_deep_queues_worker(celery_queue, server_database):
    bot_accounts_ensure()
    worker = Worker(celery_queue, server_database, concurrency=1,
                    queues=f"{celery_queue}-deep")
    worker.start()
    try:
        match = match_create(user=UserFactory(), game="nibble", config={"first_seat": 1},
                             seats=[SeatSpec("me"), SeatSpec("bot", level=4)])
        wait_until(lambda: Match.objects.get(id=match.id).version >= 1, timeout=60,
                   message="the level-4 bot did not move")
        assert Move.objects.filter(match=match, user__is_bot=True, kind=Move.Kind.MOVE).exists()
        assert "games.match_bot_move_play" in worker.output()
    finally:
        worker.stop()
