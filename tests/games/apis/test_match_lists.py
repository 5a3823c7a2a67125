"""The match lists and the inbox in the orders a client asks for (time left, last move, game,
when they ended, newest first), their filters, and cursor pages that give every match exactly
once in order, however many matches share a deadline, a game or a null."""

from __future__ import annotations

import json
import random
import uuid
from datetime import UTC, datetime, timedelta

import pytest

from games.models import Match, Move
from tests.games.listed import T0, listed_match
from tests.games.matchplay import assert_error

pytestmark = pytest.mark.django_db

GAMES = ("nibble", "nimble", "nimalia")


def _many(owner, other, count=60) -> list[Match]:
    """``count`` matches of every kind with many ties: a few deadlines, times of moves, games
    and end times shared by many matches, and many nulls of each."""
    rng = random.Random(42)
    hours = [timedelta(hours=h) for h in (1, 2, 2, 5)]
    matches = []
    for _ in range(count):
        status = rng.choice(["active", "active", "finished", "aborted", "open"])
        ended = T0 + rng.choice(hours) if status in ("finished", "aborted") else None
        deadline = (T0 + rng.choice(hours) if status == "active" and rng.random() < 0.6
                    else None)
        moved = T0 - rng.choice(hours) if status != "open" and rng.random() < 0.7 else None
        matches.append(listed_match(owner, other, game=rng.choice(GAMES), status=status,
                              my_turn=rng.random() < 0.5, deadline=deadline,
                              created=T0 - timedelta(days=rng.choice([1, 2, 3])),
                              finished=ended, moved=moved))
    return matches


def _last_move(match: Match) -> datetime:
    move = Move.objects.filter(match=match, seq=match.version).first()
    if move is not None:
        return move.created_at
    return match.started_at or match.created_at


def _expected(matches: list[Match], sort: str) -> list[str]:
    """The order the API documents, computed here from the rows."""
    never = datetime.max.replace(tzinfo=UTC)

    def age(when: datetime) -> float:
        return -when.timestamp()

    keys = {
        "time_left": lambda m: (m.deadline or never, age(_last_move(m)), m.id),
        "last_move": lambda m: (age(_last_move(m)), m.id),
        "game": lambda m: (m.game, age(_last_move(m)), m.id),
        "ended": lambda m: (m.finished_at is not None, age(m.finished_at or T0), m.id),
    }
    if sort == "created":
        ordered = sorted(matches, key=lambda m: (m.created_at, m.id), reverse=True)
    else:
        ordered = sorted(matches, key=keys[sort])
    return [str(m.id) for m in ordered]


def _walk(client, url: str) -> tuple[list[str], int]:
    """Every page from ``url`` on, following ``next``: the ids in order and the page count."""
    seen: list[str] = []
    pages = 0
    while url:
        response = client.get(url)
        assert response.status_code == 200, response.json()
        body = response.json()
        seen += [item["id"] for item in body["results"]]
        url = body["next"]
        pages += 1
    return seen, pages


def _walk_back(client, url: str) -> list[str]:
    """From the page at ``url``, the pages before it by their ``previous`` links, each page's
    ids in order, the pages in reading order."""
    pages: list[list[str]] = []
    while url:
        body = client.get(url).json()
        pages.insert(0, [item["id"] for item in body["results"]])
        url = body["previous"]
    return [match_id for page in pages for match_id in page]


def _last_page_url(client, url: str) -> str:
    while True:
        body = client.get(url).json()
        if not body["next"]:
            return url
        url = body["next"]


# --------------------------------------------------------------------------- paging


@pytest.mark.parametrize("sort", ["time_left", "last_move", "game", "ended", "created"])
def test_paging_a_sorted_list_gives_every_match_once_in_order(client_for, alice, bob, sort):
    matches = _many(alice, bob)
    client = client_for(alice)
    expected = _expected(matches, sort)
    seen, pages = _walk(client, f"/api/matches?sort={sort}&limit=7")
    assert seen == expected
    assert pages == 9  # 60 matches, 7 a page
    # Backwards from the last page through the previous links: the same matches, same order.
    assert _walk_back(client, _last_page_url(client, f"/api/matches?sort={sort}&limit=7")) \
        == expected


@pytest.mark.parametrize("sort", ["time_left", "last_move", "game", "ended"])
def test_paging_within_a_run_of_ties_longer_than_a_page(client_for, alice, bob, sort):
    """Thirty matches alike in every key but the id: pages of four cut through the run."""
    same = [listed_match(alice, bob, game="nimble", deadline=T0, moved=T0 - timedelta(hours=1),
                   status="finished" if sort == "ended" else "active",
                   finished=T0 if sort == "ended" else None) for _ in range(30)]
    nulls = [listed_match(alice, bob, game="nimble", status="active") for _ in range(5)]
    matches = same + nulls
    seen, _ = _walk(client_for(alice), f"/api/matches?sort={sort}&limit=4")
    assert seen == _expected(matches, sort)
    assert len(set(seen)) == len(matches)


def test_filters_and_a_sort_page_together(client_for, alice, bob):
    matches = _many(alice, bob)
    client = client_for(alice)
    wanted = [m for m in matches if m.game == "nimble" and m.status == "finished"]
    seen, _ = _walk(client, "/api/matches?game=nimble&status=finished&sort=last_move&limit=3")
    assert seen == _expected(wanted, "last_move")


# --------------------------------------------------------------------------- defaults


def test_my_turn_is_sorted_by_time_left_by_default(client_for, alice, bob):
    late = listed_match(alice, bob, my_turn=True, deadline=T0 + timedelta(hours=9))
    soon = listed_match(alice, bob, my_turn=True, deadline=T0 + timedelta(hours=1))
    casual = listed_match(alice, bob, my_turn=True)
    listed_match(alice, bob, my_turn=False, deadline=T0)  # their turn: left out
    body = client_for(alice).get("/api/matches?my_turn=true").json()
    assert [m["id"] for m in body["results"]] == [str(soon.id), str(late.id), str(casual.id)]


def test_finished_matches_are_sorted_by_when_they_ended_by_default(client_for, alice, bob):
    first = listed_match(alice, bob, status="finished", finished=T0, created=T0 - timedelta(days=1))
    last = listed_match(alice, bob, status="finished", finished=T0 + timedelta(days=2),
                  created=T0 - timedelta(days=3))
    middle = listed_match(alice, bob, status="finished", finished=T0 + timedelta(days=1),
                    created=T0 - timedelta(days=2))
    results = client_for(alice).get("/api/matches?status=finished").json()["results"]
    assert [m["id"] for m in results] == [str(last.id), str(middle.id), str(first.id)]
    assert results[0]["finished_at"] == "2026-03-03T12:00:00Z"


def test_other_lists_keep_the_newest_first(client_for, alice, bob):
    matches = _many(alice, bob, count=12)
    seen, _ = _walk(client_for(alice), "/api/matches?limit=5")
    assert seen == _expected(matches, "created")


def test_last_move_counts_a_match_without_moves_from_its_start(client_for, alice, bob):
    moved_long_ago = listed_match(alice, bob, moved=T0 - timedelta(days=5))
    fresh = listed_match(alice, bob, created=T0 - timedelta(hours=3))  # started then, no move yet
    moved_lately = listed_match(alice, bob, moved=T0 - timedelta(hours=1))
    results = client_for(alice).get("/api/matches?sort=last_move").json()["results"]
    assert [m["id"] for m in results] == [str(moved_lately.id), str(fresh.id),
                                          str(moved_long_ago.id)]


# --------------------------------------------------------------------------- the inbox


def _inbox(client, query: str = "") -> list[str]:
    response = client.get(f"/api/me/inbox{query}")
    assert response.status_code == 200, response.json()
    return [item["id"] for item in response.json()]


@pytest.fixture
def inbox_matches(alice, bob):
    return {
        "mine_late": listed_match(alice, bob, my_turn=True, deadline=T0 + timedelta(hours=8),
                            moved=T0 - timedelta(hours=2)),
        "mine_soon": listed_match(alice, bob, game="nimble", my_turn=True,
                            deadline=T0 + timedelta(hours=2), moved=T0 - timedelta(hours=9)),
        "mine_casual": listed_match(alice, bob, game="nimalia", my_turn=True,
                              moved=T0 - timedelta(hours=1)),
        "theirs_sooner": listed_match(alice, bob, deadline=T0 + timedelta(hours=1),
                                moved=T0 - timedelta(hours=3)),
        "invited": listed_match(bob, alice, status="open", game="nimble",
                          created=T0 - timedelta(hours=5)),
        "over": listed_match(alice, bob, status="finished", finished=T0),
    }


def _names(ids: list[str], matches: dict[str, Match]) -> list[str]:
    by_id = {str(match.id): name for name, match in matches.items()}
    return [by_id[match_id] for match_id in ids]


def test_inbox_puts_my_turn_first_then_the_soonest_deadline(client_for, alice,
                                                           inbox_matches):
    assert _names(_inbox(client_for(alice)), inbox_matches) == [
        "mine_soon", "mine_late", "mine_casual", "theirs_sooner", "invited"]
    assert _inbox(client_for(alice)) == _inbox(client_for(alice), "?sort=time_left")


@pytest.mark.parametrize("query, expected", [
    ("?sort=last_move", ["mine_casual", "mine_late", "theirs_sooner", "invited", "mine_soon"]),
    ("?sort=game", ["mine_late", "theirs_sooner", "mine_casual", "invited", "mine_soon"]),
    ("?my_turn=true", ["mine_soon", "mine_late", "mine_casual"]),
    ("?my_turn=true&sort=last_move", ["mine_casual", "mine_late", "mine_soon"]),
    ("?game=nimble", ["mine_soon", "invited"]),
    ("?game=nimble&my_turn=true", ["mine_soon"]),
    ("?game=nibble&sort=last_move", ["mine_late", "theirs_sooner"]),
    ("?my_turn=false", ["mine_soon", "mine_late", "mine_casual", "theirs_sooner", "invited"]),
])
def test_inbox_sorts_and_filters(client_for, alice, inbox_matches, query, expected):
    assert _names(_inbox(client_for(alice), query), inbox_matches) == expected


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("url, field", [
    ("/api/matches?sort=deadline", "sort"),
    ("/api/matches?sort=", "sort"),
    ("/api/matches?sort=TIME_LEFT", "sort"),
    ("/api/me/inbox?sort=ended", "sort"),
    ("/api/me/inbox?sort=created", "sort"),
    ("/api/me/inbox?game=chess", "game"),
    ("/api/me/inbox?my_turn=yes", "my_turn"),
    ("/api/me/inbox?status=finished", "status"),
    ("/api/me/inbox?cursor=abc", "cursor"),
])
def test_unknown_sorts_and_filters_are_coded_errors(client_for, alice, url, field):
    errors = assert_error(client_for(alice).get(url), 400, "validation_error")["extra"]["fields"]
    assert field in errors


def _cursor(position: str) -> str:
    from base64 import b64encode
    from urllib.parse import quote, urlencode

    return quote(b64encode(urlencode({"p": position}).encode()).decode())


NO_ID = "00000000-0000-0000-0000-000000000000"
NOON = "2026-03-01T12:00:00+00:00"


@pytest.mark.parametrize("position", [json.dumps(position) for position in [
    {"created_at": NOON},  # a key missing
    {"created_at": NOON, "id": NO_ID, "game": "nibble"},
    {"finished_at": NOON, "id": NO_ID},  # another order's
    {"created_at": NOON, "id": "not-a-uuid"},
    {"created_at": NOON, "id": NO_ID.replace("0", "A")},
    {"created_at": None, "id": NO_ID},  # created_at is never null
    {"created_at": "2026-03-01T12:00:00", "id": NO_ID},  # no time zone
    {"created_at": "2026-03-01", "id": NO_ID},
    {"created_at": "2026-02-30T12:00:00+00:00", "id": NO_ID},
    {"created_at": 20260301, "id": NO_ID},
    {"created_at": True, "id": NO_ID},
    {"created_at": ["2026"], "id": NO_ID},
    [NOON, NO_ID],
]] + [
    "2026-03-01 12:00:00+00:00",  # a position of the pages before keyset cursors
    "[",
])
def test_a_forged_position_is_a_coded_error(client_for, alice, bob, position):
    listed_match(alice, bob)
    response = client_for(alice).get(f"/api/matches?cursor={_cursor(position)}")
    assert "cursor" in assert_error(response, 400, "validation_error")["extra"]["fields"]


def test_a_cursor_of_another_order_is_refused(client_for, alice, bob):
    _many(alice, bob, count=6)
    client = client_for(alice)
    following = client.get("/api/matches?sort=game&limit=2").json()["next"]
    cursor = following.split("cursor=")[1].split("&")[0]
    response = client.get(f"/api/matches?sort=ended&cursor={cursor}")
    assert "cursor" in assert_error(response, 400, "validation_error")["extra"]["fields"]


def test_a_position_past_the_end_is_an_empty_page(client_for, alice, bob):
    listed_match(alice, bob)
    position = ('{"deadline":null,"last_move_at":"2026-03-01T12:00:00+00:00",'
                f'"id":"{uuid.UUID(int=2**128 - 1)}"}}')
    body = client_for(alice).get(f"/api/matches?sort=time_left&cursor={_cursor(position)}")
    assert body.status_code == 200 and body.json()["results"] == []


# --------------------------------------------------------------------------- costs


@pytest.mark.parametrize("url", [f"/api/matches?sort={sort}" for sort in
                                 ("time_left", "last_move", "game", "ended", "created")]
                         + ["/api/me/inbox?sort=last_move", "/api/me/inbox"])
def test_sorted_lists_cost_the_same_however_many_matches(client_for, alice, bob, url,
                                                        django_assert_max_num_queries):
    from tests.games.apis.test_query_counts import LIST_QUERIES

    _many(alice, bob, count=20)
    client = client_for(alice)
    with django_assert_max_num_queries(LIST_QUERIES):
        assert client.get(url).status_code == 200
