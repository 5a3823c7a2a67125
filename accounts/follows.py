"""Follows and friends: a player follows another one way; two who follow each other are
friends. Writes and reads of ``Follow`` rows."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, QuerySet

from accounts.exceptions import CannotFollowSelf
from accounts.models import Follow, User


def follow(*, user: User, other: User) -> bool:
    """``user`` follows ``other``; True when this is new (following twice changes nothing)."""
    if other.pk == user.pk:
        raise CannotFollowSelf()
    try:
        with transaction.atomic():
            Follow.objects.create(follower=user, followed=other)
    except IntegrityError:
        return False
    return True


def unfollow(*, user: User, other: User) -> bool:
    """``user`` stops following ``other``; True when they did follow."""
    deleted, _ = Follow.objects.filter(follower=user, followed=other).delete()
    return bool(deleted)


def following(user: User) -> QuerySet[User]:
    """The players ``user`` follows, by name."""
    return User.objects.filter(followers__follower=user).order_by("username")


def followers(user: User) -> QuerySet[User]:
    """The players who follow ``user``, by name."""
    return User.objects.filter(following__followed=user).order_by("username")


def friends(user: User) -> QuerySet[User]:
    """The players ``user`` follows who follow ``user`` back, by name."""
    back = Follow.objects.filter(follower=OuterRef("pk"), followed=user)
    return following(user).filter(Exists(back))


def are_friends(one_id: int, other_id: int) -> bool:
    """Whether the two players follow each other."""
    return Follow.objects.filter(follower_id=one_id, followed_id=other_id).exists() and \
        Follow.objects.filter(follower_id=other_id, followed_id=one_id).exists()
