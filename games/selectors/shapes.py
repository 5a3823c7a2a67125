"""The response shapes of the games API, each declared once as a ``TypedDict``.

Selectors and services build these dicts (the type checker holds every literal to its shape),
the views answer them as they are, and ``games.api.schemas`` derives the OpenAPI serializers from
the same declarations: the schema component of a shape has the shape's name, its fields in the
declared order, all of them required. A field's type says how the schema shows it:

* ``int``, ``float``, ``bool``, ``str``, ``datetime``: the scalar; ``X | None``: nullable;
* ``Any``: any JSON value; ``dict[str, Any]``: a JSON object; ``list[X]``: an array of X;
* another shape: its component (``list[Shape]``: an array of them);
* ``Annotated[X, Doc("...")]`` adds a description, ``Annotated[str, OneOf(values)]`` makes an
  enum, ``Annotated[str, UUID_TEXT]`` a string in UUID format.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, TypedDict

from accounts.models import User
from games import models, movelog
from games.clocks import control


@dataclass(frozen=True)
class Doc:
    """The description of a field in the schema."""

    text: str


@dataclass(frozen=True)
class OneOf:
    """The values a text field may take, in the order the schema lists them."""

    values: tuple[str, ...]

    def __init__(self, values: Iterable[str]) -> None:
        object.__setattr__(self, "values", tuple(values))


@dataclass(frozen=True)
class Format:
    """The format of a text field (``uuid``)."""

    name: str


UUID_TEXT = Format("uuid")
MATCH_STATUS = OneOf(models.Match.Status.values)
MOVE_KIND = OneOf(models.Move.Kind.values)
INVITATIONS = OneOf(User.Invitations.values)
EVENT_TYPE = OneOf(models.UserEvent.Type.values)
CLOCK_KINDS = OneOf(control.KINDS)
UNRATED_REASONS = OneOf([movelog.TIMEOUT_RUN])


class PlayerRef(TypedDict):
    username: str
    is_bot: bool


class Seat(TypedDict):
    index: int
    player: PlayerRef | None
    on_vacation: Annotated[bool, Doc(
        "The seat's player is on vacation now (a person only: never a bot or an open seat). "
        "Nothing else of the player's vacation is shown.")]
    joined: Annotated[bool, Doc("False for an invitation not yet accepted.")]
    to_act: bool
    forfeited: bool
    rank: int | None
    score: float | None


class MatchSummary(TypedDict):
    """What lists show of a match: no game view, no hidden state."""

    id: Annotated[str, UUID_TEXT]
    game: str
    status: Annotated[str, MATCH_STATUS]
    players: int
    rated: bool
    version: Annotated[int, Doc("+1 per recorded transition.")]
    time_control: Annotated[dict[str, Any] | None, Doc(
        "The correspondence clock, by its kind (per_move or bank); null for a casual match.")]
    turn_seconds: Annotated[int | None, Doc(
        "A per_move match's turn in seconds (time_control.turn_seconds), kept for older "
        "clients; null for a bank or a casual match.")]
    deadline: Annotated[datetime | None, Doc(
        "The soonest deadline of the seats whose clocks run (a real-time race: its idle "
        "limit); null when none runs.")]
    created_at: datetime
    updated_at: datetime
    started_at: Annotated[datetime | None, Doc("When every seat had joined; null before.")]
    finished_at: Annotated[datetime | None, Doc(
        "When the match ended (finished or aborted); null while it runs.")]
    seats: list[Seat]
    to_act: list[int]
    your_seat: int | None
    is_your_turn: bool
    invitation_pending: Annotated[bool, Doc(
        "A seat is reserved for you: join to accept, or decline.")]
    outcome: Any | None
    private: Annotated[bool, Doc(
        "Seen only by its seats: marked private, or a player keeps their matches private.")]
    unrated_reason: Annotated[str | None, UNRATED_REASONS, Doc(
        "Why a match created rated ends unrated: timeout_run when a player timed out of it "
        "while already in a run of timeouts without moving anywhere (only the first of a run "
        "is rated); null otherwise.")]


class SeatClock(TypedDict):
    """One seat's clock as of the answer."""

    seat: int
    time_left: Annotated[int, Doc(
        "Seconds of running time the seat has left as of `as_of` (a per_move turn or the "
        "bank); never negative.")]
    deadline: Annotated[datetime | None, Doc(
        "When the seat's time runs out if it does not move, weekend pauses counted; null while "
        "its clock stands still.")]
    on_turn: Annotated[bool, Doc("The seat must act: its turn is on.")]
    running: Annotated[bool, Doc(
        "The clock runs: its turn is on and its player is not on vacation.")]
    counting: Annotated[bool, Doc(
        "The clock counts down at `as_of`: it runs and no weekend pause holds it.")]
    vacation: Annotated[bool, Doc("The seat's player is on vacation: its clock stands still.")]


class MatchClocks(TypedDict):
    """Each seat's clock as of the answer."""

    kind: Annotated[str, CLOCK_KINDS, Doc("The time control's kind.")]
    as_of: Annotated[datetime, Doc("The instant the clocks were read at.")]
    seats: Annotated[list[SeatClock], Doc("One per seat, in seat order.")]


class SeatRatingChange(TypedDict):
    """One seat's rating change from a rated match."""

    seat: int | None
    username: str
    rating_before: int
    rating_after: int
    change: Annotated[int, Doc("rating_after - rating_before.")]


class MatchAftermath(TypedDict):
    """What follows a finished match."""

    rating_changes: Annotated[list[SeatRatingChange], Doc(
        "Each seat's rating change, once a finished rated match is rated (a moment after it "
        "ends); empty otherwise.")]
    rematch: Annotated[str | None, Doc(
        "The rematch made of this match (POST .../rematch), if any.")]
    rematch_of: Annotated[str | None, Doc("The match this one is the rematch of, if any.")]


class MatchDetail(MatchSummary, MatchAftermath):
    """The caller's view of a match: the summary plus the game as the caller's seat sees it."""

    config: Any
    view: Annotated[Any | None, Doc("The game as the caller's seat sees it.")]
    legal_moves: Annotated[Any | None, Doc("The caller's legal moves, compact form.")]
    seed: Annotated[str | None, Doc("Revealed once the match is over.")]
    clocks: Annotated[MatchClocks | None, Doc(
        "Each seat's clock as of the answer; null for a casual match.")]
    plans: Annotated[bool, Doc(
        "Whether its seats may hold plans (conditional moves), as chosen when it was created "
        "(`plans` of POST /matches); plans apply only where the game allows them too (two "
        "players taking turns, never in real time).")]


class MoveResult(TypedDict):
    """The answer to a recorded move."""

    seq: int
    events: list[dict[str, Any]]
    match: MatchDetail


class MovePreview(TypedDict):
    """The answer to a dry run of a move: whether it is legal (an illegal one answers its
    coded error instead) and only what the caller may know before playing it."""

    legal: bool
    reveals_hidden: Annotated[bool, Doc(
        "True when the move's result depends on something the caller does not know yet (the "
        "card a Nimble flip turns up, the other seats' hidden Nimalia placements and the hands "
        "passed or dealt after the last one); events are then empty and view null.")]
    events: Annotated[list[dict[str, Any]], Doc(
        "The move's events as the caller would see them; empty when reveals_hidden.")]
    view: Annotated[Any | None, Doc(
        "The caller's view after the move, without legal moves; null when reveals_hidden or "
        "when the move would end the match (the events then carry the result).")]


class MoveLogEntry(TypedDict):
    seq: int
    kind: Annotated[str, MOVE_KIND]
    seat: int | None
    player: PlayerRef | None
    payload: Annotated[Any | None, Doc("Null when hidden from the caller.")]
    events: list[dict[str, Any]]
    by_plan: Annotated[bool, Doc(
        "A seat's move its plan played (the reply it had planned to the move before), not its "
        "player by hand; shown to every seat.")]
    created_at: datetime


class PlanAnswer(TypedDict):
    """The caller's plan for a match (conditional moves), shown to its owner alone."""

    plan: Annotated[list[dict[str, Any]], Doc(
        "The plan's branches, or its openings when it was saved for the caller's own turn, "
        "every field written (empty: no plan).")]
    plan_version: Annotated[int | None, Doc(
        "The match's version the plan was saved at, or of the move whose branch it last took; "
        "null without a plan.")]
    version: Annotated[int, Doc("The match's version now.")]


class MoveLog(TypedDict):
    """A page of the move log."""

    moves: list[MoveLogEntry]
    next_after: Annotated[int, Doc("Pass as `after` for the next page.")]
    version: int


class MatchEvents(TypedDict):
    """A long-poll answer about a match: the move log after a seq, and where the match is."""

    moves: list[MoveLogEntry]
    next_after: Annotated[int, Doc("Pass as `after` in the next request.")]
    version: int
    status: Annotated[str, MATCH_STATUS]


class UserEvent(TypedDict):
    """One entry of a player's event feed."""

    id: int
    type: Annotated[str, EVENT_TYPE]
    match: Annotated[str | None, UUID_TEXT]
    game: str | None
    data: Annotated[dict[str, Any], Doc(
        "Depends on the type: e.g. `version` and `deadline` (your_turn), `deadline` (the "
        "player's own), `offset` (the reminder's, seconds before it) and `left_seconds` "
        "(running time left then) (deadline_soon), `rank` and `reason` (match_finished), "
        "`before` and `after` (rating_changed), `by` (invited), `runs_out_at` and "
        "`left_seconds` (vacation_ending), `since` and `ended_at` (vacation_ended), `since` "
        "and `runs_out_at` (auto_vacation_started, with the match whose deadline passed), "
        "`version` and `key` (plan_not_covered: the other seat's move, as you saw it, that "
        "your plan did not cover; plan_dropped also with `cause`: the engine's code for a "
        "refused reply, or chain_limit); `by` (chat: who wrote; warned: nothing); for the "
        "tournament entries, `tournament` (its id) and "
        "`name`, with `starts_at` (tournament_starts_soon), `round` (tournament_round, null "
        "for a ladder challenge; the entry's match is the new match), `reason` (withdrew, "
        "no_show or disqualified: tournament_withdrawn), `place` and `cancelled` "
        "(tournament_finished).")]
    created_at: datetime


class UserEventFeed(TypedDict):
    """A long-poll answer about the caller's feed."""

    events: list[UserEvent]
    next_after: Annotated[int, Doc("Pass as `after` in the next request.")]


class Bot(TypedDict):
    """A bot account that plays, with its rating in its own game."""

    username: str
    game: str
    level: int
    description: str
    rating: int | None
    provisional: bool


class Preset(TypedDict):
    """A named set of options, for example "First game": a partial config (left-out options
    keep their defaults)."""

    key: str
    name: str
    description: str
    config: dict[str, Any]
    players: Annotated[int | None, Doc("The player count it is meant for; null: any.")]


class Game(TypedDict):
    """A game of the catalogue, with the options a match of it takes and its presets."""

    slug: str
    name: str
    min_players: int
    max_players: int
    options: Annotated[list[dict[str, Any]], Doc(
        "Each option: name, type, default, description (for client authors), choices, "
        "minimum, maximum, and in players' words label, help and value_labels (a list of "
        "{value: the value as JSON text, label}).")]
    presets: list[Preset]


class GamePicture(TypedDict):
    """An example position of a game, drawn by the server's renderer."""

    name: str
    caption: str
    url: str


class GameRules(TypedDict):
    """A game's rules as HTML: ``html`` for players, ``technical_html`` for client authors."""

    game: str
    name: str
    title: str
    html: str
    technical_html: str
    pictures: list[GamePicture]


class TutorialStep(TypedDict):
    """One step of a tutorial: the position before the move (the learner's view and its legal
    moves cut down to the suggested one), the move to make and the words before and after."""

    text: str
    done: str
    move: dict[str, Any]
    view: dict[str, Any]
    legal_moves: Any


class GameTutorial(TypedDict):
    """A short scripted first match, played through by the game's engine."""

    game: str
    name: str
    seat: int
    players: int
    names: list[str]
    intro: str
    steps: list[TutorialStep]
    end: str
    final_view: dict[str, Any]


class Rating(TypedDict):
    """A player's current rating in one game."""

    game: str
    rating: Annotated[int, Doc("Display rating: 1500 + 60 * (mu - 25).")]
    mu: float
    sigma: float
    games_played: int
    provisional: bool


class Player(TypedDict):
    """A player (a person or a bot) with a rating per game played."""

    username: str
    is_bot: bool
    is_guest: Annotated[bool, Doc("Playing without an account yet: unrated, bots only.")]
    bot_game: str | None
    bot_level: int | None
    date_joined: datetime
    on_vacation: Annotated[bool, Doc(
        "The player is on vacation now (never a bot). Nothing else of the vacation is shown.")]
    ratings: list[Rating]


_LANGUAGE_DOC = Doc(
    "The language you read Boardpost in (en, fr, pt-br or ko): the API's messages, "
    "notifications and mails use it whatever the client's Accept-Language; null to follow "
    "Accept-Language.")


class Me(Player):
    """The caller: their player profile and their language."""

    language: Annotated[str | None, _LANGUAGE_DOC]


class PlayerSettings(TypedDict):
    """The caller's own settings."""

    matches_private: Annotated[bool, Doc(
        "Your matches are seen only by their seats (past ones included).")]
    is_guest: Annotated[bool, Doc("A guest account: sign up with POST /api/auth/guest/convert.")]
    language: Annotated[str | None, _LANGUAGE_DOC]
    invitations: Annotated[str, INVITATIONS, Doc(
        "Who may invite you to a match or offer you a rematch: everyone, friends (players "
        "you follow who follow you back) or nobody.")]


class Vacation(TypedDict):
    """The caller's own vacation (nobody else sees the bank: opponents only see that a player
    is on vacation)."""

    on_vacation: bool
    since: Annotated[datetime | None, Doc("When the running vacation began; null when none.")]
    left_seconds: Annotated[int, Doc(
        "The vacation time in the bank at as_of, in seconds: spent while on vacation, earned "
        "while not (up to cap_seconds).")]
    runs_out_at: Annotated[datetime | None, Doc(
        "When the running vacation uses up the bank and ends by itself; null when none runs.")]
    auto_vacation: Annotated[bool, Doc(
        "A seat whose time runs out starts a vacation at that instant instead of the timeout, "
        "while the bank holds at least what a return gives back (a day, or the match's turn "
        "if shorter).")]
    cap_seconds: Annotated[int, Doc("The most the bank holds.")]
    accrual_seconds_per_day: Annotated[int, Doc("What each day off vacation adds to the bank.")]
    as_of: Annotated[datetime, Doc("The instant the answer was counted at.")]
