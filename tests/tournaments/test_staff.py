"""Staff actions on tournaments in the admin: an official tournament, cancel, disqualify,
adjust a result; each through its confirmation page with a reason, each in the audit log, and
refused to anyone without the moderate permission."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.catalog import get_engine
from games.models import AuditEntry, Match, UserEvent
from games.services import match_move_submit
from games.tournaments.models import Entry, Pairing, Tournament
from games.tournaments.services.due import tournament_advance
from tests.factories import UserFactory
from tests.tournaments.helpers import running_pairings, started, tournament_with, win

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(db):
    client = Client()
    client.force_login(UserFactory(username="mod", is_staff=True, is_superuser=True))
    return client


def test_an_official_tournament_is_created_with_a_reason(staff_client):
    url = reverse("admin:tournaments_tournament_official")
    assert staff_client.get(url).status_code == 200
    starts = (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%d %H:%M")
    page = staff_client.post(url, {
        "name": "Boardpost Cup", "game": "nibble", "format": "swiss", "starts_at": starts,
        "days_per_turn": 3, "settings": '{"rounds": 7, "max_players": 64}',
        "reason": "the monthly cup", "confirm": "yes"})
    assert page.status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.official and tournament.rounds == 7
    entry = AuditEntry.objects.get(action=AuditEntry.Action.OFFICIAL)
    assert entry.reason == "the monthly cup" and entry.data["tournament"] == str(tournament.id)


def test_staff_without_the_permission_are_refused():
    client = Client()
    client.force_login(UserFactory(is_staff=True))
    assert client.get(reverse("admin:tournaments_tournament_official")).status_code == 403


def test_cancel_tells_every_entrant_and_is_audited(staff_client):
    players = [UserFactory(), UserFactory()]
    tournament = started(tournament_with(UserFactory(), players))
    page = staff_client.post(reverse("admin:tournaments_tournament_changelist"), {
        "action": "cancel_tournaments", "_selected_action": [str(tournament.id)],
        "reason": "spam", "confirm": "yes"})
    assert page.status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED and tournament.due_at is None
    told = UserEvent.objects.filter(type=UserEvent.Type.TOURNAMENT_FINISHED)
    assert {event.user_id for event in told} == {player.id for player in players}
    assert all(event.data["cancelled"] for event in told)
    assert AuditEntry.objects.filter(action=AuditEntry.Action.CANCEL).count() == 1


def test_a_disqualified_player_forfeits_their_match_and_is_withdrawn(staff_client):
    players = [UserFactory(), UserFactory()]
    by_id = {player.id: player for player in players}
    tournament = started(tournament_with(UserFactory(), players, rounds=2))
    (pairing,) = running_pairings(tournament)
    # A move first, so the match is forfeited rather than called off.
    match = pairing.match
    mover = match.actors[0]
    engine = get_engine(match.game)
    move = engine.dump_move(engine.legal_moves(engine.load(match.state), mover)[0])
    match_move_submit(user=by_id[pairing.players[mover]], match_id=match.id, move=move)
    cheat = Entry.objects.get(tournament=tournament, user_id=pairing.players[1 - mover])
    page = staff_client.post(reverse("admin:tournaments_entry_changelist"), {
        "action": "disqualify_entries", "_selected_action": [str(cheat.pk)],
        "reason": "engine use", "confirm": "yes"})
    assert page.status_code == 302
    cheat.refresh_from_db()
    assert cheat.withdrawal == Entry.Withdrawal.DISQUALIFIED
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.seats.get(user_id=cheat.user_id).forfeit_reason == "disqualified"
    entry = AuditEntry.objects.get(action=AuditEntry.Action.DISQUALIFY)
    assert entry.target_user_id == cheat.user_id and entry.data["matches"] == [str(match.id)]


def test_adjusting_a_result_changes_the_final_places(staff_client):
    players = [UserFactory(), UserFactory()]
    by_id = {player.id: player for player in players}
    tournament = started(tournament_with(UserFactory(), players, rounds=1))
    (pairing,) = running_pairings(tournament)
    win(pairing, by_id, winner_seat=0)
    tournament_advance(tournament_id=tournament.id)
    winner = Entry.objects.get(tournament=tournament, user_id=pairing.players[0])
    assert winner.final_rank == 1
    url = reverse("admin:tournaments_pairing_adjust", args=[pairing.pk])
    assert staff_client.get(url).status_code == 200
    page = staff_client.post(url, {"ranks": "1, 0", "reason": "appeal upheld",
                                   "confirm": "yes"})
    assert page.status_code == 302
    winner.refresh_from_db()
    assert winner.final_rank == 2
    entry = AuditEntry.objects.get(action=AuditEntry.Action.ADJUST_RESULT)
    assert entry.data["before"]["ranks"] == [1, 2] and entry.data["after"]["ranks"] == [1, 0]
    running = Pairing.objects.get(pk=pairing.pk)
    assert running.ranks == [1, 0]
