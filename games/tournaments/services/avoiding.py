"""Pairs of players a tournament keeps apart where its format allows (a player's blocks).

The domain that knows who avoids whom registers a source here when it starts; with none
registered, nobody is kept apart."""

from __future__ import annotations

from collections.abc import Callable, Sequence

# Given the players' user ids, the pairs (frozensets of two ids) to keep apart.
Source = Callable[[Sequence[int]], frozenset[frozenset[int]]]

_sources: list[Source] = []


def avoided_pairs_register(source: Source) -> None:
    """Ask ``source`` from now on (a later registration replaces an earlier one)."""
    _sources[:] = [source]


def avoided_pairs(players: Sequence[int]) -> frozenset[frozenset[int]]:
    """The pairs among ``players`` to keep apart."""
    return _sources[0](players) if _sources else frozenset()
