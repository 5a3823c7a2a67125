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

