"""Writes of the accounts app: registration and API tokens."""

from __future__ import annotations

from django.contrib.auth import authenticate, password_validation
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

from accounts.authentication import CachedTokenAuthentication
from accounts.exceptions import InvalidCredentials, InvalidPassword, UsernameTaken
from accounts.models import User


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

