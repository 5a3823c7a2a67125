"""Opponents see that a player is on vacation, and nothing more of it: each seat's
``on_vacation`` in a match's detail, lists, inbox and invitations, and ``on_vacation`` in the
player's profile; a person's running vacation only (a bot never), from its start until it ends
by hand or by the sweep when the bank is used up. The detail's ETag changes with it, and
reading it costs no query more."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games.models import Vacation
from games.services.bots import bot_account_ensure
from games.services.vacations import vacation_end, vacation_start, vacations_sweep
from tests.games.apis.test_query_counts import DETAIL_QUERIES, LIST_QUERIES
from tests.games.helpers import create_match
from tests.games.matchplay import match_url

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _away(body: dict) -> list[bool]:
    return [seat["on_vacation"] for seat in body["seats"]]


def test_the_detail_shows_who_is_away_and_its_etag_follows(nibble, bob):
    first = nibble.a.get(match_url(nibble.id))
    assert _away(first.json()) == [False, False]
    vacation_start(user=bob)
    # The old ETag no longer matches: the answer is new, with bob's seat marked.
    changed = nibble.a.get(match_url(nibble.id), headers={"If-None-Match": first["ETag"]})
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert _away(changed.json()) == [False, True]
    # Nothing else of the vacation is in the seat, for the opponent or for bob himself.
    assert set(changed.json()["seats"][1]) == set(first.json()["seats"][1])
    assert _away(nibble.detail(nibble.b)) == [False, True]
    same = nibble.a.get(match_url(nibble.id), headers={"If-None-Match": changed["ETag"]})
    assert same.status_code == 304 and same["ETag"] == changed["ETag"]
    vacation_end(user=bob)
    back = nibble.a.get(match_url(nibble.id), headers={"If-None-Match": changed["ETag"]})
    assert back.status_code == 200 and back["ETag"] != changed["ETag"]
    assert _away(back.json()) == [False, False]


def test_lists_inbox_and_invitations_show_it(client_for, alice, bob, carol, nibble):
    vacation_start(user=bob)
    a = client_for(alice)
    invited = create_match(client_for(carol), seats=[{"kind": "me"},
                                                     {"kind": "user", "username": "bob"},
                                                     {"kind": "user", "username": "alice"}],
                           game="nimble")
    listed = {m["id"]: _away(m) for m in a.get("/api/matches").json()["results"]}
    assert listed == {nibble.id: [False, True], invited["id"]: [False, True, False]}
    assert {m["id"]: _away(m) for m in a.get("/api/me/inbox").json()} == listed
    assert [_away(m) for m in a.get("/api/me/invitations").json()] == [[False, True, False]]
    assert _away(invited) == [False, True, False]  # the answer to the creation too
    everything = a.get("/api/matches?scope=all").json()["results"]
    assert {m["id"]: _away(m) for m in everything} == listed


def test_a_bot_is_never_shown_on_vacation(client_for, alice):
    bot = bot_account_ensure("nibble", 1)
    vacation_start(user=bot)  # a bot cannot ask for it; even a stored one is not shown
    assert Vacation.objects.get(user=bot).bank["since"] is not None
    a = client_for(alice)
    created = create_match(a, seats=[{"kind": "me"}, {"kind": "bot", "level": 1}])
    assert _away(created) == [False, False]
    assert _away(a.get(match_url(created["id"])).json()) == [False, False]
    assert _away(a.get("/api/me/inbox").json()[0]) == [False, False]
    assert a.get(f"/api/players/{bot.username}").json()["on_vacation"] is False


def test_the_player_profile_shows_it_to_everyone(client_for, api_client, alice, bob):
    url = "/api/players/bob"
    assert client_for(alice).get(url).json()["on_vacation"] is False
    vacation_start(user=bob)
    for client in (client_for(alice), api_client, client_for(bob)):
        body = client.get(url).json()
        assert body["on_vacation"] is True
        assert not {"since", "left_seconds", "runs_out_at", "warning_due_at"} & set(body)
    assert client_for(bob).get("/api/me").json()["on_vacation"] is True
    vacation_end(user=bob)
    assert api_client.get(url).json()["on_vacation"] is False


def test_a_vacation_that_used_up_the_bank_is_shown_until_it_ends(client_for, alice, bob,
                                                                  settings):
    settings.VACATION_STARTING_DAYS = 1
    with time_machine.travel(T0, tick=False):
        match = create_match(client_for(alice), seats=[{"kind": "me"},
                                                      {"kind": "user", "username": "bob"}])
        vacation_start(user=bob)
        assert _away(client_for(alice).get(match_url(match["id"])).json()) == [False, True]
    later = T0 + timedelta(days=1, minutes=1)
    with time_machine.travel(later, tick=False):
        assert vacations_sweep(now=later)["ended"] == 1
        a = client_for(alice)
        assert _away(a.get(match_url(match["id"])).json()) == [False, False]
        assert a.get("/api/players/bob").json()["on_vacation"] is False


def test_a_player_on_vacation_who_joins_is_shown_in_the_answer(client_for, alice, bob):
    match = create_match(client_for(alice))  # seat 1 open
    vacation_start(user=bob)
    joined = client_for(bob).post(match_url(match["id"], "join"))
    assert joined.status_code == 200
    assert _away(joined.json()) == [False, True]


def test_showing_it_costs_no_query_more(client_for, alice, bob, carol, nibble,
                                        django_assert_max_num_queries):
    vacation_start(user=bob)
    vacation_start(user=carol)
    create_match(client_for(carol), game="nimble", players=3,
                 seats=[{"kind": "me"}, {"kind": "user", "username": "alice"},
                        {"kind": "user", "username": "bob"}])
    a = client_for(alice)
    with django_assert_max_num_queries(DETAIL_QUERIES):
        assert _away(a.get(match_url(nibble.id)).json()) == [False, True]
    for path in ("/api/matches", "/api/me/inbox"):
        with django_assert_max_num_queries(LIST_QUERIES):
            assert a.get(path).status_code == 200
    # The profile: the token, the player with whether they are away, their ratings.
    with django_assert_max_num_queries(3):
        assert a.get("/api/players/bob").json()["on_vacation"] is True
