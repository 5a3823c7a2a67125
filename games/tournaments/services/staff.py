"""Staff actions on tournaments: create an official one, cancel one, disqualify a player,
adjust a result. Each leaves an entry in the audit log moderation keeps (``AuditEntry``), with
who did it, to what and why; the admin (games.tournaments.admin) is the only caller."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import movelog
from games.models import AuditEntry
from games.services.leaving import player_leave
from games.services.moderation import audit_record
from games.tournaments.exceptions import NotEntered, TournamentClosed
from games.tournaments.models import Entry, Pairing, Tournament
from games.tournaments.services.creation import Settings, tournament_create
from games.tournaments.services.due import advance_locked
from games.tournaments.services.locking import tournament_lock
from games.tournaments.services.rounds import final_places_set
from games.tournaments.services.telling import tell_finished
from games.tournaments.services.withdrawal import entry_withdraw


def _target(tournament: Tournament) -> str:
    return f"tournament {tournament.name} ({tournament.id})"[:200]


@transaction.atomic
def tournament_create_official(*, actor: User, settings: Settings, reason: str) -> Tournament:
    """Create the site's own tournament (``official``), as any tournament is created."""
    tournament = tournament_create(user=actor, settings=settings, official=True)
    audit_record(actor=actor, action=AuditEntry.Action.OFFICIAL, reason=reason,
                 target=_target(tournament), tournament=str(tournament.id))
    return tournament


@transaction.atomic
def tournament_cancel(*, actor: User, tournament_id: UUID | str, reason: str) -> Tournament:
    """Call off a tournament before or while it runs. Its matches under way go on as ordinary
    matches (their results no longer count); every entrant is told."""
    tournament = tournament_lock(tournament_id)
    if tournament.status not in (Tournament.Status.ENTRY, Tournament.Status.RUNNING):
        raise TournamentClosed()
    status_before = tournament.status
    tournament.status = Tournament.Status.CANCELLED
    tournament.finished_at = timezone.now()
    tournament.due_at = None
    tournament.save(update_fields=["status", "finished_at", "due_at"])
    tell_finished(tournament, Entry.objects.filter(tournament=tournament).select_related("user"))
    audit_record(actor=actor, action=AuditEntry.Action.CANCEL, reason=reason,
                 target=_target(tournament), tournament=str(tournament.id),
                 status_before=status_before)
    return tournament


@transaction.atomic
def entry_disqualify(*, actor: User, tournament_id: UUID | str, user_id: int,
                     reason: str) -> Entry:
    """Disqualify a player of a running tournament: withdrawn (told so), and each of their
    tournament matches under way left as the rules allow a player to leave it (forfeited, or
    called off before anyone moved)."""
    tournament = tournament_lock(tournament_id)
    if tournament.status != Tournament.Status.RUNNING:
        raise TournamentClosed()
    entry = Entry.objects.select_related("user").filter(tournament=tournament,
                                                        user_id=user_id).first()
    if entry is None or entry.withdrawn_at is not None:
        raise NotEntered()
    entry_withdraw(tournament, entry, Entry.Withdrawal.DISQUALIFIED)
    running = Pairing.objects.filter(tournament=tournament, ended_at__isnull=True,
                                     match__isnull=False).order_by("match_id")
    left = [str(match_id) for match_id, players in running.values_list("match_id", "players")
            if match_id is not None and user_id in players
            and player_leave(user=entry.user, match_id=match_id, reason=movelog.DISQUALIFIED)]
    advance_locked(tournament, timezone.now())
    audit_record(actor=actor, action=AuditEntry.Action.DISQUALIFY, reason=reason,
                 user=entry.user, target=_target(tournament), tournament=str(tournament.id),
                 matches=left)
    return entry


@transaction.atomic
def pairing_result_adjust(*, actor: User, pairing_id: int, ranks: Sequence[int] | None,
                          reason: str) -> Pairing:
    """Set the result a finished table counts with in the tournament: each seat's rank
    (0 first, equal ranks a tie), or None to void it (it counts for nobody). The match itself
    keeps its result; a finished tournament's places are worked out again. A ladder's order is
    left as it is."""
    pairing = Pairing.objects.get(pk=pairing_id)
    tournament = tournament_lock(pairing.tournament_id)
    pairing.refresh_from_db()
    if pairing.ended_at is None or pairing.is_bye:
        raise ValueError("Only a finished table's result is adjusted; adjudicate a running "
                         "match instead.")
    if ranks is not None and (len(ranks) != len(pairing.players)
                              or any(rank < 0 for rank in ranks)):
        raise ValueError("Give one rank (0 first) for each seat.")
    before = {"ranks": pairing.ranks, "void": pairing.void}
    pairing.ranks = list(ranks) if ranks is not None else None
    pairing.void = ranks is None
    pairing.save(update_fields=["ranks", "void"])
    if tournament.status == Tournament.Status.FINISHED:
        final_places_set(tournament)
    audit_record(actor=actor, action=AuditEntry.Action.ADJUST_RESULT, reason=reason,
                 match=pairing.match, target=_target(tournament),
                 tournament=str(tournament.id), pairing=pairing.id, before=before,
                 after={"ranks": pairing.ranks, "void": pairing.void})
    return pairing
