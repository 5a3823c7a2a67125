"""Players: people and bots share one user model, so bots sit in seats and are rated like anyone."""

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower


class User(AbstractUser):
    is_bot = models.BooleanField(default=False)
    # For bots: the game they play and their strength (1 random, 2 greedy, 3 search).
    bot_game = models.CharField(max_length=32, blank=True, default="")
    bot_level = models.PositiveSmallIntegerField(null=True, blank=True)
    bot_description = models.CharField(max_length=200, blank=True, default="")

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
                condition=models.Q(is_bot=False) | models.Q(bot_level__in=[1, 2, 3]),
                name="accounts_user_bot_level_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.username


class Rating(models.Model):
    """A player's current OpenSkill (Plackett-Luce) rating in one game."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="ratings")
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

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.CharField(max_length=32)
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE,
                              related_name="rating_changes")
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
