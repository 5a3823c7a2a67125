"""Pairs of players a tournament keeps apart where its format allows: a games block between
them, either way (``accounts.blocks``)."""

from __future__ import annotations

from collections.abc import Sequence

from accounts.blocks import blocked_in_games, blocks_in_games, pairs_to_avoid
from accounts.exceptions import PlayerBlocked


def avoided_pairs(players: Sequence[int]) -> frozenset[frozenset[int]]:
    """The pairs among ``players`` (user ids) to keep apart."""
    return pairs_to_avoid(players)


def challenge_blocks_check(challenger: int, target: int, refusal: Exception) -> None:
    """A ladder challenge where a games block stands between the two players is refused as
    a match invitation would be: a challenger who blocked the other is told so
    (``PlayerBlocked``); one the other blocked gets ``refusal``, the answer a player out of
    reach gets, and learns nothing of the block."""
    if not blocked_in_games(challenger, [target]):
        return
    if blocks_in_games(challenger, target):
        raise PlayerBlocked()
    raise refusal
