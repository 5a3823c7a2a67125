"""The feeds of the players woken together, read in one query (feeds.user_event_feeds) and in
one trip (fanout.feed_answer): each answer is exactly the feed read alone would give."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.live import fanout
from games.models import Match, UserEvent
from games.selectors import feeds
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def players() -> list[Any]:
    """Three players with feeds of 0, 7 and 30 entries, some about a match, some not; and a
    fourth player's entries between theirs."""
    users = [UserFactory() for _ in range(4)]
    match = Match.objects.create(game="nimble", num_players=2, created_by=users[0], seed="s")
    for n in range(30):
        for index, count in ((1, 7), (2, 30), (3, 30)):
            if n < count:
                UserEvent.objects.create(
                    user=users[index], type=UserEvent.Type.YOUR_TURN,
                    match=match if n % 3 else None,
                    data={"n": n, "game": "nibble"} if n % 3 == 0 else {"n": n})
    return users[:3]


def _ids(players: list[Any]) -> list[int]:
    return sorted(UserEvent.objects.filter(user__in=players).values_list("id", flat=True))


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_each_ask_is_answered_as_if_read_alone(players, data):
    ids = _ids(players)
    cursors = st.sampled_from([0, *ids, ids[-1] + 1000])
    asked = data.draw(st.lists(
        st.tuples(st.sampled_from([user.id for user in players]), cursors,
                  st.integers(min_value=1, max_value=feeds.FEED_MAX_LIMIT)),
        min_size=1, max_size=8))
    with CaptureQueriesContext(connection) as queries:
        together = feeds.user_event_feeds(asked)
    assert len(queries) == 1
    by_id = {user.id: user for user in players}
    alone = [feeds.user_event_feed(user=by_id[user_id], after=after, limit=limit)
             for user_id, after, limit in asked]
    assert together == alone


def test_elsewhere_than_postgresql_each_ask_is_read_alone(players, monkeypatch):
    """The embedded default (make run) is SQLite, which has no unnest: one query per ask."""
    monkeypatch.setattr(connection, "vendor", "sqlite")
    first = _ids([players[2]])[4]
    asked = [(players[2].id, first, 3), (players[0].id, 0, 50), (players[2].id, 0, 100)]
    with CaptureQueriesContext(connection) as queries:
        together = feeds.user_event_feeds(asked)
    assert len(queries) == 3
    assert together == [feeds.user_event_feed(user=user, after=after, limit=limit)
                        for user, after, limit in ((players[2], first, 3), (players[0], 0, 50),
                                                   (players[2], 0, 100))]
    assert [len(feed["events"]) for feed in together] == [3, 0, 30]


def test_no_ask_reads_nothing():
    with CaptureQueriesContext(connection) as queries:
        assert feeds.user_event_feeds([]) == []
    assert not queries


@pytest.mark.django_db(transaction=True)
def test_feeds_woken_together_are_read_in_one_trip(players, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    trips: list[Any] = []

    async def read(fn: Any, *args: Any) -> Any:
        trips.append(args)
        await asyncio.sleep(0)
        return fn(*args)

    first = _ids([players[2]])[4]

    async def wake() -> list[fanout.Shared]:
        generation = object()
        asks = [(user, after) for user in players for after in (0, first)]
        asks.append((players[1], 0))  # a second client of a player, same question: joined
        return await asyncio.gather(*[
            fanout.feed_answer(read, user, generation, after=after, limit=5,
                               render=orjson.dumps) for user, after in asks])

    answers = asyncio.run(wake())
    assert len(trips) == 1 and len(trips[0][0]) == 6  # one trip, each question asked once
    assert answers[2] is answers[6]
    for answer, (user, after) in zip(answers, [(u, a) for u in players for a in (0, first)],
                                     strict=False):
        expected = feeds.user_event_feed(user=user, after=after, limit=5)
        assert orjson.loads(answer.body) == orjson.loads(orjson.dumps(expected))
        assert answer.ready == bool(expected["events"])
        assert answer.cursor == expected["next_after"]
