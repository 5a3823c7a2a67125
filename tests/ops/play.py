"""Playing matches to the end through the services, with a worker in the test's own thread.

``scheduling.send`` is where the services hand work to Celery after commit; ``TaskQueue``
stands in for the broker there, and ``drain`` runs each queued task in order, outside any
transaction, as a worker would (eager Celery would run each bot move inside the commit of the
one before it, nesting a whole match on the stack)."""

from __future__ import annotations

import random
from collections import deque
from typing import Any

from celery import current_app

from accounts.models import User
from games.catalog import get_engine
from games.models import Match
from games.services import match_move_submit


class TaskQueue:
    def __init__(self) -> None:
        self.tasks: deque[tuple[str, tuple[Any, ...]]] = deque()
        self.ran = 0

    def send(self, name: str, args: tuple[Any, ...], countdown: float | None = None,
             queue: str | None = None) -> None:
        self.tasks.append((name, args))

    def drain(self, limit: int = 20_000) -> None:
        while self.tasks:
            name, args = self.tasks.popleft()
            current_app.tasks[name](*args)
            self.ran += 1
            assert self.ran < limit, "the queue never runs dry"


def human_move(match: Match, rng: random.Random) -> bool:
    """Play one random legal move for a person who must act in ``match``; whether one was
    played."""
    match.refresh_from_db()
    if match.status != Match.Status.ACTIVE:
        return False
    engine = get_engine(match.game)
    state = engine.load(match.state)
    for seat in match.seats.select_related("user").order_by("index"):
        if seat.index in match.actors and seat.user is not None and not seat.user.is_bot \
                and seat.forfeited_at is None:
            moves = list(engine.legal_moves(state, seat.index))
            move = engine.dump_move(rng.choice(moves))
            match_move_submit(user=User.objects.get(pk=seat.user_id), match_id=match.id,
                              move=move, expected_version=match.version)
            return True
    return False


def play_out(queue: TaskQueue, matches: list[Match], *, rng: random.Random,
             max_human_moves: int | None = None) -> None:
    """Run the queued work and the people's random moves until no match can go on (or each
    person has made ``max_human_moves`` moves in the match)."""
    made = {match.id: 0 for match in matches}
    while True:
        queue.drain()
        progressed = False
        for match in matches:
            if max_human_moves is not None and made[match.id] >= max_human_moves:
                continue
            if human_move(match, rng):
                made[match.id] += 1
                progressed = True
        if not progressed and not queue.tasks:
            return
