"""Chat lines, chat mutes, a player's standing with the moderators, and reports."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.models import Match


class ChatLine(models.Model):
    """One line said in a match's chat. The seats talk in the players' room; everyone else who
    may see the match talks in the spectators' room, which the seats do not see until the
    match is over."""

    class Room(models.TextChoices):
        PLAYERS = "players"
        SPECTATORS = "spectators"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="+")
    room = models.CharField(max_length=10, choices=Room.choices)
    body = models.CharField(max_length=500)
    # Said by a shadow-banned player: shown to its author alone.
    shadowed = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            models.Index(fields=["match", "id"], name="chat_line_match"),
            models.Index(fields=["author", "created_at"], name="chat_line_author"),
            models.Index(fields=["created_at"], name="chat_line_age"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(room__in=["players", "spectators"]),
                                   name="chat_line_room_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.author_id} in {self.match_id}: {self.body[:40]}"


class ChatMute(models.Model):
    """The player muted this match's chat: they get no line of others and no chat entry."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "match"], name="chat_mute_once")]

    def __str__(self) -> str:
        return f"{self.user_id} muted {self.match_id}"


class Standing(models.Model):
    """What the moderators decided about a player's chat: muted until a date (they cannot say
    anything until then), shadow-banned (their lines are shown to themselves alone), and how
    many times they were warned."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="+", primary_key=True)
    chat_muted_until = models.DateTimeField(null=True, blank=True)
    shadow_banned = models.BooleanField(default=False)
    warnings = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"standing of {self.user_id}"


class Report(models.Model):
    """A player's report of another player, of a chat line or of a match, for the moderators'
    queue. A line's text is copied at report time, so the report keeps its context when the
    line goes."""

    class Reason(models.TextChoices):
        ABUSE = "abuse"
        STALLING = "stalling"
        CHEATING = "cheating"
        OTHER = "other"

    class Status(models.TextChoices):
        OPEN = "open"
        DISMISSED = "dismissed"
        ACTED = "acted"

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                 related_name="+")
    # The reported player (the line's author for a line; may be empty for a match).
    player = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                               on_delete=models.CASCADE, related_name="reports_against")
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+")
    line = models.ForeignKey(ChatLine, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")
    line_text = models.CharField(max_length=500, blank=True, default="")
    reason = models.CharField(max_length=10, choices=Reason.choices)
    note = models.TextField(blank=True, default="")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    handled_at = models.DateTimeField(null=True, blank=True)
    handled_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    # The answer given (an AuditEntry action: dismiss, warn, mute_chat, shadow_ban, ban).
    action = models.CharField(max_length=16, blank=True, default="")

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [
            models.Index(fields=["status", "created_at"], name="report_queue"),
            models.Index(fields=["player", "created_at"], name="report_player"),
            models.Index(fields=["reporter", "created_at"], name="report_reporter"),
        ]

    def __str__(self) -> str:
        return f"{self.reason} report {self.pk}"
