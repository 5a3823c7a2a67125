"""A tournament's life through its services: entries, start, rounds paired and played, the
result reaching the standings through the match's own end, the finish and each place."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Match, UserEvent
from games.tournaments.models import Entry, Pairing, Tournament
from games.tournaments.services import avoiding
from games.tournaments.services.due import tournament_advance, tournaments_sweep
from tests.factories import UserFactory
from tests.tournaments.helpers import running_pairings, started, tournament_with, win

pytestmark = pytest.mark.django_db


def test_a_four_player_swiss_runs_three_rounds_and_finishes_with_places():
    creator = UserFactory()
    players = [UserFactory() for _ in range(4)]
    by_id = {player.id: player for player in players}
    tournament = started(tournament_with(creator, players))
    assert tournament.status == Tournament.Status.RUNNING
    met = set()
    for number in (1, 2, 3):
        tournament.refresh_from_db()
        assert tournament.current_round == number
        pairings = running_pairings(tournament)
        assert len(pairings) == 2
        for pairing in pairings:
            pair = frozenset(pairing.players)
            assert pair not in met
            met.add(pair)
            win(pairing, by_id)
        # The match's end asks for the tournament to move on after commit; the sweep would too.
        tournament_advance(tournament_id=tournament.id)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    places = sorted(Entry.objects.filter(tournament=tournament)
                    .values_list("final_rank", flat=True))
    assert places[0] == 1
    told = UserEvent.objects.filter(type=UserEvent.Type.TOURNAMENT_FINISHED)
    assert told.count() == 4
    assert UserEvent.objects.filter(type=UserEvent.Type.TOURNAMENT_ROUND).count() == 12


def test_too_few_players_cancel_it_at_the_start():
    creator = UserFactory()
    tournament = started(tournament_with(creator, [UserFactory()], min_players=2))
    assert tournament.status == Tournament.Status.CANCELLED


def test_the_sweep_starts_a_tournament_whose_start_has_come():
    creator = UserFactory()
    tournament = tournament_with(creator, [UserFactory(), UserFactory()])
    assert tournaments_sweep(now=timezone.now())["advanced"] == 0
    done = tournaments_sweep(now=tournament.starts_at + timedelta(seconds=1))
    assert done["advanced"] == 1
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert Match.objects.filter(pairing__tournament=tournament).count() == 1


def test_an_odd_field_gives_the_bye_and_nobody_twice():
    creator = UserFactory()
    players = [UserFactory() for _ in range(5)]
    by_id = {player.id: player for player in players}
    tournament = started(tournament_with(creator, players))
    byes = []
    for _ in range(3):
        tournament.refresh_from_db()
        bye = Pairing.objects.get(tournament=tournament, round__number=tournament.current_round,
                                  bye_points__isnull=False)
        byes.append(bye.players[0])
        for pairing in running_pairings(tournament):
            win(pairing, by_id)
        tournament_advance(tournament_id=tournament.id)
    assert len(set(byes)) == 3
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_a_result_whose_task_was_lost_is_caught_up_by_the_sweep():
    creator = UserFactory()
    players = [UserFactory() for _ in range(2)]
    by_id = {player.id: player for player in players}
    tournament = started(tournament_with(creator, players, rounds=1))
    (pairing,) = running_pairings(tournament)
    # In a test the after-commit task never runs: as if its message were lost.
    win(pairing, by_id)
    pairing.refresh_from_db()
    assert pairing.ended_at is not None and not pairing.counted
    assert tournaments_sweep(now=timezone.now())["advanced"] == 1
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert tournaments_sweep(now=timezone.now())["advanced"] == 0


def test_a_round_ends_after_its_days_and_the_next_pairs_those_still_playing_apart():
    creator = UserFactory()
    players = [UserFactory() for _ in range(4)]
    by_id = {player.id: player for player in players}
    tournament = started(tournament_with(creator, players, rounds=2, round_days=3))
    first, slow = running_pairings(tournament)
    win(first, by_id)
    tournament_advance(tournament_id=tournament.id)
    tournament.refresh_from_db()
    assert tournament.current_round == 1
    assert tournament.due_at == tournament.round_set.get(number=1).ends_at
    later = tournament.due_at + timedelta(seconds=1)
    tournaments_sweep(now=later)
    tournament.refresh_from_db()
    assert tournament.current_round == 2
    second_round = [frozenset(p.players) for p in Pairing.objects.filter(
        tournament=tournament, round__number=2)]
    assert frozenset(slow.players) not in second_round
    assert frozenset(first.players) not in second_round


def test_pairs_a_registered_source_avoids_are_kept_apart(monkeypatch):
    creator = UserFactory()
    players = [UserFactory() for _ in range(4)]
    kept_apart = frozenset({players[0].id, players[1].id})
    monkeypatch.setattr(avoiding, "_sources", [])
    avoiding.avoided_pairs_register(lambda ids: frozenset({kept_apart}))
    tournament = started(tournament_with(creator, players, rounds=3))
    assert all(frozenset(pairing.players) != kept_apart
               for pairing in running_pairings(tournament))
