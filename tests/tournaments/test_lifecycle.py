"""A tournament's life through its services: entries, start, rounds paired and played, the
result reaching the standings through the match's own end, the finish and each place."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.blocks import block_set
from games.catalog import get_engine
from games.kit.plans import PlansUnavailable
from games.models import Match, UserEvent
from games.services.plans import plan_save
from games.tournaments.models import Entry, Pairing, Tournament
from games.tournaments.services.due import tournament_advance, tournaments_sweep
from games.tournaments.services.ladder import ladder_order, tournament_challenge
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


@pytest.mark.parametrize("games_switch", [True, False])
def test_a_games_block_keeps_two_players_apart_in_every_swiss_round(games_switch):
    creator = UserFactory()
    players = [UserFactory() for _ in range(4)]
    by_id = {player.id: player for player in players}
    block_set(user=players[1], other=players[0], games=games_switch, chat=True)
    kept_apart = frozenset({players[0].id, players[1].id})
    tournament = started(tournament_with(creator, players, rounds=3))
    met = []
    for _ in range(3):
        tournament.refresh_from_db()
        for pairing in running_pairings(tournament):
            met.append(frozenset(pairing.players))
            win(pairing, by_id)
        tournament_advance(tournament_id=tournament.id)
    # Three rounds of four players meet every pair once unless one pair is kept apart: then
    # the field forces a repeat instead.
    assert (kept_apart in met) is not games_switch


@pytest.mark.parametrize("plans", [True, False])
def test_the_plans_setting_reaches_every_match_and_forbidding_them_refuses_a_plan(plans):
    nibble = get_engine("nibble")
    creator = UserFactory()
    players = [UserFactory() for _ in range(2)]
    by_id = {player.id: player for player in players}
    for tournament in (started(tournament_with(creator, players, plans_allowed=plans)),
                       started(tournament_with(creator, players, plans_allowed=plans,
                                               format="ladder", rounds=None))):
        if tournament.format == "ladder":
            order = ladder_order(tournament)
            tournament_challenge(user=by_id[order[1]], tournament_id=tournament.id,
                                 target=by_id[order[0]].username)
        (pairing,) = running_pairings(tournament)
        match = pairing.match
        assert match.plans_allowed is plans
        waiting = match.seats.exclude(index=match.actors[0]).get()
        first = nibble.legal_moves(nibble.load(match.state), match.actors[0])[0]
        tree = [{"on": nibble.dump_move(first)}]
        if plans:
            assert plan_save(user=waiting.user, match_id=match.id, tree=tree,
                             expected_version=match.version).tree
        else:
            with pytest.raises(PlansUnavailable):
                plan_save(user=waiting.user, match_id=match.id, tree=tree,
                          expected_version=match.version)


def test_a_games_block_keeps_two_players_from_sharing_a_table_of_three():
    creator = UserFactory()
    players = [UserFactory() for _ in range(6)]
    block_set(user=players[0], other=players[1], games=True, chat=False)
    tournament = started(tournament_with(creator, players, game="nimalia",
                                         players_per_match=3, rounds=2))
    tables = [set(pairing.players) for pairing in running_pairings(tournament)]
    assert sorted(len(table) for table in tables) == [3, 3]
    # The seeding would seat the first three together; the block moves one of them.
    assert not any({players[0].id, players[1].id} <= table for table in tables)
