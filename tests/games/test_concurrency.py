"""Real concurrency on PostgreSQL: simultaneous requests against one match, each thread with
its own connection, leave exactly what the rules allow and give every loser a coded error."""

from __future__ import annotations

import random
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games.catalog import get_engine
from games.kit.protocol import apply_checked
from games.models import IdempotencyRecord, Match, Move, Seat
from tests.factories import token_for
from tests.games.helpers import create_match
from tests.games.matchplay import match_url, start_nibble_match

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.needs_postgresql("real row-lock concurrency needs PostgreSQL"),
]

LOSER_CODES = {409: {"stale_version", "not_your_turn", "game_over", "idempotency_key_reused",
                     "match_full"},
               422: {"illegal_move"}}


def client_of(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(user)}")
    return client


def run_together(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run every call in its own thread, released together by a barrier; each thread closes
    its own database connection at the end."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def work(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=30)
            results[index] = call()
        except BaseException as exc:  # reported by the test below
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=work, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)
    for result in results:
        if isinstance(result, BaseException):
            raise result
    return results


def post_move(user, match_id: str, move: Any, expected_version: int | None = None,
              key: str | None = None) -> tuple[int, Any]:
    body: dict[str, Any] = {"move": move}
    if expected_version is not None:
        body["expected_version"] = expected_version
    headers = {"Idempotency-Key": key} if key else {}
    response = client_of(user).post(match_url(match_id, "moves"), body, format="json",
                                    headers=headers)
    return response.status_code, response.json()


def assert_coded_loser(status: int, body: dict[str, Any]) -> None:
    assert status in LOSER_CODES, (status, body)
    assert set(body) == {"code", "message", "extra"}, body
    assert body["code"] in LOSER_CODES[status], (status, body)
    if body["code"] == "stale_version":
        assert isinstance(body["extra"]["current_version"], int)
    if body["code"] == "illegal_move":
        assert body["extra"]["rule"].startswith("nibble.")


def assert_log_replays(match_id: str) -> Match:
    """Gap-free sequence numbers, and the log replayed through the rules from the seed gives
    exactly the stored state: every recorded move was legal when it was applied."""
    match = Match.objects.get(id=match_id)
    moves = list(Move.objects.filter(match=match).order_by("seq"))
    assert [m.seq for m in moves] == list(range(1, match.version + 1))
    engine = get_engine(match.game)
    state = engine.initial_state(num_players=match.num_players, config=match.config,
                                 seed=match.seed)
    for move in moves:
        if move.kind == Move.Kind.MOVE:
            state = apply_checked(engine, state, move.seat, engine.parse_move(move.payload)).state
        else:
            assert move.kind == Move.Kind.FORFEIT
            state = engine.forfeit(state, move.seat).state
    assert engine.dump(state) == match.state
    if match.status != Match.Status.ABORTED:  # an abort clears who must act
        assert sorted(engine.actors(state)) == match.actors
    return match


def takeable_cells(match_id: str) -> list[list[int]]:
    from games.nibble.engine import takeable_discs

    state = get_engine("nibble").load(Match.objects.get(id=match_id).state)
    return [list(cell) for cells in takeable_discs(state).values() for cell in cells]


@pytest.fixture
def players(make_user):
    return [make_user(username=name) for name in ("ann", "ben", "cat", "dan", "eve", "fay")]


@pytest.fixture
def duel(players):
    ann, ben = players[:2]
    return start_nibble_match(client_of(ann), client_of(ben)).id


def test_conflicting_moves_at_one_version_record_exactly_one(players, duel):
    ann, ben = players[:2]
    cells = takeable_cells(duel)
    picks = [cells[i % len(cells)] for i in range(12)]
    calls = [lambda cell=cell: post_move(ann, duel, {"take": [cell]}, 0) for cell in picks[:8]]
    calls += [lambda cell=cell: post_move(ben, duel, {"take": [cell]}, 0) for cell in picks[8:]]
    results = run_together(calls)
    winners = [body for status, body in results if status == 201]
    assert len(winners) == 1
    assert results.index((201, winners[0])) < 8  # only ann could move
    for status, body in results:
        if status != 201:
            assert_coded_loser(status, body)
    match = assert_log_replays(duel)
    assert match.version == 1 and match.actors == [1]


def test_duplicate_submissions_with_one_idempotency_key_record_one_move(players, duel):
    ann = players[0]
    move = {"take": [takeable_cells(duel)[0]]}
    results = run_together([lambda: post_move(ann, duel, move, 0, key="once")
                            for _ in range(10)])
    assert {status for status, _ in results} == {201}
    first = results[0][1]
    assert all(body == first for _, body in results)
    assert Move.objects.filter(match_id=duel).count() == 1
    assert IdempotencyRecord.objects.filter(key="once").count() == 1
    assert_log_replays(duel)


def test_duplicate_submissions_without_a_key_record_one_move(players, duel):
    ann = players[0]
    move = {"take": [takeable_cells(duel)[0]]}
    results = run_together([lambda: post_move(ann, duel, move) for _ in range(10)])
    statuses = Counter(status for status, _ in results)
    assert statuses[201] == 1
    for status, body in results:
        if status != 201:
            assert_coded_loser(status, body)
            # Without expected_version the later copies meet ben's turn, or the gone disc.
            assert body["code"] in ("not_your_turn", "illegal_move")
    assert_log_replays(duel)


def test_one_idempotency_key_raced_on_two_matches_moves_once(players):
    ann, ben, cat = players[:3]
    for round_ in range(3):
        first = start_nibble_match(client_of(ann), client_of(ben)).id
        second = start_nibble_match(client_of(ann), client_of(cat)).id
        key = f"k{round_}"
        moves = {m: {"take": [takeable_cells(m)[0]]} for m in (first, second)}
        results = run_together([lambda m=m, move=moves[m], key=key: post_move(ann, m, move, 0,
                                                                               key=key)
                                for m in (first, second)])
        assert sorted(status for status, _ in results) == [201, 409], results
        loser = next(body for status, body in results if status == 409)
        assert loser["code"] == "idempotency_key_reused"
        assert Move.objects.filter(match_id__in=[first, second]).count() == 1
        assert_log_replays(first)
        assert_log_replays(second)


def test_a_free_for_all_leaves_a_legal_gap_free_log(players, duel):
    """Both players hammer the match from several threads, each move chosen from a possibly
    stale view and sent without expected_version."""
    ann, ben = players[:2]

    def player_loop(user, seed: int) -> list[tuple[int, Any]]:
        rng = random.Random(seed)
        client = client_of(user)
        answers = []
        for _ in range(6):
            detail = client.get(match_url(duel)).json()
            if detail["status"] != "active":
                break
            if detail["legal_moves"]:
                takeable = detail["legal_moves"]["takeable"]
                cells = takeable[rng.choice(sorted(takeable))]
            else:  # not my turn (as far as I know): try anyway
                cells = [[rng.randrange(9), rng.randrange(9)]]
            answers.append(post_move(user, duel, {"take": [rng.choice(cells)]}))
        return answers

    results = run_together([lambda i=i: player_loop(ann if i % 2 else ben, i) for i in range(8)])
    answers = [answer for thread in results for answer in thread]
    created = [body for status, body in answers if status == 201]
    for status, body in answers:
        if status != 201:
            assert_coded_loser(status, body)
    match = assert_log_replays(duel)
    assert match.version == len(created) >= 1
    assert sorted(body["seq"] for body in created) == list(range(1, match.version + 1))


def test_moves_and_a_resignation_race(players, duel):
    ann, ben = players[:2]
    cells = takeable_cells(duel)
    calls = [lambda: (lambda r: (r.status_code, r.json()))(
        client_of(ben).post(match_url(duel, "resign")))]
    calls += [lambda cell=cell: post_move(ann, duel, {"take": [cell]}) for cell in cells[:5]]
    results = run_together(calls)
    assert results[0][0] == 200, results[0]
    for status, body in results[1:]:
        if status != 201:
            assert_coded_loser(status, body)
    match = assert_log_replays(duel)
    assert match.status == "finished" and match.outcome["winners"] == [0]
    assert Move.objects.filter(match=match, kind="forfeit").count() == 1


def test_many_players_race_for_the_last_seat(players):
    ann, *others = players
    match_id = create_match(client_of(ann))["id"]

    def join(user):
        response = client_of(user).post(match_url(match_id, "join"))
        return response.status_code, response.json()

    results = run_together([lambda user=user: join(user) for user in others])
    joined = [i for i, (status, _) in enumerate(results) if status == 200]
    assert len(joined) == 1
    for status, body in results:
        if status != 200:
            # The match is active and private by the time a loser gets the row lock.
            assert (status, body["code"]) in ((404, "not_found"), (409, "match_full")), body
    seats = list(Seat.objects.filter(match_id=match_id).order_by("index"))
    assert [seat.user for seat in seats] == [ann, others[joined[0]]]
    assert Match.objects.get(id=match_id).status == "active"


def test_abort_and_first_move_race(players, duel):
    ann, ben = players[:2]
    cell = takeable_cells(duel)[0]
    results = run_together([
        lambda: post_move(ann, duel, {"take": [cell]}, 0),
        lambda: (lambda r: (r.status_code, r.json()))(client_of(ben).post(
            match_url(duel, "abort"))),
    ])
    match = Match.objects.get(id=duel)
    (move_status, move_body), (abort_status, abort_body) = results
    if move_status == 201:
        assert (abort_status, abort_body["code"]) == (409, "abort_not_allowed")
        assert match.status == "active" and match.version == 1
    else:
        assert abort_status == 200
        assert (move_status, move_body["code"]) == (409, "game_over")
        assert match.status == "aborted" and match.version == 0
    assert_log_replays(duel)
