"""Reads of players as the games see them: profiles with ratings, rating history, leaderboards."""

from __future__ import annotations

from datetime import datetime

from django.db.models import QuerySet

from accounts.exceptions import PlayerNotFound
from accounts.models import User
from games import ratings
from games.models import Rating, RatingChange
from games.selectors import shapes
from games.selectors.vacations import player_away, player_away_annotation


def player_get(*, username: str) -> User:
    if "\x00" in username:  # no username holds NUL, and PostgreSQL text cannot
        raise PlayerNotFound()
    user = (User.objects.filter(username=username, is_active=True)
            .annotate(**player_away_annotation()).first())
    if user is None:
        raise PlayerNotFound()
    return user


def rating_summary(rating: Rating) -> shapes.Rating:
    return {
        "game": rating.game,
        "rating": rating.display,
        "mu": rating.mu,
        "sigma": rating.sigma,
        "games_played": rating.games_played,
        "provisional": ratings.is_provisional(rating.sigma),
    }


def player_profile(*, user: User) -> shapes.Player:
    """A player's public profile: whether they are on vacation (nothing of their bank) and
    their rating per game."""
    return {
        "username": user.username,
        "is_bot": user.is_bot,
        "is_guest": user.is_guest,
        "bot_game": user.bot_game or None,
        "bot_level": user.bot_level,
        "date_joined": user.date_joined,
        "on_vacation": player_away(user),
        "ratings": [rating_summary(r) for r in Rating.objects.filter(user=user).order_by("game")],
    }


def rating_history(*, user: User, game: str, since: datetime | None = None,
                   until: datetime | None = None) -> QuerySet[RatingChange]:
    queryset = RatingChange.objects.filter(user=user, game=game).select_related("match")
    if since is not None:
        queryset = queryset.filter(at__gte=since)
    if until is not None:
        queryset = queryset.filter(at__lt=until)
    return queryset


def leaderboard(*, game: str) -> QuerySet[Rating]:
    # Guests are never rated; should a rating exist all the same, they are not listed.
    return (Rating.objects.filter(game=game, sigma__lte=ratings.PROVISIONAL_SIGMA,
                                  user__is_active=True, user__is_guest=False)
            .select_related("user").order_by("-display", "sigma", "user__username"))


def player_settings(*, user: User) -> shapes.PlayerSettings:
    return {"matches_private": user.matches_private, "is_guest": user.is_guest,
            "language": user.language or None, "invitations": user.invitations}


def me(*, user: User) -> shapes.Me:
    """The caller's profile with their language (which others never see)."""
    return {**player_profile(user=user), "language": user.language or None}
