"""The tournament API: list with filters, create, read with standings, join, leave, withdraw,
challenge; every refusal in the error envelope with its code."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.tournaments.models import Tournament
from tests.factories import UserFactory
from tests.tournaments.helpers import started, tournament_with

pytestmark = pytest.mark.django_db

BODY = {"name": "Spring Swiss", "game": "nibble", "format": "swiss", "rounds": 3,
        "time_control": {"days_per_turn": 2}}


def _body(**changes):
    return {**BODY, "starts_at": (timezone.now() + timedelta(days=1)).isoformat(), **changes}


def test_create_read_join_leave(client_for):
    alice, bob = UserFactory(), UserFactory()
    client = client_for(alice)
    created = client.post("/api/tournaments", _body(), format="json")
    assert created.status_code == 201, created.content
    detail = created.json()
    tournament_id = detail["summary"]["id"]
    assert detail["summary"]["status"] == "entry" and detail["can_join"]
    assert detail["time_control"]["kind"] == "per_move"
    assert detail["tie_breaks"] == ["buchholz", "sonneborn_berger"]
    joined = client.post(f"/api/tournaments/{tournament_id}/join", {}, format="json")
    assert joined.status_code == 201 and joined.json()["me"]["withdrawn"] is None
    again = client.post(f"/api/tournaments/{tournament_id}/join", {}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "already_entered"
    client_for(bob).post(f"/api/tournaments/{tournament_id}/join", {}, format="json")
    listed = client_for(bob).get("/api/tournaments?mine=true&game=nibble&status=entry")
    assert [row["id"] for row in listed.json()["results"]] == [tournament_id]
    assert listed.json()["results"][0]["entrants"] == 2
    left = client.post(f"/api/tournaments/{tournament_id}/leave")
    assert left.status_code == 200 and left.json()["me"] is None
    gone = client.post(f"/api/tournaments/{tournament_id}/leave")
    assert gone.status_code == 409 and gone.json()["code"] == "not_entered"


def test_bad_settings_are_coded_errors_and_create_nothing(client_for):
    client = client_for(UserFactory())
    for body, code in [
        (_body(rounds=0), "validation_error"),
        (_body(format="knockout"), "validation_error"),
        (_body(game="chess"), "validation_error"),
        (_body(format="round_robin"), "invalid_tournament"),
        (_body(time_control={"kind": "per_move", "turn_seconds": 5}), "invalid_time_control"),
        (_body(config={"colors": 99}), "invalid_config"),
        (_body(starts_at=(timezone.now() - timedelta(days=1)).isoformat()),
         "invalid_tournament"),
    ]:
        answer = client.post("/api/tournaments", body, format="json")
        assert answer.status_code == 400, (body, answer.content)
        assert answer.json()["code"] == code, (body, answer.json())
    assert not Tournament.objects.exists()


def test_a_running_tournament_shows_standings_rounds_and_my_next_match(client_for, api_client):
    creator = UserFactory()
    players = [UserFactory() for _ in range(3)]
    tournament = started(tournament_with(creator, players))
    client = client_for(players[0])
    detail = client.get(f"/api/tournaments/{tournament.id}").json()
    assert len(detail["standings"]) == 3
    assert detail["rounds_played"][0]["number"] == 1
    pairings = detail["rounds_played"][0]["pairings"]
    assert sorted(len(pairing["players"]) for pairing in pairings) == [1, 2]
    me = detail["me"]
    mine = [p for p in pairings if players[0].username in p["players"]][0]
    assert me["next_match"] == mine["match"]
    anonymous = api_client.get(f"/api/tournaments/{tournament.id}")
    assert anonymous.status_code == 200 and anonymous.json()["me"] is None
    closed = client_for(UserFactory()).post(f"/api/tournaments/{tournament.id}/join")
    assert closed.status_code == 201  # a late entrant of a three-round Swiss in round 1
    withdrawn = client.post(f"/api/tournaments/{tournament.id}/withdraw")
    assert withdrawn.status_code == 200 and withdrawn.json()["me"]["withdrawn"] == "withdrew"
    history = client.get(f"/api/players/{players[0].username}/tournaments").json()
    assert history["results"][0]["withdrawn"] == "withdrew"
    assert history["results"][0]["tournament"]["entrants"] == 4


def test_ladder_challenge_refusals_are_coded(client_for):
    creator = UserFactory()
    players = [UserFactory() for _ in range(5)]
    tournament = started(tournament_with(creator, players, format="ladder", rounds=None))
    client = client_for(players[4])
    far = client.post(f"/api/tournaments/{tournament.id}/challenges",
                      {"username": players[0].username}, format="json")
    assert far.status_code == 409 and far.json()["code"] == "challenge_out_of_reach"
    assert far.json()["extra"] == {"reach": 3}
    made = client.post(f"/api/tournaments/{tournament.id}/challenges",
                       {"username": players[1].username}, format="json")
    assert made.status_code == 201
    assert made.json()["challenges"][0]["players"] == [players[4].username,
                                                       players[1].username]
    busy = client.post(f"/api/tournaments/{tournament.id}/challenges",
                       {"username": players[2].username}, format="json")
    assert busy.json()["code"] == "challenge_pending"
    swiss = started(tournament_with(creator, players[:2]))
    wrong = client.post(f"/api/tournaments/{swiss.id}/challenges",
                        {"username": players[0].username}, format="json")
    assert wrong.json()["code"] == "not_a_ladder"


def test_unknown_tournament_and_anonymous_writes(api_client):
    assert api_client.get("/api/tournaments/00000000-0000-0000-0000-000000000000") \
        .json()["code"] == "not_found"
    answer = api_client.post("/api/tournaments", _body(), format="json")
    assert answer.status_code == 401


def test_a_private_match_id_is_shown_to_its_players_alone(client_for, api_client):
    shy, other = UserFactory(matches_private=True), UserFactory()
    tournament = started(tournament_with(UserFactory(), [shy, other]))
    url = f"/api/tournaments/{tournament.id}"

    def match_of(answer):
        return answer.json()["rounds_played"][0]["pairings"][0]["match"]

    assert match_of(client_for(shy).get(url)) is not None
    assert match_of(client_for(other).get(url)) is not None
    assert match_of(client_for(UserFactory()).get(url)) is None
    assert match_of(api_client.get(url)) is None


def test_the_list_and_the_detail_read_a_bounded_number_of_queries(
        client_for, django_assert_max_num_queries):
    creator = UserFactory()
    players = [UserFactory() for _ in range(6)]
    tournament = started(tournament_with(creator, players))
    for _ in range(3):
        tournament_with(creator, players[:2])
    client = client_for(players[0])
    with django_assert_max_num_queries(12):
        listed = client.get("/api/tournaments")
    assert len(listed.json()["results"]) == 4
    with django_assert_max_num_queries(14):
        client.get(f"/api/tournaments/{tournament.id}")
