"""Query-count guards: detail and lists cost a fixed number of queries, however many rows."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.games.helpers import create_match, first_nibble_take
from tests.games.matchplay import match_url, start_nibble_match, submit

pytestmark = pytest.mark.django_db

# Detail: the token (with its user), the match, its seats with their users.
DETAIL_QUERIES = 3
# Lists: the token, the matches, their seats, the seats' users.
LIST_QUERIES = 4
# A move: the match locked and read with its seats and players (one query), one statement that
# writes the move row, the snapshot and version and the opponent's "your turn" feed entry
# together, and the savepoint around them (opened and released). The token is remembered from
# the request before.
MOVE_QUERIES = 4
# With an Idempotency-Key: the key looked up under the lock, the answer kept for retries, and
# the savepoint of the transaction that holds the move and its answer together.
IDEMPOTENT_MOVE_QUERIES = MOVE_QUERIES + 4


def _count(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, response.json()
    return len(queries)


def test_match_detail_query_budget(nibble, django_assert_max_num_queries):
    nibble.play_one()
    with django_assert_max_num_queries(DETAIL_QUERIES):
        assert nibble.a.get(match_url(nibble.id)).status_code == 200
    with django_assert_max_num_queries(DETAIL_QUERIES):
        assert nibble.b.get(match_url(nibble.id)).status_code == 200


def test_match_detail_of_a_four_seat_match_costs_the_same(client_for, make_user,
                                                          django_assert_max_num_queries):
    players = [make_user() for _ in range(4)]
    clients = [client_for(user) for user in players]
    match_id = create_match(clients[0], game="nimble", players=4)["id"]
    for client in clients[1:]:
        assert client.post(match_url(match_id, "join")).status_code == 200
    with django_assert_max_num_queries(DETAIL_QUERIES):
        assert clients[2].get(match_url(match_id)).status_code == 200


def test_match_list_does_not_grow_with_the_number_of_matches(client_for, alice, bob, carol,
                                                             django_assert_max_num_queries):
    a, b = client_for(alice), client_for(bob)
    start_nibble_match(a, b)
    one = _count(a, "/api/matches")
    for n in range(6):
        if n % 2:
            start_nibble_match(a, client_for(carol))
        else:
            create_match(a, game="nimble", players=3)
    many = _count(a, "/api/matches")
    assert many == one
    assert len(a.get("/api/matches").json()["results"]) == 7
    with django_assert_max_num_queries(LIST_QUERIES):
        a.get("/api/matches?scope=all&status=active")
    with django_assert_max_num_queries(LIST_QUERIES):
        a.get("/api/matches?my_turn=true")


def test_inbox_does_not_grow_with_the_number_of_matches(client_for, alice, bob,
                                                        django_assert_max_num_queries):
    a, b = client_for(alice), client_for(bob)
    start_nibble_match(a, b)
    one = _count(a, "/api/me/inbox")
    for _ in range(5):
        start_nibble_match(b, a)
    assert _count(a, "/api/me/inbox") == one
    with django_assert_max_num_queries(LIST_QUERIES):
        assert len(a.get("/api/me/inbox").json()) == 6


def test_move_log_does_not_grow_with_the_number_of_moves(nibble):
    nibble.play_one()
    one = _count(nibble.a, match_url(nibble.id, "moves"))
    for _ in range(6):
        nibble.play_one()
    assert _count(nibble.a, match_url(nibble.id, "moves")) == one


def test_submitting_a_move_has_a_fixed_budget(nibble, django_assert_max_num_queries):
    take = first_nibble_take(nibble.detail(nibble.a)["legal_moves"])
    with django_assert_max_num_queries(MOVE_QUERIES):
        assert submit(nibble.a, nibble.id, take, 0).status_code == 201


def test_submitting_a_move_with_an_idempotency_key_has_a_fixed_budget(
        nibble, django_assert_max_num_queries):
    take = first_nibble_take(nibble.detail(nibble.a)["legal_moves"])
    with django_assert_max_num_queries(IDEMPOTENT_MOVE_QUERIES):
        assert submit(nibble.a, nibble.id, take, 0, **{"Idempotency-Key": "k"}).status_code \
            == 201


def test_clocks_pausing_on_weekends_cost_a_move_and_a_detail_no_query_more(
        client_for, alice, bob, django_assert_max_num_queries):
    """The players' time zones come with the seats, in the query that locks or reads them."""
    match = start_nibble_match(client_for(alice), client_for(bob), time_control={
        "kind": "bank", "initial_seconds": 86400, "increment_seconds": 3600,
        "maximum_seconds": 2 * 86400, "weekend_pause": True})
    match.a.get(match_url(match.id))  # the token is remembered from the request before
    # Then the match, its seats, their players and the players' time zones: one query.
    with django_assert_max_num_queries(1):
        assert match.a.get(match_url(match.id)).status_code == 200
    take = first_nibble_take(match.detail(match.a)["legal_moves"])
    with django_assert_max_num_queries(MOVE_QUERIES):
        assert submit(match.a, match.id, take, 0).status_code == 201
