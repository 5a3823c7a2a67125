"""Blocks: a player blocks another, with a switch for games and one for chat. The blocked
player is never told: nothing they can ask answers differently, except where the rules must
refuse them (an invitation, an open seat next to the blocker), and there they get the refusal
anyone else could get for another reason."""

from __future__ import annotations

from collections.abc import Collection, Iterable

from django.db.models import Q, QuerySet

from accounts.exceptions import CannotBlockSelf
from accounts.models import Block, User


def block_set(*, user: User, other: User, games: bool = True, chat: bool = True) -> Block:
    """``user`` blocks ``other`` with these switches (blocking again changes the switches)."""
    if other.pk == user.pk:
        raise CannotBlockSelf()
    block, _ = Block.objects.update_or_create(blocker=user, blocked=other,
                                              defaults={"games": games, "chat": chat})
    return block


def block_remove(*, user: User, other: User) -> bool:
    """``user`` unblocks ``other``; True when they had blocked them."""
    deleted, _ = Block.objects.filter(blocker=user, blocked=other).delete()
    return bool(deleted)


def blocks_of(user: User) -> QuerySet[Block]:
    """The blocks ``user`` set, by the blocked player's name."""
    return Block.objects.filter(blocker=user).select_related("blocked").order_by(
        "blocked__username")


def blocked_in_games(one_id: int, other_ids: Iterable[int]) -> bool:
    """Whether a games block stands between ``one_id`` and any of ``other_ids``, either way."""
    others = [pk for pk in other_ids if pk != one_id]
    if not others:
        return False
    return Block.objects.filter(games=True).filter(
        Q(blocker_id=one_id, blocked_id__in=others)
        | Q(blocked_id=one_id, blocker_id__in=others)).exists()


def blocks_in_games(blocker_id: int, blocked_id: int) -> bool:
    """Whether ``blocker_id`` blocked ``blocked_id`` for games."""
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id,
                                games=True).exists()


def chat_hidden_authors(viewer_id: int) -> set[int]:
    """The players whose chat lines ``viewer_id`` blocked."""
    return set(Block.objects.filter(blocker_id=viewer_id, chat=True)
               .values_list("blocked_id", flat=True))


def avoided_pairs(blocks: Iterable[tuple[int, int]],
                  players: Collection[int]) -> frozenset[frozenset[int]]:
    """The pairs of ``players`` that should not meet, from (blocker, blocked) games blocks:
    each block between two of them, either way, as an unordered pair. Pure: a pairing (a
    tournament round) calls it with the blocks it read."""
    members = set(players)
    return frozenset(frozenset((a, b)) for a, b in blocks
                     if a != b and a in members and b in members)


def pairs_to_avoid(players: Collection[int]) -> frozenset[frozenset[int]]:
    """The pairs of ``players`` (user ids) that a games block stands between, either way: the
    pairs a tournament pairing avoids where its format allows."""
    ids = set(players)
    rows = Block.objects.filter(games=True, blocker_id__in=ids, blocked_id__in=ids)
    return avoided_pairs(rows.values_list("blocker_id", "blocked_id"), ids)


def chat_hidden_by(author_id: int, readers: Collection[int]) -> set[int]:
    """Those of ``readers`` who blocked ``author_id``'s chat lines."""
    return set(Block.objects.filter(blocked_id=author_id, chat=True, blocker_id__in=readers)
               .values_list("blocker_id", flat=True))
