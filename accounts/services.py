"""Writes of the accounts app: registration, API tokens, and rating a finished match."""

from __future__ import annotations

from django.contrib.auth import authenticate, password_validation
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

from accounts import ratings
from accounts.authentication import CachedTokenAuthentication
from accounts.exceptions import InvalidCredentials, InvalidPassword, UsernameTaken
from accounts.models import Rating, RatingChange, User


@transaction.atomic
def user_register(*, username: str, password: str, email: str = "") -> tuple[User, Token]:
    if User.objects.filter(username__iexact=username).exists():
        raise UsernameTaken()
    candidate = User(username=username, email=email)
    try:
        password_validation.validate_password(password, user=candidate)
    except ValidationError as exc:
        raise InvalidPassword(" ".join(exc.messages), reasons=exc.messages) from None
    candidate.set_password(password)
    try:
        with transaction.atomic():
            candidate.save()
    except IntegrityError:
        raise UsernameTaken() from None
    token = Token.objects.create(user=candidate)
    return candidate, token


def token_obtain(*, username: str, password: str) -> Token:
    user = authenticate(username=username, password=password)
    if user is None or user.is_bot:
        raise InvalidCredentials()
    token, _ = Token.objects.get_or_create(user=user)
    return token


def token_revoke(*, user: User) -> None:
    for key in Token.objects.filter(user=user).values_list("key", flat=True):
        CachedTokenAuthentication.forget(key)
    Token.objects.filter(user=user).delete()


@transaction.atomic
def match_rate(*, match_id: str) -> bool:
    """Rate a finished, rated match from its final ranking, once.

    Seats that resigned or timed out already rank last (the engines rank those who left below
    everyone, the first to leave last). Returns whether ratings changed."""
    from games.models import Match, UserEvent
    from games.services.notifications import notify

    match = Match.objects.select_for_update(of=("self",)).filter(id=match_id).first()
    if match is None or not match.rated or match.status != Match.Status.FINISHED:
        return False
    if match.rating_changes.exists():
        return False
    seats = list(match.seats.select_related("user").order_by("index"))
    if len(seats) < 2 or any(seat.user is None or seat.rank is None for seat in seats):
        return False
    users = [seat.user for seat in seats]
    current = {
        rating.user_id: rating
        for rating in Rating.objects.select_for_update().filter(user__in=users, game=match.game)
    }
    before = []
    for user in users:
        rating = current.get(user.id)
        if rating is None:
            rating = Rating(user=user, game=match.game, mu=ratings.MODEL.mu,
                            sigma=ratings.MODEL.sigma, display=ratings.display_rating(
                                ratings.MODEL.mu))
            current[user.id] = rating
        before.append(rating)
    after = ratings.rate([(r.mu, r.sigma) for r in before], [seat.rank for seat in seats])
    changes = []
    for seat, rating, (mu, sigma) in zip(seats, before, after, strict=True):
        changes.append(RatingChange(
            user=seat.user, game=match.game, match=match, rank=seat.rank,
            mu_before=rating.mu, sigma_before=rating.sigma, display_before=rating.display,
            mu_after=mu, sigma_after=sigma, display_after=ratings.display_rating(mu),
            at=match.finished_at,
        ))
        rating.mu, rating.sigma = mu, sigma
        rating.display = ratings.display_rating(mu)
        rating.games_played += 1
        rating.save()
    RatingChange.objects.bulk_create(changes)
    for change in changes:
        if not change.user.is_bot:
            notify(user_ids=[change.user_id], type=UserEvent.Type.RATING_CHANGED, match=match,
                   game=match.game, before=change.display_before, after=change.display_after)
    return True
