"""The deletion steps of the games' data, one per kind (``games.lifecycle.erasure.STEPS`` lists
them in order). Each takes the account, locked, and returns how many rows it removed or
changed; each is safe to run again on an account it has already been run on."""

from __future__ import annotations

from django.db.models import Q

from accounts.models import Block, DataExport, Follow, User
from games import movelog
from games.models import IdempotencyRecord, Match, Rating, RatingChange, UserEvent, Vacation
from games.notify.models import Delivery, NotificationSettings, PushSubscription, TurnNotice
from games.people.models import ChatLine, ChatMute, Standing
from games.services.leaving import matches_leave
from games.tournaments.models import Entry, Tournament
from games.tournaments.services.entries import tournament_leave, tournament_withdraw


def tournaments_left(user: User) -> int:
    """The player leaves every tournament not over: an entry before the start is taken back, a
    running tournament is withdrawn from (its results stay, paired no more). Before the
    matches, as every writer locks a tournament before its matches."""
    entries = list(Entry.objects.filter(user=user, withdrawn_at__isnull=True,
                                        tournament__status__in=[Tournament.Status.ENTRY,
                                                                Tournament.Status.RUNNING])
                   .select_related("tournament").order_by("tournament_id"))
    for entry in entries:
        if entry.tournament.status == Tournament.Status.ENTRY:
            tournament_leave(user=user, tournament_id=entry.tournament_id)
        else:
            tournament_withdraw(user=user, tournament_id=entry.tournament_id)
    return len(entries)


def matches_left(user: User) -> int:
    """A person's running matches are left as a resignation (the matches themselves stay, showing
    the account under its pseudonym). A guest's matches, all against bots, are deleted:
    nobody else's history holds them."""
    if user.is_guest:
        ids = list(Match.objects.filter(Q(created_by=user) | Q(seats__user=user))
                   .values_list("pk", flat=True).distinct())
        Match.objects.filter(pk__in=ids).delete()
        return len(ids)
    return len(matches_leave(user=user, reason=movelog.RESIGNED))


def ratings_forgotten(user: User) -> int:
    """Off the leaderboards: the player's ratings and their own rating history go (others'
    histories keep their rows, the matches naming the pseudonym)."""
    ratings, _ = Rating.objects.filter(user=user).delete()
    changes, _ = RatingChange.objects.filter(user=user).delete()
    return ratings + changes


def feed_forgotten(user: User) -> int:
    """The player's feed entries and what became of their notifications."""
    Delivery.objects.filter(user=user).delete()
    TurnNotice.objects.filter(user=user).delete()
    entries, _ = UserEvent.objects.filter(user=user).delete()
    return entries


def devices_forgotten(user: User) -> int:
    """Push subscriptions and notification settings (the verified address among them)."""
    devices, _ = PushSubscription.objects.filter(user=user).delete()
    settings_rows, _ = NotificationSettings.objects.filter(user=user).delete()
    return devices + settings_rows


def vacation_forgotten(user: User) -> int:
    removed, _ = Vacation.objects.filter(user=user).delete()
    return removed


def replays_forgotten(user: User) -> int:
    """The answers kept to replay the player's retried requests."""
    removed, _ = IdempotencyRecord.objects.filter(user=user).delete()
    return removed


def exports_forgotten(user: User) -> int:
    removed, _ = DataExport.objects.filter(user=user).delete()
    return removed


def follows_forgotten(user: User) -> int:
    """Whom the player follows and who follows them."""
    removed, _ = Follow.objects.filter(Q(follower=user) | Q(followed=user)).delete()
    return removed


def blocks_forgotten(user: User) -> int:
    """Whom the player blocked and who blocked them (a deleted account cannot be met again)."""
    removed, _ = Block.objects.filter(Q(blocker=user) | Q(blocked=user)).delete()
    return removed


def chat_forgotten(user: User) -> int:
    """The player's chat lines, the chats they muted and their standing with the moderators.
    A report of one of their lines keeps the copy of its text it was filed with, for the
    moderation record."""
    lines, _ = ChatLine.objects.filter(author=user).delete()
    ChatMute.objects.filter(user=user).delete()
    Standing.objects.filter(user=user).delete()
    return lines
