"""Ratings over HTTP: a rated match's result in each player's history, and the leaderboards."""

from __future__ import annotations

import pytest

from games.models import Rating, RatingChange
from tests.games.matchplay import assert_error, match_url, start_nibble_match

pytestmark = pytest.mark.django_db

HISTORY_KEYS = {"match", "at", "rank", "rating_before", "rating_after", "mu_before",
                "sigma_before", "mu_after", "sigma_after"}


@pytest.fixture
def rated(client_for, alice, bob, django_capture_on_commit_callbacks):
    """A rated Nibble match bob resigned; the rating task runs on commit."""
    match = start_nibble_match(client_for(alice), client_for(bob))
    with django_capture_on_commit_callbacks(execute=True):
        assert match.b.post(match_url(match.id, "resign")).status_code == 200
    return match


def test_a_rated_result_enters_both_histories(rated, client_for, alice):
    assert RatingChange.objects.count() == 2
    client = client_for(alice)
    mine = client.get("/api/players/alice/ratings/nibble/history")
    assert mine.status_code == 200
    body = mine.json()
    assert set(body) == {"next", "previous", "results"}
    (entry,) = body["results"]
    assert set(entry) == HISTORY_KEYS
    assert entry["match"] == rated.id and entry["rank"] == 1
    assert entry["rating_after"] > entry["rating_before"] == 1500
    (theirs,) = client.get("/api/players/bob/ratings/nibble/history").json()["results"]
    assert theirs["rank"] == 2 and theirs["rating_after"] < 1500
    me = client.get("/api/me").json()
    assert me["ratings"][0]["game"] == "nibble" and me["ratings"][0]["games_played"] == 1
    assert me["ratings"][0]["provisional"] is True
    assert client.get("/api/players/alice/ratings/nimble/history").json()["results"] == []


def test_history_filters_by_time(rated, client_for, alice):
    at = RatingChange.objects.get(user=alice).at.isoformat().replace("+00:00", "Z")
    client = client_for(alice)
    base = "/api/players/alice/ratings/nibble/history"
    assert len(client.get(base, {"since": at}).json()["results"]) == 1
    assert client.get(base, {"until": at}).json()["results"] == []


@pytest.mark.parametrize("path, status, code", [
    ("/api/players/alice/ratings/chess/history", 400, "unknown_game"),
    ("/api/players/nobody/ratings/nibble/history", 404, "not_found"),
    ("/api/players/alice/ratings/nibble/history?since=yesterday", 400, "validation_error"),
    ("/api/players/alice/ratings/nibble/history?limit=0", 400, "validation_error"),
    ("/api/players/alice/ratings/nibble/history?colour=red", 400, "validation_error"),
    ("/api/players/alice/ratings/nibble/history?cursor=garbage", 400, "validation_error"),
    ("/api/leaderboards/chess", 400, "unknown_game"),
    ("/api/leaderboards/nibble?limit=201", 400, "validation_error"),
    ("/api/leaderboards/nibble?limit=true", 400, "validation_error"),
    ("/api/leaderboards/nibble?page=2", 400, "validation_error"),
    ("/api/leaderboards/nibble?cursor=garbage", 400, "validation_error"),
    ("/api/leaderboards/nibble?cursor=cD1hYmM%3D", 400, "validation_error"),
])
def test_rating_errors(client_for, alice, path, status, code):
    assert_error(client_for(alice).get(path), status, code)


def test_leaderboard_ranks_established_players_only(client_for, alice, make_user):
    def rate(name, display, sigma):
        Rating.objects.create(user=make_user(username=name), game="nibble", mu=25.0,
                              sigma=sigma, display=display, games_played=20)

    rate("steady", 1600, 4.0)
    rate("best", 1700, 5.0)
    rate("newcomer", 1900, 8.0)  # provisional: not listed
    rate("tied", 1600, 3.0)
    response = client_for(alice).get("/api/leaderboards/nibble?limit=2")
    assert response.status_code == 200
    first = response.json()
    assert [row["username"] for row in first["results"]] == ["best", "steady"]
    assert set(first["results"][0]) == {"username", "is_bot", "rating", "mu", "sigma",
                                        "games_played"}
    rest = client_for(alice).get(first["next"]).json()
    assert [row["username"] for row in rest["results"]] == ["tied"]
    assert client_for(alice).get("/api/leaderboards/nimble").json()["results"] == []
