"""The JSON of Nimalia, typed (see ``games.kit.jsontypes``): what a client sends and reads.

No ``from __future__ import annotations`` here: ``NotRequired`` is read at run time.
"""

from typing import Annotated, Literal, NotRequired, TypedDict

from games.kit.jsontypes import Doc, GameTypes, OutcomeJSON, Range

Direction = Literal["left", "right"]
Rotation = Literal[0, 90, 180, 270]
Coordinate = Annotated[int, Range(-20, 20)]


class NimaliaPlace(TypedDict):
    """Place a hand card in your reserve, its top-left square at (row, col), turned clockwise
    by ``rotation`` degrees (the first card of a reserve is anchored at (0, 0))."""

    card: Annotated[int, Range(1, 60)]
    row: Coordinate
    col: Coordinate
    rotation: Rotation


class NimaliaUndo(TypedDict):
    """Take back this draft turn's pending placement."""

    undo: Literal[True]


NimaliaMove = NimaliaPlace | NimaliaUndo


class NimaliaLegalMoves(TypedDict):
    """The compact legal moves: any of ``cards`` at any of ``rotations`` anchored at any of
    ``anchors``; or, with a placement pending, only the undo."""

    undo: bool
    cards: list[int]
    rotations: list[int]
    anchors: list[tuple[int, int]]


class NimaliaSquare(TypedDict):
    animal: str
    terrain: str
    river: str | None


class NimaliaCard(TypedDict):
    id: int
    squares: list[NimaliaSquare]


class NimaliaReserveSquare(TypedDict):
    row: int
    col: int
    animal: str
    terrain: str
    river: str | None
    card: int


class NimaliaBounds(TypedDict):
    top: int
    left: int
    bottom: int
    right: int


class NimaliaReserve(TypedDict):
    squares: Annotated[list[NimaliaReserveSquare], Doc("The visible squares, row by row.")]
    cards: list[int]
    cards_placed: int
    covered_squares: int
    bounds: NimaliaBounds | None


class NimaliaObjective(TypedDict):
    id: int
    colour: str
    level: str
    name: str
    text: str
    card: str
    compares_players: bool


class NimaliaRoundCard(TypedDict):
    round: int
    colours: list[str]
    objectives: list[int]
    pass_direction: Direction | None


class NimaliaOptionsView(TypedDict):
    rounds: int
    tie_break: Literal["most_of_one_species", "fewest_covered_squares"]


class NimaliaRoundScores(TypedDict):
    round: int
    objectives: list[int]
    points: Annotated[dict[str, dict[str, int]], Doc("By seat, then by objective id.")]
    totals: list[int]


class NimaliaScores(TypedDict):
    totals: list[int]
    rounds: list[NimaliaRoundScores]
    by_objective: Annotated[dict[str, dict[str, int]], Doc("By seat, then by objective id.")]


class NimaliaPending(TypedDict):
    card: int
    row: int
    col: int
    rotation: int
    squares: list[NimaliaSquare]


class NimaliaSoloTitle(TypedDict):
    min_total: int
    title: str


class NimaliaPlacement(TypedDict):
    card: int
    row: int
    col: int
    rotation: int


class NimaliaOutcome(OutcomeJSON):
    """How a Nimalia match ended; ``scores`` are the final totals. Reasons: finished,
    solo_finished, forfeit. A finished solo game carries its rank ``title``."""

    title: NotRequired[Annotated[str, Doc("Solo: the rank title the total earns.")]]


class NimaliaView(TypedDict):
    """The reserves, scores and draft as a seat or a spectator sees it: a hand and a pending
    placement only to their own seat."""

    game: Literal["nimalia"]
    players: int
    you: int | None
    phase: Literal["placing", "scoring", "finished"]
    round: int
    rounds: int
    turn: int
    turns_per_round: int
    pass_direction: Direction | None
    objectives: list[NimaliaObjective]
    round_card: list[NimaliaRoundCard]
    options: NimaliaOptionsView
    placed: list[bool]
    hand_sizes: list[int]
    deck_size: int
    reserves: list[NimaliaReserve]
    scores: NimaliaScores
    forfeited: list[int]
    actors: list[int]
    waiting_for: list[int]
    hand: NotRequired[list[NimaliaCard]]
    pending: NotRequired[NimaliaPending | None]
    pass_to: NotRequired[int]
    legal_moves: NotRequired[NimaliaLegalMoves | None]
    solo_titles: NotRequired[list[NimaliaSoloTitle]]
    outcome: NotRequired[NimaliaOutcome]
    seed: NotRequired[str]
    deck: NotRequired[list[int]]
    discards: NotRequired[list[int]]
    hands: NotRequired[list[list[int]]]
    placements: NotRequired[list[list[NimaliaPlacement]]]


class NimaliaCardPlaced(TypedDict):
    type: Literal["card_placed"]
    seat: int


class NimaliaPlacementPending(TypedDict):
    """Only to the seat that placed."""

    type: Literal["placement_pending"]
    seat: int
    card: int
    row: int
    col: int
    rotation: int
    private_to: int


class NimaliaPlacementWithdrawn(TypedDict):
    type: Literal["placement_withdrawn"]
    seat: int


class NimaliaPlacementUndone(TypedDict):
    """Only to the seat that took its placement back."""

    type: Literal["placement_undone"]
    seat: int
    card: int
    row: int
    col: int
    rotation: int
    private_to: int


class NimaliaSeatPlacement(TypedDict):
    seat: int
    card: int
    row: int
    col: int
    rotation: int


class NimaliaPlacementsRevealed(TypedDict):
    type: Literal["placements_revealed"]
    round: int
    turn: int
    placements: list[NimaliaSeatPlacement]


class NimaliaCardsDiscarded(TypedDict):
    type: Literal["cards_discarded"]
    seat: int
    cards: list[int]


class NimaliaHand(TypedDict):
    """Only to the seat whose hand it is."""

    type: Literal["hand"]
    seat: int
    cards: list[int]
    why: Literal["dealt", "passed"]
    private_to: int


class NimaliaHandsPassed(TypedDict):
    type: Literal["hands_passed"]
    direction: Direction


class NimaliaRoundComplete(TypedDict):
    type: Literal["round_complete"]
    round: int


class NimaliaRoundScored(TypedDict):
    type: Literal["round_scored"]
    round: int
    points: Annotated[dict[str, dict[str, int]], Doc("By seat, then by objective id.")]
    totals: list[int]


class NimaliaRoundStarted(TypedDict):
    type: Literal["round_started"]
    round: int
    pass_direction: Direction | None
    objectives: list[int]


class NimaliaSeatForfeited(TypedDict):
    type: Literal["seat_forfeited"]
    seat: int


class NimaliaMatchEnded(NimaliaOutcome):
    type: Literal["match_ended"]


TYPES = GameTypes(move=NimaliaMove, view=NimaliaView, legal_moves=NimaliaLegalMoves,
                  events=(NimaliaCardPlaced, NimaliaPlacementPending, NimaliaPlacementWithdrawn,
                          NimaliaPlacementUndone, NimaliaPlacementsRevealed,
                          NimaliaCardsDiscarded, NimaliaHand, NimaliaHandsPassed,
                          NimaliaRoundComplete, NimaliaRoundScored, NimaliaRoundStarted,
                          NimaliaSeatForfeited, NimaliaMatchEnded),
                  outcome=NimaliaOutcome)
