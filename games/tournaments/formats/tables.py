"""Splitting a field of players into tables of a given size."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Round:
    """A round's pairing: the tables, each in seat order, and the player with a bye."""

    tables: tuple[tuple[int, ...], ...]
    bye: int | None = None


def table_sizes(players: int, size: int, smallest: int = 2) -> list[int]:
    """Sizes of the tables that seat ``players`` at tables of at most ``size``, as even as
    possible, largest first: as few tables as that allows, none below ``smallest`` (the player
    left over when that cannot be has a bye: the sizes then seat one fewer)."""
    if size < 2 or smallest < 1 or smallest > size:
        raise ValueError("a table seats between smallest and size players")
    for seated in (players, players - 1):
        if seated <= 0:
            return []
        count = -(-seated // size)
        base, extra = divmod(seated, count)
        if base >= smallest:
            return [base + 1] * extra + [base] * (count - extra)
    return []
