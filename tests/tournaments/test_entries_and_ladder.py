"""Entering and leaving, each refusal coded; withdrawal, no-shows and settling; late join;
round robin and multiplayer tables; the ladder's challenges."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.blocks import block_set
from accounts.exceptions import GuestNotAllowed, PlayerBlocked
from games.models import Match, Rating, UserEvent
from games.services import match_resign
from games.services.deadlines import deadlines_sweep
from games.tournaments.exceptions import (
    AlreadyEntered,
    BotsNotAllowed,
    ChallengeOutOfReach,
    ChallengePending,
    InvalidTournament,
    LeaveNotAllowed,
    NotEnoughGames,
    NotEntered,
    RatingTooLow,
    TournamentClosed,
    TournamentFull,
)
from games.tournaments.models import Entry, Pairing, Tournament
from games.tournaments.services.creation import tournament_create
from games.tournaments.services.due import tournament_advance
from games.tournaments.services.entries import (
    tournament_join,
    tournament_leave,
    tournament_withdraw,
)
from games.tournaments.services.ladder import ladder_order, tournament_challenge
from tests.factories import BotFactory, UserFactory
from tests.games.helpers import auto_vacation_off
from tests.tournaments.helpers import (
    running_pairings,
    settings_for,
    started,
    tournament_with,
    win,
)

pytestmark = pytest.mark.django_db


def test_each_refusal_to_enter_is_coded_and_changes_nothing():
    creator = UserFactory()
    tournament = tournament_with(creator, [UserFactory()], max_players=2, min_rating=1400,
                                 min_games=0)
    first = Entry.objects.get(tournament=tournament)
    with pytest.raises(AlreadyEntered):
        tournament_join(user=first.user, tournament_id=tournament.id)
    low = UserFactory()
    Rating.objects.create(user=low, game="nibble", mu=10, sigma=3, display=1300)
    with pytest.raises(RatingTooLow) as refused:
        tournament_join(user=low, tournament_id=tournament.id)
    assert refused.value.extra == {"min_rating": 1400, "rating": 1300}
    tournament_join(user=UserFactory(), tournament_id=tournament.id)
    with pytest.raises(TournamentFull):
        tournament_join(user=UserFactory(), tournament_id=tournament.id)
    guest = UserFactory(is_guest=True)
    with pytest.raises(GuestNotAllowed):
        tournament_join(user=guest, tournament_id=tournament.id)
    with pytest.raises(BotsNotAllowed):
        tournament_join(user=creator, tournament_id=tournament.id, bot_level=1)
    assert Entry.objects.filter(tournament=tournament).count() == 2


def test_too_few_games_and_a_closed_tournament_are_refused():
    creator = UserFactory()
    tournament = tournament_with(creator, [], min_games=3)
    with pytest.raises(NotEnoughGames):
        tournament_join(user=UserFactory(), tournament_id=tournament.id)
    tournament = tournament_with(creator, [UserFactory(), UserFactory()], rounds=2)
    started(tournament)
    with pytest.raises(TournamentClosed):
        tournament_join(user=UserFactory(), tournament_id=tournament.id)


def test_bad_settings_name_the_field():
    with pytest.raises(InvalidTournament) as refused:
        tournament_create(user=UserFactory(), settings=settings_for(rounds=0))
    assert refused.value.extra["field"] == "rounds"
    with pytest.raises(InvalidTournament) as refused:
        tournament_create(user=UserFactory(), settings=settings_for(format="ladder",
                                                                    rounds=None,
                                                                    players_per_match=3))
    assert refused.value.extra["field"] == "players_per_match"
    with pytest.raises(InvalidTournament) as refused:
        tournament_create(user=UserFactory(), settings=settings_for(
            game="nimalia", players_per_match=3, placing_points=[1, 2, 0]))
    assert refused.value.extra["field"] == "placing_points"
    assert not Tournament.objects.exists()


def test_leaving_before_the_start_and_withdrawing_after():
    creator = UserFactory()
    players = [UserFactory() for _ in range(3)]
    tournament = tournament_with(creator, players)
    tournament_leave(user=players[2], tournament_id=tournament.id)
    with pytest.raises(NotEntered):
        tournament_leave(user=players[2], tournament_id=tournament.id)
    started(tournament)
    with pytest.raises(LeaveNotAllowed):
        tournament_leave(user=players[0], tournament_id=tournament.id)
    tournament_withdraw(user=players[0], tournament_id=tournament.id)
    assert UserEvent.objects.filter(user=players[0],
                                    type=UserEvent.Type.TOURNAMENT_WITHDRAWN).exists()
    with pytest.raises(NotEntered):
        tournament_withdraw(user=players[0], tournament_id=tournament.id)


def test_a_match_between_withdrawn_players_is_settled_at_once_and_the_round_moves_on():
    creator = UserFactory()
    players = [UserFactory() for _ in range(4)]
    by_id = {player.id: player for player in players}
    tournament = started(tournament_with(creator, players, rounds=2))
    first, second = running_pairings(tournament)
    win(first, by_id)
    for player_id in second.players:
        tournament_withdraw(user=by_id[player_id], tournament_id=tournament.id)
    second.refresh_from_db()
    assert second.ended_at is not None and second.ranks == [1, 1]
    second.match.refresh_from_db()
    assert second.match.status == Match.Status.FINISHED
    assert second.match.outcome["reason"] == "settled" and not second.match.rated
    tournament.refresh_from_db()
    # Round 2 pairs the two still in.
    assert tournament.current_round == 2
    (pairing,) = running_pairings(tournament)
    assert set(pairing.players) == set(first.players)


def test_a_player_who_times_out_without_moving_is_withdrawn():
    creator = UserFactory()
    players = [UserFactory() for _ in range(2)]
    auto_vacation_off(*players)
    tournament = started(tournament_with(creator, players, rounds=2))
    (pairing,) = running_pairings(tournament)
    match = pairing.match
    late = match.deadline + timedelta(seconds=1)
    deadlines_sweep(now=late)
    pairing.refresh_from_db()
    on_turn = match.actors[0]
    assert pairing.no_shows == [pairing.players[on_turn]]
    assert pairing.ranks == [1 if seat == on_turn else 0 for seat in (0, 1)]
    tournament_advance(tournament_id=tournament.id, now=late)
    entry = Entry.objects.get(tournament=tournament, user_id=pairing.players[on_turn])
    assert entry.withdrawal == Entry.Withdrawal.NO_SHOW
    tournament.refresh_from_db()
    # Round 2 has one player left: a bye, and the tournament is over.
    assert tournament.status == Tournament.Status.FINISHED


def test_a_late_entrant_gets_a_half_point_bye_until_half_the_rounds_have_started():
    creator = UserFactory()
    tournament = started(tournament_with(creator, [UserFactory(), UserFactory()], rounds=3))
    late = UserFactory()
    entry = tournament_join(user=late, tournament_id=tournament.id)
    assert entry.late
    bye = Pairing.objects.get(tournament=tournament, players=[late.id])
    assert bye.bye_points == 0.5 and bye.round.number == 1
    tournament.current_round = 2
    tournament.save(update_fields=["current_round"])
    with pytest.raises(TournamentClosed):
        tournament_join(user=UserFactory(), tournament_id=tournament.id)


def test_a_round_robin_plays_every_pair_once():
    creator = UserFactory()
    players = [UserFactory() for _ in range(3)]
    by_id = {player.id: player for player in players}
    tournament = started(tournament_with(creator, players, format="round_robin", rounds=None))
    assert tournament.rounds == 3 and tournament.max_players == 10
    met = []
    for _ in range(3):
        for pairing in running_pairings(tournament):
            met.append(frozenset(pairing.players))
            win(pairing, by_id)
        tournament_advance(tournament_id=tournament.id)
    assert len(met) == 3 and len(set(met)) == 3
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_a_multiplayer_swiss_seats_tables_and_scores_placings():
    creator = UserFactory()
    players = [UserFactory() for _ in range(5)]
    tournament = started(tournament_with(creator, players, game="nimalia",
                                         players_per_match=3, rounds=1,
                                         placing_points=[5, 2, 0]))
    tables = running_pairings(tournament)
    assert sorted(len(pairing.players) for pairing in tables) == [2, 3]
    by_id = {player.id: player for player in players}
    for pairing in tables:
        for player_id in pairing.players[1:]:
            match_resign(user=by_id[player_id], match_id=pairing.match_id)
    tournament_advance(tournament_id=tournament.id)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    winners = {pairing.players[0] for pairing in tables}
    firsts = Entry.objects.filter(tournament=tournament, final_rank=1)
    assert {entry.user_id for entry in firsts} <= winners


def test_the_ladder_challenge_moves_the_winner_up_and_refuses_out_of_reach():
    creator = UserFactory()
    players = [UserFactory() for _ in range(5)]
    by_id = {player.id: player for player in players}
    tournament = started(tournament_with(creator, players, format="ladder", rounds=None,
                                         challenge_reach=2))
    order = ladder_order(tournament)
    assert order == [player.id for player in players]
    bottom = by_id[order[4]]
    with pytest.raises(ChallengeOutOfReach):
        tournament_challenge(user=bottom, tournament_id=tournament.id,
                             target=by_id[order[0]].username)
    pairing = tournament_challenge(user=bottom, tournament_id=tournament.id,
                                   target=by_id[order[2]].username)
    with pytest.raises(ChallengePending):
        tournament_challenge(user=by_id[order[3]], tournament_id=tournament.id,
                             target=by_id[order[2]].username)
    win(pairing, by_id, winner_seat=0)
    tournament_advance(tournament_id=tournament.id)
    assert ladder_order(tournament) == [order[0], order[1], order[4], order[2], order[3]]
    newcomer = UserFactory()
    tournament_join(user=newcomer, tournament_id=tournament.id)
    assert ladder_order(tournament)[-1] == newcomer.id


def test_an_unanswered_challenge_expires_as_a_win_for_the_challenger():
    creator = UserFactory()
    players = [UserFactory() for _ in range(2)]
    tournament = started(tournament_with(creator, players, format="ladder", rounds=None,
                                         challenge_days=3, time_control={
                                             "kind": "per_move", "turn_seconds": 5 * 86400}))
    order = ladder_order(tournament)
    by_id = {player.id: player for player in players}
    pairing = tournament_challenge(user=by_id[order[1]], tournament_id=tournament.id,
                                   target=by_id[order[0]].username)
    tournament.refresh_from_db()
    assert tournament.due_at == pairing.expires_at
    tournament_advance(tournament_id=tournament.id,
                       now=timezone.now() + timedelta(days=3, seconds=5))
    pairing.refresh_from_db()
    assert pairing.ranks == [1, 2] and pairing.counted
    assert ladder_order(tournament) == [order[1], order[0]]


def test_bots_enter_where_the_creator_allows_them():
    creator = UserFactory()
    bot = BotFactory(bot_game="nibble", bot_level=1)
    tournament = tournament_with(creator, [UserFactory()], bots_allowed=True)
    entry = tournament_join(user=creator, tournament_id=tournament.id, bot_level=1)
    assert entry.user == bot
    with pytest.raises(BotsNotAllowed):
        tournament_join(user=UserFactory(), tournament_id=tournament.id, bot_level=1)


def test_a_ladder_challenge_across_a_games_block_is_refused_revealing_nothing():
    creator = UserFactory()
    players = [UserFactory() for _ in range(3)]
    by_id = {player.id: player for player in players}
    tournament = started(tournament_with(creator, players, format="ladder", rounds=None))
    top, middle, bottom = (by_id[player] for player in ladder_order(tournament))
    block_set(user=top, other=bottom, games=True, chat=False)
    # The blocked challenger hears what a player out of reach would hear.
    with pytest.raises(ChallengeOutOfReach) as refused:
        tournament_challenge(user=bottom, tournament_id=tournament.id, target=top.username)
    assert refused.value.extra == {"reach": 3}
    # The blocker is told why.
    block_set(user=bottom, other=middle, games=True, chat=False)
    with pytest.raises(PlayerBlocked):
        tournament_challenge(user=bottom, tournament_id=tournament.id, target=middle.username)
    assert not Pairing.objects.filter(tournament=tournament).exists()
    # A chat-only block keeps nobody from a challenge.
    block_set(user=bottom, other=middle, games=False, chat=True)
    pairing = tournament_challenge(user=bottom, tournament_id=tournament.id,
                                   target=middle.username)
    assert pairing.players == [bottom.id, middle.id]
