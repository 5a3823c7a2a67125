"""A ladder: a never-ending order of players, top first.

A player challenges someone at most ``reach`` places above them; a challenger who wins takes
the place of the player they beat, who moves down one with everyone in between. A challenger
who loses or draws changes nothing. New players join at the bottom; a player who leaves is
taken out and those below move up.
"""

from __future__ import annotations

from collections.abc import Sequence

# How many places above themselves a player may challenge unless the ladder says otherwise.
DEFAULT_REACH = 3


def may_challenge(order: Sequence[int], challenger: int, target: int, reach: int) -> bool:
    """Whether ``challenger`` may challenge ``target``: both on the ladder, the target above
    and at most ``reach`` places above."""
    if challenger not in order or target not in order:
        return False
    distance = order.index(challenger) - order.index(target)
    return 0 < distance <= reach


def after_challenge(order: Sequence[int], challenger: int, target: int,
                    challenger_won: bool) -> list[int]:
    """The ladder after a challenge: the winning challenger takes the target's place."""
    ladder = list(order)
    if not challenger_won or challenger not in ladder or target not in ladder:
        return ladder
    place = ladder.index(target)
    if ladder.index(challenger) < place:
        return ladder
    ladder.remove(challenger)
    ladder.insert(place, challenger)
    return ladder


def joined(order: Sequence[int], player: int) -> list[int]:
    """The ladder with ``player`` at the bottom (unchanged if already on it)."""
    return list(order) if player in order else [*order, player]


def left(order: Sequence[int], player: int) -> list[int]:
    """The ladder without ``player``."""
    return [other for other in order if other != player]
