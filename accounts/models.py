"""Players: people and bots share one user model, so bots sit in seats and are rated like anyone.

Closing: a person may disable their account or have it deleted (``accounts.closing``); a
deleted account keeps its row under a pseudonym, so the matches and rating histories of others
stay whole, and its old name is retired (``RetiredName``). Data exports (``DataExport``) hold
the archive of what the server keeps about a player for a few days.

API tokens: a person holds any number of named tokens (one per device or script), each of
which can expire. Only a digest of each key is stored; the key itself is shown once, when the
token is created."""

from __future__ import annotations

import hashlib
import uuid

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower


class User(AbstractUser):
    class Closure(models.TextChoices):
        OPEN = "", "open"
        DISABLED = "disabled"
        DELETING = "deleting"
        DELETED = "deleted"

    is_bot = models.BooleanField(default=False)
    # For bots: the game they play and their strength (1 random, 2 greedy, 3 search, 4 deep
    # search).
    bot_game = models.CharField(max_length=32, blank=True, default="")
    bot_level = models.PositiveSmallIntegerField(null=True, blank=True)
    bot_description = models.CharField(max_length=200, blank=True, default="")
    # A guest plays at once without signing up: an account made by POST /api/auth/guest, with
    # a generated name, no password and limits of its own (unrated, bots only, fewer matches,
    # a smaller request budget). Signing up converts it in place, keeping its matches; an idle
    # guest is deleted by a periodic task.
    is_guest = models.BooleanField(default=False)
    # The player's matches are seen by their seats only (not by other players, nor anonymous
    # visitors), whatever the match's own flag says.
    matches_private = models.BooleanField(default=False)
    # When a guest last did something (created, or made a match); idle guests are cleaned up.
    last_active_at = models.DateTimeField(null=True, blank=True)
    # The language the player reads Boardpost in (one of settings.LANGUAGES, e.g. "fr"); empty
    # to follow the client's Accept-Language. Set with PATCH /api/me (config.i18n).
    language = models.CharField(max_length=16, blank=True, default="")
    # A closed account (accounts.closing): "disabled" (signing in opens it again), "deleting"
    # (its deletion is due at ``deletion_due_at``; signing in first cancels it) or "deleted"
    # (its data erased, its name a pseudonym); empty for an open one. A closed account is
    # inactive (``is_active`` false), as a banned one is; only a ban leaves this empty.
    closure = models.CharField(max_length=16, blank=True, default="", choices=Closure.choices)
    closed_at = models.DateTimeField(null=True, blank=True)
    # Due work: when the account's deletion is due (a grace period after it was asked for, or
    # at once for an idle guest); the deletion sweep reads the due rows through a partial index
    # and hands each to the deletion worker, which clears it.
    deletion_due_at = models.DateTimeField(null=True, blank=True)

    class Invitations(models.TextChoices):
        EVERYONE = "everyone"
        FRIENDS = "friends"
        NOBODY = "nobody"

    # Who may invite the player to a match or offer them a rematch: everyone, friends (players
    # they follow who follow them back) or nobody. Others are refused with
    # "not_accepting_invitations", which says no more.
    invitations = models.CharField(max_length=8, choices=Invitations.choices,
                                   default=Invitations.EVERYONE)

    class Meta:
        constraints = [
            # "Ada" and "ada" are the same player, even when both register at the same moment.
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci"),
            models.UniqueConstraint(
                fields=["bot_game", "bot_level"],
                condition=models.Q(is_bot=True),
                name="accounts_user_one_bot_per_game_level",
            ),
            models.CheckConstraint(
                condition=models.Q(is_bot=False) | models.Q(bot_level__in=[1, 2, 3, 4]),
                name="accounts_user_bot_level_valid",
            ),
            models.CheckConstraint(condition=~models.Q(is_guest=True, is_bot=True),
                                   name="accounts_user_guest_not_bot"),
            models.CheckConstraint(
                condition=models.Q(closure__in=["", "disabled", "deleting", "deleted"]),
                name="accounts_user_closure_valid"),
            models.CheckConstraint(
                condition=models.Q(deletion_due_at__isnull=True) | models.Q(closure="deleting"),
                name="accounts_user_deletion_due_only_when_deleting"),
        ]
        indexes = [models.Index(fields=["last_active_at"], name="accounts_user_guest_idle",
                                condition=models.Q(is_guest=True)),
                   models.Index(fields=["deletion_due_at"], name="accounts_user_deletion_due",
                                condition=models.Q(deletion_due_at__isnull=False))]

    def __str__(self) -> str:
        return self.username

    @property
    def is_deleted(self) -> bool:
        """A deleted account: still seated in the matches it played, under its pseudonym, but
        nobody is told anything any more, nor rated."""
        return self.closure == self.Closure.DELETED


def token_digest(key: str) -> str:
    """What is stored of a token key: its SHA-256, hex. Keys are long random strings, so a
    plain (unsalted, fast) hash is enough to make a leaked table useless."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


class ApiToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="api_tokens")
    name = models.CharField(max_length=100, blank=True, default="")
    digest = models.CharField(max_length=64, unique=True)
    # The key's first characters, to tell tokens apart in a list without revealing them.
    prefix = models.CharField(max_length=8)
    created = models.DateTimeField(auto_now_add=True)
    expires = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["user", "created"], name="accounts_token_user_created")]

    def __str__(self) -> str:
        return f"{self.user} {self.name or self.prefix}"


class RetiredName(models.Model):
    """A username that belonged to a deleted account and is never given out again. Only a
    digest of its lower-case form is kept (``retired_name_digest``), so the list does not read
    as the names of the people who left; it does not hide a name someone guesses."""

    digest = models.CharField(max_length=64, unique=True)
    retired_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.digest[:12]


def retired_name_digest(username: str) -> str:
    return hashlib.sha256(username.strip().lower().encode("utf-8", "surrogatepass")).hexdigest()


class DataExport(models.Model):
    """A player's request for their data and, once a worker has built it, the archive (JSON,
    compressed). Due work: ``build_due_at`` is set while the archive waits to be built (the
    export sweep queues the build again when it has waited too long); the archive is deleted
    when it expires, and the row with it."""

    class Status(models.TextChoices):
        PENDING = "pending"
        READY = "ready"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="data_exports")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    requested_at = models.DateTimeField(auto_now_add=True)
    build_due_at = models.DateTimeField(null=True, blank=True)
    ready_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    # The archive: UTF-8 JSON, gzip-compressed; empty until ready.
    archive = models.BinaryField(default=b"", blank=True)
    size = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["user", "-requested_at"], name="accounts_export_user"),
                   models.Index(fields=["build_due_at"], name="accounts_export_build_due",
                                condition=models.Q(build_due_at__isnull=False)),
                   models.Index(fields=["expires_at"], name="accounts_export_expires",
                                condition=models.Q(expires_at__isnull=False))]
        constraints = [models.CheckConstraint(condition=models.Q(status__in=["pending", "ready"]),
                                              name="accounts_export_status_valid")]

    def __str__(self) -> str:
        return f"export {self.id} of {self.user_id} ({self.status})"


class PasswordResetRequest(models.Model):
    """Someone asked for a password reset mail for ``email``: due work until the mail (one per
    account with that address, none when there is no such account) has gone, when the row is
    deleted, so the address asked about is not kept. ``send_due_at``: since when it waits, or
    when the account sweep last queued it again."""

    email = models.EmailField(max_length=254)
    language = models.CharField(max_length=16, blank=True, default="")
    requested_at = models.DateTimeField(auto_now_add=True)
    send_due_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["send_due_at"], name="accounts_reset_send_due")]

    def __str__(self) -> str:
        return f"password reset request {self.pk}"
class Follow(models.Model):
    """``follower`` follows ``followed`` (one way); two players who follow each other are
    friends."""

    follower = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                 related_name="following")
    followed = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                 related_name="followers")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="accounts_follow_once"),
            models.CheckConstraint(condition=~models.Q(follower=models.F("followed")),
                                   name="accounts_follow_not_self"),
        ]
        indexes = [models.Index(fields=["followed", "follower"], name="accounts_follow_back")]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"


class Block(models.Model):
    """``blocker`` blocks ``blocked``, with a switch per domain: ``games`` (no invitation or
    rematch offer from them, never seated together through an open seat, a tournament pairing
    avoided where the format allows) and ``chat`` (their chat lines are hidden from the
    blocker). The blocked player is never told."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="blocks")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="+")
    games = models.BooleanField(default=True)
    chat = models.BooleanField(default=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="accounts_block_once"),
            models.CheckConstraint(condition=~models.Q(blocker=models.F("blocked")),
                                   name="accounts_block_not_self"),
        ]
        indexes = [models.Index(fields=["blocked", "blocker"], name="accounts_block_back")]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"
