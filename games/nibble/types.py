"""The JSON of Nibble, typed (see ``games.kit.jsontypes``): what a client sends and reads.

No ``from __future__ import annotations`` here: ``NotRequired`` is read at run time.
"""

from typing import Annotated, Literal, NotRequired, TypedDict

from games.kit.jsontypes import Doc, GameTypes, OutcomeJSON, Range

Cell = Annotated[tuple[int, int], Doc("[row, col], each 0 to 8.")]
ColourId = Annotated[int, Range(0, 8), Doc("A colour id, 0 to 8.")]


class NibbleMove(TypedDict):
    """Take discs of one colour: their cells, each takeable, keeping the board connected."""

    take: Annotated[list[Cell], Doc("The cells of the discs taken (1 to 81).")]


class NibbleLegalMoves(TypedDict):
    """The compact legal moves: any non-empty set of takeable discs of one colour whose
    removal keeps the board connected."""

    takeable: Annotated[dict[str, list[Cell]], Doc("Takeable disc cells by colour id.")]


class NibbleOutcome(OutcomeJSON):
    """How a Nibble match ended; ``scores`` are the majorities each player holds. Reasons:
    nine_of_a_colour, three_adjacent_sevens, majority_of_majorities, decided, forfeit."""


class NibbleView(TypedDict):
    """The board as any seat or a spectator sees it (Nibble hides nothing but the seed)."""

    board: Annotated[list[list[ColourId | None]], Doc("9 rows of 9 cells: a colour id or null.")]
    color_order: Annotated[list[int], Doc("The colour table, left to right.")]
    collections: Annotated[list[list[int]], Doc("Per seat, discs taken of each colour id.")]
    majorities: list[int]
    discs_left: int
    turn: Annotated[int, Doc("Turns played.")]
    first_seat: int
    to_move: list[int]
    you: int | None
    early_finish: bool
    decided: Annotated[bool, Doc("The result can no longer change.")]
    takeable: NotRequired[Annotated[dict[str, list[Cell]], Doc(
        "While the match runs: the discs the player to move can take, by colour id.")]]
    legal_moves: NotRequired[NibbleLegalMoves]
    outcome: NotRequired[NibbleOutcome]
    seed: NotRequired[str]


class NibbleDiscsTaken(TypedDict):
    type: Literal["discs_taken"]
    seat: int
    color: int
    cells: list[Cell]


class NibbleForfeited(TypedDict):
    type: Literal["forfeited"]
    seat: int


class NibbleMatchEnded(NibbleOutcome):
    type: Literal["match_ended"]


TYPES = GameTypes(move=NibbleMove, view=NibbleView, legal_moves=NibbleLegalMoves,
                  events=(NibbleDiscsTaken, NibbleForfeited, NibbleMatchEnded),
                  outcome=NibbleOutcome)
