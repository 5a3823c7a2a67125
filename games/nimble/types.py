"""The JSON of Nimble, typed (see ``games.kit.jsontypes``): what a client sends and reads.

No ``from __future__ import annotations`` here: ``NotRequired`` is read at run time.
"""

from typing import Annotated, Literal, NotRequired, TypedDict

from games.kit.jsontypes import Doc, GameTypes, OutcomeJSON, Range

Colour = Literal["red", "orange", "beige", "light_blue", "green", "purple"]


class NimbleCard(TypedDict):
    """A card's face: the Set it belongs to (its owner's seat) and its two colours."""

    set: int
    frame: Colour
    circle: Colour


class NimblePlace(TypedDict):
    """Place the top card of your discard pile on a stack."""

    action: Literal["place"]
    stack: Annotated[int, Range(0, 2)]


class NimbleHandAction(TypedDict):
    """Flip the top of your Set, return your discard's top to it, recycle the discard pile, or
    end the turn (turn mode)."""

    action: Literal["flip", "return", "recycle", "end_turn"]


NimbleMove = NimblePlace | NimbleHandAction


class NimbleSeatView(TypedDict):
    seat: int
    set_count: int
    discard_count: int
    cards_left: Annotated[int, Doc("Set and discard together.")]
    discard_top: NimbleCard | None
    forfeited: bool


class NimbleStackView(TypedDict):
    top: NimbleCard
    height: int


class NimbleOptionsView(TypedDict):
    mode: Literal["turns", "race"]
    budget: int
    ramp: bool
    finish_at: int


class NimbleRevealed(TypedDict):
    """Once the match is over: the seed and every pile, bottom to top."""

    seed: str
    sets: list[list[NimbleCard]]
    discards: list[list[NimbleCard]]
    stacks: list[list[NimbleCard]]


class NimbleOutcome(OutcomeJSON):
    """How a Nimble match ended; ``scores`` are the cards each seat had left. Reasons:
    finished, deadlock, stalemate, forfeit."""


class NimbleView(TypedDict):
    """The table as a seat or a spectator sees it: every Set's order stays hidden."""

    game: Literal["nimble"]
    mode: Literal["turns", "race"]
    players: int
    you: int | None
    options: NimbleOptionsView
    start_seat: int
    seats: list[NimbleSeatView]
    stacks: list[NimbleStackView]
    to_move: list[int]
    budget_left: Annotated[int | None, Doc("Turn mode: hand actions left this turn.")]
    outcome: NimbleOutcome | None
    round: NotRequired[int]
    first_seat: NotRequired[int]
    idle_rounds: NotRequired[int]
    stall_cap: NotRequired[int]
    legal_moves: NotRequired[list[NimbleMove]]
    revealed: NotRequired[NimbleRevealed]


class NimblePlaced(TypedDict):
    type: Literal["placed"]
    seat: int
    stack: int
    card: NimbleCard
    discard_top: NimbleCard | None


class NimbleFlipped(TypedDict):
    type: Literal["flipped"]
    seat: int
    card: NimbleCard


class NimbleReturned(TypedDict):
    type: Literal["returned"]
    seat: int
    card: NimbleCard
    discard_top: NimbleCard | None


class NimbleRecycled(TypedDict):
    type: Literal["recycled"]
    seat: int
    count: int


class NimbleTurnEnded(TypedDict):
    type: Literal["turn_ended"]
    seat: int
    auto: Annotated[bool, Doc("Ended by the rules (no action left), not by the player.")]


class NimbleRoundEnded(TypedDict):
    type: Literal["round_ended"]
    round: int
    idle_rounds: int


class NimbleTurnStarted(TypedDict):
    type: Literal["turn_started"]
    seat: int
    round: int
    budget: int


class NimbleForfeited(TypedDict):
    type: Literal["forfeited"]
    seat: int


class NimbleMatchEnded(NimbleOutcome):
    type: Literal["match_ended"]


TYPES = GameTypes(move=NimbleMove, view=NimbleView, legal_moves=list[NimbleMove],
                  events=(NimblePlaced, NimbleFlipped, NimbleReturned, NimbleRecycled,
                          NimbleTurnEnded, NimbleRoundEnded, NimbleTurnStarted, NimbleForfeited,
                          NimbleMatchEnded),
                  outcome=NimbleOutcome)
