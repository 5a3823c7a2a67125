"""Abuse limits on bot matches: bots playing only bots are never rated, and a person keeps a
limited number of open or running matches with bots."""

from __future__ import annotations

import pytest

from games.models import Match, RatingChange
from tests.factories import BotFactory
from tests.games.helpers import create_match
from tests.games.matchplay import assert_error

pytestmark = pytest.mark.django_db

AGAINST_BOT = {"seats": [{"kind": "me"}, {"kind": "bot", "level": 1}],
               "config": {"first_seat": 0}}


@pytest.fixture
def bots():
    return [BotFactory(bot_game="nibble", bot_level=level) for level in (1, 2)]


def test_bot_only_matches_are_unrated(client_for, alice, bots):
    body = create_match(client_for(alice), seats=[{"kind": "bot", "level": 1},
                                                  {"kind": "bot", "level": 2}], rated=True)
    match = Match.objects.get(pk=body["id"])
    assert match.rated is False and body["rated"] is False
    assert not RatingChange.objects.filter(match=match).exists()


def test_a_match_against_a_bot_stays_rated(client_for, alice, bots):
    body = create_match(client_for(alice), rated=True, **AGAINST_BOT)
    assert body["rated"] is True


def test_active_bot_matches_are_capped_per_person(client_for, alice, bob, bots, settings):
    settings.MAX_ACTIVE_BOT_MATCHES = 3
    client = client_for(alice)
    made = [create_match(client, **AGAINST_BOT) for _ in range(3)]
    response = client.post("/api/matches", {"game": "nibble", **AGAINST_BOT}, format="json")
    body = assert_error(response, 409, "too_many_bot_matches")
    assert body["extra"] == {"limit": 3}
    # Matches between people are not limited, nor are other people's bot matches.
    create_match(client, seats=[{"kind": "me"}, {"kind": "open"}])
    create_match(client_for(bob), **AGAINST_BOT)
    # Once one ends, there is room again.
    assert client.post(f"/api/matches/{made[0]['id']}/abort").status_code == 200
    create_match(client, **AGAINST_BOT)
    assert Match.objects.filter(created_by=alice, seats__is_bot=True).distinct().count() == 4
