"""Matches, their seats, the append-only log of every recorded transition, and ratings."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.catalog import engines


def game_choices() -> list[tuple[str, str]]:
    return [(slug, engine.name) for slug, engine in sorted(engines().items())]


class Match(models.Model):
    class Status(models.TextChoices):
        OPEN = "open"
        ACTIVE = "active"
        FINISHED = "finished"
        ABORTED = "aborted"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    game = models.CharField(max_length=32, choices=game_choices)
    config = models.JSONField(default=dict)
    num_players = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    rated = models.BooleanField(default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_matches"
    )
    # Secret until the match ends; every random choice of the engine derives from it.
    seed = models.CharField(max_length=64)
    # The engine state snapshot (engine.dump), so reads never replay; null until the start.
    state = models.JSONField(null=True, blank=True)
    # +1 per recorded transition; Move.seq equals the version that move produced.
    version = models.PositiveIntegerField(default=0)
    # Seats that may act now (engine.actors), kept with the snapshot for lists and the inbox.
    actors = models.JSONField(default=list, blank=True)
    outcome = models.JSONField(null=True, blank=True)
    # The time control, as games.clocks.control.dump writes it ({"kind": "per_move", ...} or
    # {"kind": "bank", ...}); null for a casual match without a clock.
    time_control = models.JSONField(null=True, blank=True)
    # Each seat's clock, as games.clocks.clock.dump_clocks writes it (a list, one per seat);
    # null exactly when time_control is. Changed only by the recording path
    # (games.services.clocks), after every transition.
    clocks = models.JSONField(null=True, blank=True)
    # The instant the deadline sweep waits for: the soonest of the seats' deadlines
    # (games.clocks.clock.soonest_deadline), or a real-time race's idle limit; null when no
    # clock runs.
    deadline = models.DateTimeField(null=True, blank=True)
    # The seats' "deadline soon" reminders (games.services.reminders): for each seat, in seat
    # order, the offsets (seconds before its deadline) already reminded for its clock's current
    # stretch (a new turn, or a clock started again, begins a new one); null for a casual match.
    # ``next_reminder_at`` is the soonest instant one of them is due, null when none is left:
    # the reminder sweep reads only the rows due, through a partial index. Both change with the
    # clocks, in the recording path, and after each reminder sent.
    reminders_sent = models.JSONField(null=True, blank=True)
    next_reminder_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Set while the match waits on work no person does (a bot's turn, a real-time bot's next
    # action, the engine's automatic step, the rating of a finished rated match): since when it
    # has waited, or when the due-work sweep last queued that work again. Written with the
    # transition that made the work due, cleared by the transition or rating that did it; the
    # sweep re-queues whatever has waited too long (games.services.due).
    work_due_at = models.DateTimeField(null=True, blank=True)
    # Seen only by its seats (and its creator): not by other players nor anonymous visitors.
    # A match is private too when any of its players keeps their matches private.
    private = models.BooleanField(default=False)
    # Why a match created rated ends unrated: "timeout_run" when a player timed out of it
    # while already timing out of another match without having moved anywhere since
    # (games.services.timeouts); empty otherwise.
    unrated_reason = models.CharField(max_length=16, blank=True, default="")
    # The match this one is the rematch of (same game, options and players, seats rotated):
    # at most one rematch per match, so offering one twice gives the same match.
    rematch_of = models.OneToOneField("self", null=True, blank=True, on_delete=models.SET_NULL,
                                      related_name="rematch")
    # Whether its seats may hold plans (conditional moves, games.services.plans): an option
    # chosen at creation and kept by a rematch. Plans apply only where the game allows them
    # too (never in real time).
    plans_allowed = models.BooleanField(default=True)
    # The seats holding a plan now (kept with their Plan rows by games.services.plans), so a
    # move looks for plans to play only when there are some. Never shown; saving or clearing
    # a plan writes this field alone (not the version nor ``updated_at``: nobody else's ETag
    # changes).
    planners = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "-created_at"], name="match_status_created"),
            models.Index(fields=["game", "status", "-created_at"],
                         name="match_game_status_created"),
            # The lists' orders that an index can serve (games.selectors.lists): newest first,
            # and finished matches by when they ended.
            models.Index(fields=["-created_at", "-id"], name="match_created"),
            models.Index(fields=["status", "-finished_at", "id"], name="match_status_ended"),
            models.Index(fields=["deadline"], name="match_active_deadline",
                         condition=Q(status="active", deadline__isnull=False)),
            models.Index(fields=["work_due_at"], name="match_work_due",
                         condition=Q(work_due_at__isnull=False)),
            models.Index(fields=["next_reminder_at"], name="match_reminder_due",
                         condition=Q(next_reminder_at__isnull=False)),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(num_players__gte=1, num_players__lte=4),
                                   name="match_num_players_1_to_4"),
            models.CheckConstraint(
                condition=Q(status__in=["open", "active", "finished", "aborted"]),
                name="match_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} {self.id} ({self.status})"

    @property
    def is_running(self) -> bool:
        return self.status in (self.Status.OPEN, self.Status.ACTIVE)

    @property
    def etag(self) -> str:
        return f'"{self.version}-{int(self.updated_at.timestamp() * 1_000_000)}"'


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    # Null for an open seat anyone may join; set but not joined for a pending invitation.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.PROTECT, related_name="seats")
    # Filled by a bot account (copied from the user when the seat is filled).
    is_bot = models.BooleanField(default=False)
    joined_at = models.DateTimeField(null=True, blank=True)
    forfeited_at = models.DateTimeField(null=True, blank=True)
    forfeit_reason = models.CharField(max_length=16, blank=True, default="")
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.FloatField(null=True, blank=True)
    # Real-time matches: the bot's next scheduled action carries this number; running it bumps
    # the number, so a duplicate delivery of the same action does nothing.
    bot_ticket = models.PositiveIntegerField(default=0)
    # Real-time matches: when this bot's chain of actions last made progress (an action ran,
    # or the chain was started or restarted); the match's work_due_at is the oldest of these.
    bot_tick_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="seat_unique_index"),
            # A person holds at most one seat of a match; a bot account may fill several.
            models.UniqueConstraint(fields=["match", "user"],
                                    condition=Q(user__isnull=False, is_bot=False),
                                    name="seat_unique_user"),
        ]

    def __str__(self) -> str:
        return f"seat {self.index} of {self.match_id}"

    @property
    def is_open(self) -> bool:
        return self.user_id is None


class Move(models.Model):
    """One recorded transition. Append-only: the audit trail and the replay source."""

    class Kind(models.TextChoices):
        MOVE = "move"          # a seat's move (human or bot)
        SYSTEM = "system"      # automatic work such as round scoring
        FORFEIT = "forfeit"    # a seat resigned or timed out

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=16, choices=Kind.choices)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.PROTECT, related_name="+")
    payload = models.JSONField(default=dict, blank=True)
    events = models.JSONField(default=list, blank=True)
    # A seat's move its plan played (games.services.plans), not its player by hand; shown to
    # every seat in the move log.
    by_plan = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="move_unique_seq"),
            models.CheckConstraint(condition=Q(seq__gte=1), name="move_seq_positive"),
        ]

    def __str__(self) -> str:
        return f"move {self.seq} of {self.match_id}"

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise ValueError("Moves are append-only.")
        super().save(*args, **kwargs)


class Plan(models.Model):
    """A seat's plan in a running match: its replies, decided ahead, to the other seat's moves
    (the tree of ``games.kit.plans``, as ``dump_plan`` writes it). Private to its seat; kept
    only while that seat waits, deleted when it is spent, cleared or the match ends."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="plans")
    seat = models.PositiveSmallIntegerField()
    tree = models.JSONField()
    # The match's version when the plan was saved, and when it last advanced: the version of
    # the other seat's move whose branch it took (its reply is played right after).
    made_at_version = models.PositiveIntegerField()
    advanced_at_version = models.PositiveIntegerField()
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="plan_unique_seat"),
        ]

    def __str__(self) -> str:
        return f"plan of seat {self.seat} in {self.match_id}"


class IdempotencyRecord(models.Model):
    """The first answer to a request sent with an Idempotency-Key, replayed on retries: its
    status and its body exactly as it was sent (the rendered text, so a retry answers the very
    same bytes)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    fingerprint = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    body = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_unique_user_key"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.key}"


class UserEvent(models.Model):
    """One entry of a player's event feed: what happened to them, never hidden game state."""

    class Type(models.TextChoices):
        INVITED = "invited"
        INVITATION_DECLINED = "invitation_declined"
        MATCH_STARTED = "match_started"
        YOUR_TURN = "your_turn"
        DEADLINE_SOON = "deadline_soon"
        TIMED_OUT = "timed_out"
        MATCH_FINISHED = "match_finished"
        MATCH_ABORTED = "match_aborted"
        RATING_CHANGED = "rating_changed"
        # The player's own vacation: a day of the bank is left; it ended by itself; it started
        # instead of a timeout (auto-vacation, with the match whose deadline passed).
        VACATION_ENDING = "vacation_ending"
        VACATION_ENDED = "vacation_ended"
        AUTO_VACATION_STARTED = "auto_vacation_started"
        # The player's plan (games.services.plans) ended: the other seat made a move it did
        # not cover (with that move's key, as the player saw it), or its reply was refused.
        PLAN_NOT_COVERED = "plan_not_covered"
        PLAN_DROPPED = "plan_dropped"
        # The player's data export (games.lifecycle.export) is built and can be downloaded.
        EXPORT_READY = "export_ready"
        # Someone wrote in the chat of a match the player sits in (at most one entry per match
        # per quiet period, games.people.notices), and a moderator's warning to the player.
        CHAT = "chat"
        WARNED = "warned"
        # Tournaments (games.tournaments): one the player entered starts soon; a round (or a
        # ladder challenge) has a match for them; they were withdrawn (data ``reason``); it
        # finished (data ``place``, or ``cancelled``).
        TOURNAMENT_STARTS_SOON = "tournament_starts_soon"
        TOURNAMENT_ROUND = "tournament_round"
        TOURNAMENT_WITHDRAWN = "tournament_withdrawn"
        TOURNAMENT_FINISHED = "tournament_finished"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="events")
    type = models.CharField(max_length=32, choices=Type.choices)
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="+")
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["user", "id"], name="user_event_feed")]

    def __str__(self) -> str:
        return f"{self.type} for {self.user_id}"


class Rating(models.Model):
    """A player's current OpenSkill (Plackett-Luce) rating in one game."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="ratings")
    game = models.CharField(max_length=32)
    mu = models.FloatField()
    sigma = models.FloatField()
    display = models.IntegerField()
    games_played = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="rating_unique_user_game"),
        ]
        indexes = [models.Index(fields=["game", "-display"], name="rating_game_display")]

    def __str__(self) -> str:
        return f"{self.user} {self.game} {self.display}"


class RatingChange(models.Model):
    """One rated match's effect on one player's rating; the history clients draw."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="rating_changes")
    game = models.CharField(max_length=32)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes")
    rank = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    display_before = models.IntegerField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    display_after = models.IntegerField()
    at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "match"], name="rating_change_unique"),
        ]
        indexes = [models.Index(fields=["user", "game", "-at", "-id"], name="rating_change_hist")]

    def __str__(self) -> str:
        return f"{self.user} {self.game} {self.display_before}->{self.display_after}"


class AuditEntry(models.Model):
    """One staff action (abort, adjudicate, ban, unban; the answers to reports: dismiss, warn,
    mute chat, shadow-ban; for tournaments: create an official one, cancel, disqualify a
    player, adjust a result), with who did it, to what and why.
    Append-only, like the move log: entries are written by games.services.moderation and only
    ever read afterwards."""

    class Action(models.TextChoices):
        ABORT = "abort"
        ADJUDICATE = "adjudicate"
        BAN = "ban"
        UNBAN = "unban"
        # Answers to players' reports (games.people.moderation).
        DISMISS = "dismiss"
        WARN = "warn"
        MUTE_CHAT = "mute_chat"
        SHADOW_BAN = "shadow_ban"
        # Tournaments (games.tournaments).
        OFFICIAL = "official"
        CANCEL = "cancel"
        DISQUALIFY = "disqualify"
        ADJUST_RESULT = "adjust_result"

    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                              related_name="+")
    action = models.CharField(max_length=16, choices=Action.choices)
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="audit_entries")
    target_user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                    on_delete=models.SET_NULL, related_name="audit_entries")
    # What the action was about, as shown in lists (the match, the username or the
    # tournament).
    target = models.CharField(max_length=200)
    reason = models.TextField()
    # What the action did: the move it recorded, the declared ranks, the matches a ban left.
    data = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["-at", "-id"], name="audit_entry_at")]
        constraints = [
            models.CheckConstraint(condition=Q(action__in=[
                "abort", "adjudicate", "ban", "unban", "dismiss", "warn", "mute_chat",
                "shadow_ban", "official", "cancel", "disqualify", "adjust_result"]),
                name="audit_entry_action_valid"),
            models.CheckConstraint(condition=~Q(reason=""), name="audit_entry_reason_given"),
        ]
        permissions = [
            ("moderate", "Can abort and adjudicate matches and ban and unban users"),
        ]

    def __str__(self) -> str:
        return f"{self.action} {self.target}"

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise ValueError("Audit entries are append-only.")
        super().save(*args, **kwargs)


class Vacation(models.Model):
    """A player's vacation: the bank (``games.clocks.vacation``'s ``dump_bank`` JSON: the time
    left as counted at ``as_of`` and, on vacation, ``since``) and the auto-vacation switch. One
    row per account, made the first time it is locked (``games.services.locking.vacations_lock``:
    the player's vacation changes, or a match of theirs that stops for vacations starts or
    reaches a deadline); until then the account holds the starting bank from the day it joined
    (``games.selectors.vacations``), and the row is made with that bank.

    While a vacation runs, ``runs_out_at`` is when it uses up the bank and ``warning_due_at``
    when the player is told that a day is left (cleared once told): due work, caught up by the
    vacation sweep through the two partial indexes."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                primary_key=True, related_name="vacation")
    bank = models.JSONField()
    auto_vacation = models.BooleanField(default=True)
    runs_out_at = models.DateTimeField(null=True, blank=True)
    warning_due_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [
            models.Index(fields=["runs_out_at"], name="vacation_runs_out",
                         condition=Q(runs_out_at__isnull=False)),
            models.Index(fields=["warning_due_at"], name="vacation_warning_due",
                         condition=Q(warning_due_at__isnull=False)),
        ]

    def __str__(self) -> str:
        return f"vacation of {self.user_id}"
