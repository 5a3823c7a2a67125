"""The tournament API's answers, each declared once as a ``TypedDict`` (the schema's
serializers are derived from them, as for the games API)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, TypedDict

from games.selectors.shapes import UUID_TEXT, Doc, OneOf, PlayerRef
from games.tournaments.models import Entry, Tournament

FORMATS = OneOf(Tournament.Format.values)
STATUSES = OneOf(Tournament.Status.values)
WITHDRAWALS = OneOf([value for value in Entry.Withdrawal.values if value])


class TournamentSummary(TypedDict):
    """A tournament in a list."""

    id: Annotated[str, UUID_TEXT]
    name: str
    game: str
    format: Annotated[str, FORMATS]
    status: Annotated[str, STATUSES]
    official: Annotated[bool, Doc("Created by staff: the site's own event.")]
    players_per_match: int
    starts_at: Annotated[datetime, Doc("Entries are taken until then; then it starts.")]
    entrants: int
    max_players: int | None
    rounds: Annotated[int | None, Doc("Swiss: as set; round robin: from its schedule once "
                                      "started; ladder: null.")]
    current_round: int
    rated: bool
    created_by: str
    entered: Annotated[bool, Doc("The caller is in it (withdrawn or not).")]


class Standing(TypedDict):
    """One line of the standings, best first."""

    rank: Annotated[int, Doc("Players level on points and every tie-break share a rank.")]
    player: PlayerRef
    points: float
    buchholz: Annotated[float, Doc("Swiss: the points of every opponent met, once per "
                                   "meeting (a bye adds nothing).")]
    sonneborn_berger: Annotated[float, Doc("For each meeting, the opponent's points times "
                                           "the result against them (1, 0.5 or 0).")]
    head_to_head: Annotated[float, Doc("Round robin: the results against the players level "
                                       "on points only.")]
    played: int
    byes: int
    withdrawn: Annotated[str | None, WITHDRAWALS, Doc("Why the player is out, if they are.")]
    position: Annotated[int | None, Doc("Ladder: the place on the ladder, 1 the top.")]


class Meeting(TypedDict):
    round: Annotated[int, Doc("0 for a ladder challenge.")]
    opponent: Annotated[str | None, Doc("The opponent's username; null for a bye.")]
    result: Annotated[float, Doc("1 placed above, 0.5 level, 0 below; a bye: its points.")]


class CrosstableRow(TypedDict):
    player: str
    meetings: list[Meeting]


class Pairing(TypedDict):
    """A table of a round, a bye, or a ladder challenge."""

    id: int
    players: Annotated[list[str], Doc("Usernames in seat order; one for a bye; a challenge: "
                                      "the challenger first.")]
    match: Annotated[str | None, UUID_TEXT, Doc(
        "Its match; null for a bye, and for a private match to anyone but its players.")]
    bye_points: float | None
    ranks: Annotated[list[int] | None, Doc("Each seat's place at the table (equal: a tie); "
                                           "null until the match ends.")]
    void: Annotated[bool, Doc("Counts for nobody (called off, or voided by staff).")]
    ended_at: datetime | None
    expires_at: Annotated[datetime | None, Doc("A challenge: by when the challenged player "
                                               "must have moved.")]


class TournamentRound(TypedDict):
    number: int
    started_at: datetime
    ends_at: Annotated[datetime | None, Doc("When it ends at the latest; null: when all its "
                                            "matches are over.")]
    finished_at: datetime | None
    pairings: list[Pairing]


class MyEntry(TypedDict):
    """The caller's own entry."""

    withdrawn: Annotated[str | None, WITHDRAWALS]
    late: bool
    position: int | None
    final_rank: int | None
    next_match: Annotated[str | None, UUID_TEXT, Doc(
        "The caller's match of the tournament still running (the current round's, or a "
        "ladder challenge), if any.")]


class TournamentDetail(TypedDict):
    """A tournament with its settings, standings, crosstable, rounds and the caller's entry."""

    summary: TournamentSummary
    config: dict[str, Any]
    time_control: Annotated[dict[str, Any], Doc("The clock of every match (the form "
                                                 "POST /matches takes).")]
    plans_allowed: bool
    bots_allowed: bool
    min_players: int
    min_rating: int | None
    min_games: int | None
    round_days: int | None
    placing_points: list[float]
    challenge_reach: int | None
    challenge_days: int | None
    tie_breaks: Annotated[list[str], Doc("The order the standings are sorted in, after points "
                                         "(buchholz, sonneborn_berger, head_to_head).")]
    standings: list[Standing]
    crosstable: list[CrosstableRow]
    rounds_played: list[TournamentRound]
    challenges: Annotated[list[Pairing], Doc("Ladder: its challenges, latest first.")]
    me: MyEntry | None
    can_join: Annotated[bool, Doc("The caller may enter now (on the tournament's side: the "
                                  "rating and games minimums are checked on entry).")]


class TournamentHistoryEntry(TypedDict):
    """One tournament a player entered."""

    tournament: TournamentSummary
    final_rank: int | None
    withdrawn: Annotated[str | None, WITHDRAWALS]
