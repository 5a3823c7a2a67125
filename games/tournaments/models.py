"""Tournaments and ladders: the event, its entrants, its rounds and its pairings.

A tournament's matches are ordinary matches (``games.models.Match``): they are created,
played, timed and ended through the games services like any other. A ``Pairing`` links one
table of a round (or a ladder challenge) to its match and keeps the result the match ended
with, written by the match's own end (``services.results``); standings are computed from the
pairings (``formats.standings``), never stored.

What a tournament waits for that nobody does (its start, the "starts soon" notice, a round's
end after its set days, a challenge's expiry) is due work on its row, ``due_at``; a pairing
whose match ended and whose result the tournament has not acted on yet is due work too
(``counted`` false). The tournament sweep (``services.due``) catches both up."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.models import Match, game_choices


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss"
        ROUND_ROBIN = "round_robin"
        LADDER = "ladder"

    class Status(models.TextChoices):
        ENTRY = "entry"          # taking entries until it starts
        RUNNING = "running"
        FINISHED = "finished"
        CANCELLED = "cancelled"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=100)
    game = models.CharField(max_length=32, choices=game_choices)
    format = models.CharField(max_length=16, choices=Format.choices)
    # Seats at each table (2: pairs; 3 or 4: multiplayer tables); a ladder is for two.
    players_per_match = models.PositiveSmallIntegerField(default=2)
    # The game's options for every match, and the clock (games.clocks.control's JSON form).
    config = models.JSONField(default=dict, blank=True)
    time_control = models.JSONField()
    rated = models.BooleanField(default=True)
    plans_allowed = models.BooleanField(default=True)
    bots_allowed = models.BooleanField(default=False)
    # Created by staff: shown as the site's own event.
    official = models.BooleanField(default=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                   related_name="created_tournaments")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ENTRY)
    # Entries are taken from creation until the start.
    starts_at = models.DateTimeField()
    min_players = models.PositiveSmallIntegerField(default=2)
    max_players = models.PositiveIntegerField(null=True, blank=True)
    # Who may enter: at least this rating in the game, at least this many rated games played.
    min_rating = models.IntegerField(null=True, blank=True)
    min_games = models.PositiveIntegerField(null=True, blank=True)
    # Swiss: the number of rounds; round robin: set at the start from its schedule.
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    # A round ends when all its matches are over, or this many days after it began if sooner
    # (matches still running then go on under their own clocks); null: only when all are over.
    round_days = models.PositiveSmallIntegerField(null=True, blank=True)
    # Tournament points per placing at a full table, first place first (ties share).
    placing_points = models.JSONField(default=list)
    # Ladder: how many places above themselves a player may challenge, and how many days the
    # challenged player has to make their first move.
    challenge_reach = models.PositiveSmallIntegerField(null=True, blank=True)
    challenge_days = models.PositiveSmallIntegerField(null=True, blank=True)
    # Every random choice of the pairing derives from it (seats by lot, schedules).
    seed = models.CharField(max_length=64)
    current_round = models.PositiveSmallIntegerField(default=0)
    # Round robin: the rounds fixed at the start, as lists of tables (user ids in seat order).
    schedule = models.JSONField(null=True, blank=True)
    # The next instant the tournament has work due (see the module's docstring).
    due_at = models.DateTimeField(null=True, blank=True)
    starts_soon_sent = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-starts_at", "-created_at"]
        indexes = [
            models.Index(fields=["status", "-starts_at"], name="tournament_status_starts"),
            models.Index(fields=["game", "status", "-starts_at"],
                         name="tournament_game_status"),
            models.Index(fields=["due_at"], name="tournament_due",
                         condition=Q(due_at__isnull=False)),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(players_per_match__gte=2,
                                               players_per_match__lte=4),
                                   name="tournament_table_2_to_4"),
            models.CheckConstraint(
                condition=Q(status__in=["entry", "running", "finished", "cancelled"]),
                name="tournament_status_valid"),
            models.CheckConstraint(condition=Q(format__in=["swiss", "round_robin", "ladder"]),
                                   name="tournament_format_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.format}, {self.status})"


class Entry(models.Model):
    """A player's entry. Withdrawn players keep their entry, their results and their place in
    the standings, and are paired no more."""

    class Withdrawal(models.TextChoices):
        NONE = ""
        WITHDREW = "withdrew"          # by the player
        NO_SHOW = "no_show"            # timed out of a match without having moved in it
        DISQUALIFIED = "disqualified"  # by staff

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                             related_name="tournament_entries")
    joined_at = models.DateTimeField(auto_now_add=True)
    # Seeding: the player's rating in the game when they entered (the default for none).
    seed_rating = models.IntegerField(default=0)
    # Joined a running Swiss (with a half-point bye for the round they missed).
    late = models.BooleanField(default=False)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawal = models.CharField(max_length=16, choices=Withdrawal.choices, blank=True,
                                  default="")
    # Ladder: the place on the ladder, 1 the top; null once withdrawn.
    position = models.PositiveIntegerField(null=True, blank=True)
    # The final place, set when the tournament finishes.
    final_rank = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "-seed_rating", "joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="entry_unique_user"),
        ]
        indexes = [models.Index(fields=["user", "-joined_at"], name="entry_user_history")]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.tournament_id}"

    @property
    def active(self) -> bool:
        return self.withdrawn_at is None


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField()
    # When it ends at the latest (round_days after it began); null: when all matches are over.
    ends_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number"),
        ]

    def __str__(self) -> str:
        return f"round {self.number} of {self.tournament_id}"


class Pairing(models.Model):
    """One table of a round, a bye, or a ladder challenge (no round; the challenger sits
    first), with the result its match ended with."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="pairings")
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="pairings")
    # The players' user ids in seat order (a bye: the one player).
    players = models.JSONField()
    match = models.OneToOneField(Match, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="pairing")
    # A bye and the points it is worth (a full bye a win's worth, a late entrant's half).
    bye_points = models.FloatField(null=True, blank=True)
    # Each seat's final rank at the table (0 first; ties equal), set when the match ends.
    ranks = models.JSONField(null=True, blank=True)
    # Counts for nobody: the match was called off (not by a timeout), or staff voided it.
    void = models.BooleanField(default=False)
    # Players who timed out of the match without having moved in it (withdrawn for it).
    no_shows = models.JSONField(default=list, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    # The tournament has acted on the result (no-shows withdrawn, the ladder moved): until
    # then the pairing is due work for the tournament sweep.
    counted = models.BooleanField(default=False)
    # Ladder challenges: the challenged player must have moved by then.
    expires_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "round__number", "id"]
        indexes = [
            models.Index(fields=["ended_at"], name="pairing_uncounted",
                         condition=Q(counted=False, ended_at__isnull=False)),
            models.Index(fields=["tournament", "ended_at"], name="pairing_tournament_open",
                         condition=Q(ended_at__isnull=True)),
        ]

    def __str__(self) -> str:
        return f"pairing {self.id} of {self.tournament_id}"

    @property
    def is_bye(self) -> bool:
        return self.bye_points is not None
