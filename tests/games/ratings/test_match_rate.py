"""Ratings: OpenSkill (Plackett-Luce) from the final ranking, once per match, with history."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from openskill.models import PlackettLuce

from games import ratings
from games.models import Match, Rating, RatingChange, Seat
from games.services import SeatSpec, match_abort, match_create, match_join, match_resign
from games.services.ratings import match_rate
from games.tasks import match_rate_task
from tests.factories import BotFactory, UserFactory

pytestmark = pytest.mark.django_db


def finished_match(users, ranks, *, game="nimble", rated=True, finished_at=None) -> Match:
    """A match between ``users`` that ended with ``ranks`` (seat order)."""
    match = Match.objects.create(
        game=game, num_players=len(users), rated=rated, created_by=users[0], seed="s",
        status=Match.Status.FINISHED, finished_at=finished_at or timezone.now(),
        outcome={"ranks": list(ranks), "reason": "finished"})
    Seat.objects.bulk_create([
        Seat(match=match, index=i, user=user, joined_at=timezone.now(), rank=rank, score=0)
        for i, (user, rank) in enumerate(zip(users, ranks, strict=True))])
    return match


def expected(ranks, before=None):
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in (
        before or [(model.mu, model.sigma)] * len(ranks))]
    return [(team[0].mu, team[0].sigma) for team in model.rate(teams, ranks=list(ranks))]


def current(user, game="nimble") -> tuple[float, float]:
    rating = Rating.objects.get(user=user, game=game)
    return rating.mu, rating.sigma


def test_two_player_result_matches_openskill():
    winner, loser = UserFactory(), UserFactory()
    match = finished_match([winner, loser], [1, 2], game="nibble")
    assert match_rate(match_id=str(match.id))
    want = expected([1, 2])
    assert current(winner, "nibble") == pytest.approx(want[0])
    assert current(loser, "nibble") == pytest.approx(want[1])
    rating = Rating.objects.get(user=winner, game="nibble")
    assert rating.games_played == 1
    assert rating.display == ratings.display_rating(want[0][0]) > 1500
    assert ratings.is_provisional(rating.sigma)


def test_four_player_result_with_ties_matches_openskill_over_two_matches():
    users = [UserFactory() for _ in range(4)]
    match_rate(match_id=str(finished_match(users, [1, 2, 2, 4]).id))
    first = expected([1, 2, 2, 4])
    assert [current(u) for u in users] == [pytest.approx(r) for r in first]
    assert current(users[1]) == pytest.approx(current(users[2]))
    match_rate(match_id=str(finished_match(users, [3, 1, 1, 3]).id))
    second = expected([3, 1, 1, 3], before=first)
    assert [current(u) for u in users] == [pytest.approx(r) for r in second]
    assert Rating.objects.get(user=users[0], game="nimble").games_played == 2


def test_rating_twice_rates_once():
    users = [UserFactory(), UserFactory()]
    match = finished_match(users, [2, 1])
    assert match_rate_task(str(match.id)) is True
    after_first = [current(u) for u in users]
    assert match_rate_task(str(match.id)) is False
    assert [current(u) for u in users] == after_first
    assert RatingChange.objects.filter(match=match).count() == 2


@pytest.mark.parametrize("case", ["unrated", "aborted", "solo", "running"])
def test_matches_that_do_not_count_change_nothing(case):
    users = [UserFactory(), UserFactory()]
    match = finished_match(users, [1, 2], rated=case != "unrated")
    if case == "aborted":
        Match.objects.filter(id=match.id).update(status=Match.Status.ABORTED)
    if case == "running":
        Match.objects.filter(id=match.id).update(status=Match.Status.ACTIVE)
    if case == "solo":
        match = finished_match(users[:1], [1], game="nimalia")
    assert match_rate(match_id=str(match.id)) is False
    assert not Rating.objects.exists()
    assert not RatingChange.objects.exists()


def test_resigning_ranks_last_and_the_finish_is_rated(django_capture_on_commit_callbacks):
    alice, bob = UserFactory(), UserFactory()
    match = match_create(user=alice, game="nibble",
                         seats=[SeatSpec("me"), SeatSpec("user", username=bob.username)])
    match_join(user=bob, match_id=match.id)
    with django_capture_on_commit_callbacks(execute=True):
        match_resign(user=alice, match_id=match.id)
    change = RatingChange.objects.get(match=match, user=alice)
    assert change.rank == 2 and change.display_after < change.display_before
    assert RatingChange.objects.get(match=match, user=bob).rank == 1


def test_forfeited_seats_rank_last_in_the_order_they_left(django_capture_on_commit_callbacks):
    users = [UserFactory() for _ in range(4)]
    match = match_create(user=users[0], game="nimble", seats=[SeatSpec("me")] + [
        SeatSpec("user", username=u.username) for u in users[1:]])
    for user in users[1:]:
        match_join(user=user, match_id=match.id)
    with django_capture_on_commit_callbacks(execute=True):
        match_resign(user=users[2], match_id=match.id)
        match_resign(user=users[0], match_id=match.id)
        match_resign(user=users[3], match_id=match.id)
    ranks = {c.user_id: c.rank for c in RatingChange.objects.filter(match=match)}
    assert ranks == {users[1].id: 1, users[3].id: 2, users[0].id: 3, users[2].id: 4}


def test_aborted_match_is_never_rated(django_capture_on_commit_callbacks):
    alice, bob = UserFactory(), UserFactory()
    match = match_create(user=alice, game="nibble",
                         seats=[SeatSpec("me"), SeatSpec("user", username=bob.username)])
    match_join(user=bob, match_id=match.id)
    with django_capture_on_commit_callbacks(execute=True):
        match_abort(user=alice, match_id=match.id)
    assert match_rate(match_id=str(match.id)) is False
    assert not RatingChange.objects.exists()


def test_bots_are_rated_like_everyone():
    person, bot = UserFactory(), BotFactory(bot_game="nibble", bot_level=2)
    match_rate(match_id=str(finished_match([person, bot], [2, 1], game="nibble").id))
    assert Rating.objects.get(user=bot, game="nibble").games_played == 1


# --------------------------------------------------------------------------- the API


def _play_history(user, opponent, count, game="nibble"):
    start = timezone.now() - timedelta(days=count)
    for n in range(count):
        ranks = [1, 2] if n % 3 else [2, 1]
        match_rate(match_id=str(finished_match([user, opponent], ranks, game=game,
                                               finished_at=start + timedelta(days=n)).id))


def test_player_shows_current_ratings_per_game(client_for, alice):
    bob = UserFactory()
    _play_history(alice, bob, 2)
    body = client_for(bob).get(f"/api/players/{alice.username}").json()
    assert [(r["game"], r["games_played"]) for r in body["ratings"]] == [("nibble", 2)]
    assert set(body["ratings"][0]) == {"game", "rating", "mu", "sigma", "games_played",
                                       "provisional"}


def test_history_newest_first_with_cursor_pages_and_iso_times(client_for, alice):
    bob = UserFactory()
    _play_history(alice, bob, 7)
    client = client_for(bob)
    url = f"/api/players/{alice.username}/ratings/nibble/history?limit=3"
    seen = []
    while url:
        page = client.get(url).json()
        seen += page["results"]
        url = page["next"]
    assert len(seen) == 7
    times = [entry["at"] for entry in seen]
    assert times == sorted(times, reverse=True)
    assert all("T" in t for t in times)
    chained = [(e["rating_before"], e["rating_after"]) for e in reversed(seen)]
    assert all(a[1] == b[0] for a, b in zip(chained, chained[1:], strict=False))


def test_history_since_and_until(client_for, alice):
    bob = UserFactory()
    _play_history(alice, bob, 6)
    changes = list(RatingChange.objects.filter(user=alice).order_by("at"))
    since, until = changes[1].at.isoformat(), changes[4].at.isoformat()
    response = client_for(bob).get(
        f"/api/players/{alice.username}/ratings/nibble/history",
        {"since": since, "until": until})
    assert response.status_code == 200
    assert len(response.json()["results"]) == 3
    bad = client_for(bob).get(f"/api/players/{alice.username}/ratings/nibble/history",
                              {"since": "yesterday"})
    assert bad.status_code == 400 and bad.json()["code"] == "validation_error"
    unknown = client_for(bob).get(f"/api/players/{alice.username}/ratings/chess/history")
    assert unknown.status_code == 400 and unknown.json()["code"] == "unknown_game"


def test_leaderboard_ranks_established_players_only(client_for, alice):
    strong, weak, newcomer = UserFactory(), UserFactory(), UserFactory()
    for _ in range(12):
        match_rate(match_id=str(finished_match([strong, weak], [1, 2], game="nibble").id))
    match_rate(match_id=str(finished_match([newcomer, weak], [1, 2], game="nibble").id))
    body = client_for(alice).get("/api/leaderboards/nibble").json()
    names = [row["username"] for row in body["results"]]
    assert names == [strong.username, weak.username]
    assert body["results"][0]["rating"] > body["results"][1]["rating"]


def test_history_and_leaderboard_queries_do_not_grow(client_for, alice,
                                                     django_assert_max_num_queries):
    bob = UserFactory()
    _play_history(alice, bob, 15)
    client = client_for(bob)
    with django_assert_max_num_queries(6):
        client.get(f"/api/players/{alice.username}/ratings/nibble/history?limit=50")
    with django_assert_max_num_queries(6):
        client.get("/api/leaderboards/nibble")
    with django_assert_max_num_queries(6):
        client.get(f"/api/players/{alice.username}")
