"""A match ending while its tournament moves on, on PostgreSQL: the tournament's transaction
locks the tournament, then the match; the match's end writes its pairing alone. So one waits
for the other, neither deadlocks, and the tournament sees the match's own result."""

from __future__ import annotations

import threading

import pytest
from django.db import transaction

from games.models import Match
from games.services import match_lock, match_resign
from games.tournaments.models import Pairing
from games.tournaments.services.entries import tournament_withdraw
from tests.factories import UserFactory
from tests.ops.test_moderation_races import in_thread, wait_until_someone_waits_for_a_lock
from tests.tournaments.helpers import running_pairings, started, tournament_with

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.needs_postgresql("real row-lock concurrency needs PostgreSQL"),
]


def test_a_withdrawal_waits_for_the_match_ending_and_counts_its_result():
    players = [UserFactory(), UserFactory()]
    tournament = started(tournament_with(UserFactory(), players, rounds=2))
    (pairing,) = running_pairings(tournament)
    quitter, stayer = players
    tournament_withdraw(user=quitter, tournament_id=tournament.id)
    locked, release = threading.Event(), threading.Event()
    results: dict[str, object] = {}

    def resign_holding_the_lock() -> object:
        with transaction.atomic():
            match_lock(match_id=pairing.match_id)
            locked.set()
            assert release.wait(30)
            return match_resign(user=quitter, match_id=pairing.match_id)

    ending = in_thread(resign_holding_the_lock, results, "resign")
    assert locked.wait(30)
    # The last player in withdraws: the tournament would settle the match, and waits for it.
    leaving = in_thread(lambda: tournament_withdraw(user=stayer, tournament_id=tournament.id),
                        results, "withdraw")
    wait_until_someone_waits_for_a_lock()
    release.set()
    ending.join(30)
    leaving.join(30)
    assert not isinstance(results["resign"], BaseException), results["resign"]
    assert not isinstance(results["withdraw"], BaseException), results["withdraw"]
    pairing.refresh_from_db()
    match = Match.objects.get(pk=pairing.match_id)
    assert match.outcome["reason"] != "settled"
    stayer_seat = pairing.players.index(stayer.id)
    assert pairing.ranks[stayer_seat] < pairing.ranks[1 - stayer_seat]
    assert Pairing.objects.get(pk=pairing.pk).counted
