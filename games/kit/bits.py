"""Bitboard helpers shared by the games that keep a board as an integer, one bit a cell."""

from __future__ import annotations


def bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, ascending: ``bits(0b1010) == [1, 3]``."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
