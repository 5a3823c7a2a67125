"""Ladder challenges: made by a player, won or lost in a match, or left unanswered."""

from __future__ import annotations

from datetime import datetime, timedelta
from uuid import UUID

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.services.matches import match_create_seated
from games.services.moderation import Decision
from games.tournaments.exceptions import (
    ChallengeOutOfReach,
    ChallengePending,
    NotALadder,
    NotEntered,
)
from games.tournaments.formats import ladder
from games.tournaments.models import Entry, Pairing, Tournament
from games.tournaments.services.avoiding import challenge_blocks_check
from games.tournaments.services.locking import tournament_lock
from games.tournaments.services.marking import due_mark
from games.tournaments.services.settling import challenge_answered, settle
from games.tournaments.services.telling import tell_match


def ladder_order(tournament: Tournament) -> list[int]:
    """The ladder's players, top first."""
    return list(Entry.objects.filter(tournament=tournament, position__isnull=False)
                .order_by("position", "id").values_list("user_id", flat=True))


@transaction.atomic
def tournament_challenge(*, user: User, tournament_id: UUID | str, target: str) -> Pairing:
    """Challenge the player called ``target`` on a running ladder: they must be at most the
    ladder's reach above the caller, and neither may be in a challenge that is not over. The
    match starts at once, the challenger in the first seat; the challenged player has the
    ladder's challenge days to make a first move. A games block between the two refuses it
    (``challenge_blocks_check``)."""
    tournament = tournament_lock(tournament_id)
    if tournament.format != Tournament.Format.LADDER or \
            tournament.status != Tournament.Status.RUNNING:
        raise NotALadder()
    order = ladder_order(tournament)
    if user.id not in order:
        raise NotEntered()
    opponent = User.objects.filter(username=target, is_active=True).first()
    reach = tournament.challenge_reach or ladder.DEFAULT_REACH
    if opponent is None or not ladder.may_challenge(order, user.id, opponent.id, reach):
        raise ChallengeOutOfReach(reach=reach)
    challenge_blocks_check(user.id, opponent.id, ChallengeOutOfReach(reach=reach))
    running = Pairing.objects.filter(tournament=tournament, ended_at__isnull=True) \
        .values_list("players", flat=True)
    if any({user.id, opponent.id} & set(players) for players in running):
        raise ChallengePending()
    match = match_create_seated(
        created_by=user, players=[user, opponent], game=tournament.game,
        config=tournament.config, time_control=tournament.time_control,
        rated=tournament.rated, plans=tournament.plans_allowed)
    pairing = Pairing.objects.create(
        tournament=tournament, players=[user.id, opponent.id], match=match,
        expires_at=timezone.now() + timedelta(days=tournament.challenge_days or 7))
    entries = Entry.objects.filter(tournament=tournament, user__in=[user, opponent]) \
        .select_related("user")
    tell_match(tournament, entries, match, None)
    due_mark(tournament)
    tournament.save(update_fields=["due_at"])
    return pairing


def challenges_expire(tournament: Tournament, now: datetime) -> None:
    """Challenges past their expiry: one the challenged player has not answered with a move is
    won by the challenger (settled); one answered simply goes on under the match's clocks."""
    for pairing in Pairing.objects.filter(tournament=tournament, ended_at__isnull=True,
                                          expires_at__lte=now).order_by("match_id"):
        if not challenge_answered(pairing):
            settle(pairing.match_id, Decision(winners=frozenset({0})))
        else:
            pairing.expires_at = None
            pairing.save(update_fields=["expires_at"])


def challenge_count(tournament: Tournament, pairing: Pairing) -> None:
    """A challenge's result moves the ladder: a winning challenger takes the place."""
    if pairing.void or pairing.ranks is None:
        return
    challenger, target = pairing.players
    won = pairing.ranks[0] < pairing.ranks[1]
    order = ladder.after_challenge(ladder_order(tournament), challenger, target, won)
    entries = {entry.user_id: entry for entry in
               Entry.objects.filter(tournament=tournament, position__isnull=False)}
    changed = []
    for place, player in enumerate(order, start=1):
        entry = entries[player]
        if entry.position != place:
            entry.position = place
            changed.append(entry)
    Entry.objects.bulk_update(changed, ["position"])
