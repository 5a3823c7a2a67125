"""The feeds asked for together (the players whose turn it now is, woken together) are read in
one query on PostgreSQL, each answer what the feed alone would answer."""

from __future__ import annotations

import pytest
from django.db import connection

from games.models import Match, UserEvent
from games.selectors import feeds
from tests.games.helpers import create_match

pytestmark = pytest.mark.django_db


def test_feeds_read_together_are_each_what_the_feed_alone_answers(
        client_for, alice, bob, carol, django_assert_num_queries):
    match_id = create_match(client_for(alice), game="nibble",
                            seats=[{"kind": "me"}, {"kind": "user", "username": "bob"}])["id"]
    match = Match.objects.get(id=match_id)
    for number in range(7):
        for user in (alice, bob):
            UserEvent.objects.create(user=user, type="your_turn", match=match,
                                     data={"version": number})
    UserEvent.objects.create(user=bob, type="rating_changed",
                             data={"game": "nimble", "before": 1500, "after": 1512})
    first = UserEvent.objects.filter(user=alice).order_by("id").values_list("id", flat=True)
    cursor = list(first)[2]
    asked = [(alice, 0, 3), (bob, 0, 100), (alice, cursor, 2), (carol, 0, 50),
             (alice, cursor + 1000, 50), (alice, 0, 100), (bob, 10**12, 5)]
    alone = [feeds.user_events_after(user=user, after=after, limit=limit)
             for user, after, limit in asked]
    queries = 1 if connection.features.supports_slicing_ordering_in_compound else len(asked)
    with django_assert_num_queries(queries):
        together = feeds.user_events_after_many(asked)
    assert together == alone
    everything = [UserEvent.objects.filter(user=user).count() for user in (alice, bob)]
    assert [len(events) for events in together] == [3, everything[1], 2, 0, 0, everything[0], 0]
    assert [event["id"] for event in together[2]] == list(first)[3:5]
    assert feeds.user_event_feeds(asked)[2]["next_after"] == together[2][-1]["id"]
    assert feeds.user_event_feeds(asked)[3] == {"events": [], "next_after": 0}
