"""Reads for the board picture (``GET /api/matches/{id}/board.svg``): what the caller's seat sees
of the current position, or of a past one replayed from the move log once the match is over.

Either way the picture is drawn from ``engine.view(state, seat)`` alone, so it hides what the
view hides. The seats' names come with it; in the current position a player on vacation is
marked after their name, "bob (on vacation)", as the match detail's ``on_vacation`` marks them
(the pictures are written in English, and so is the mark). A past position marks nobody: it is
kept by caches for a day, and a vacation is news of now, not of that move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from accounts.models import User
from config.exceptions import Conflict
from games.catalog import get_engine
from games.exceptions import MatchNotStarted
from games.kit.render import REVISION
from games.models import Match
from games.movelog import state_at
from games.selectors.matches import PUBLIC_STATUSES, match_etag, match_seats, seat_of
from games.selectors.vacations import seats_away

# What follows the name of a player on vacation in the current position's picture.
AWAY_MARK = "(on vacation)"


class ReplayNotAvailable(Conflict):
    code = "replay_not_available"
    default_message = ("Past positions are drawn only once the match is over; leave out seq "
                       "for the current one.")


@dataclass(frozen=True)
class BoardPicture:
    """What to draw: the viewer's view, the seats' player names (marked as ``board_names``
    says), and its cache validator."""

    game: str
    view: dict[str, Any]
    names: list[str | None]
    etag: str
    past: bool


def board_etag(match: Match, seq: int | None) -> str:
    """The match detail's ETag (with the players on vacation, whom the current position marks;
    ``match_etag``), marked as this picture (and its position, for ``?seq``, which marks nobody)
    and the renderer's revision, so a new renderer is never served from an old cache entry."""
    if seq is None:
        return f'{match_etag(match)[:-1]}-svg{REVISION}"'
    return f'{match.etag[:-1]}-svg{REVISION}-seq{seq}"'


def board_names(match: Match, *, marked: bool) -> list[str | None]:
    """The seats' player names in seat order (None for an open seat); ``marked``: a player on
    vacation is named with ``AWAY_MARK`` after the name."""
    seats = match_seats(match)
    away = seats_away(seats) if marked else [False] * len(seats)
    return [None if seat.user is None
            else f"{seat.user.username} {AWAY_MARK}" if is_away else seat.user.username
            for seat, is_away in zip(seats, away, strict=True)]


def board_check(match: Match, seq: int | None) -> None:
    """Refuse what cannot be drawn: a match not started, a past position of a running match.
    (Whether ``seq`` is one of the match's positions, 0 to its version, is the caller's to
    check: it is a matter of the request.)"""
    if match.state is None:
        raise MatchNotStarted(_("The match has not started: there is no board to draw yet."))
    if seq is not None and match.status not in PUBLIC_STATUSES:
        raise ReplayNotAvailable(status=match.status)


def board_picture(*, match: Match, user: User, seq: int | None = None) -> BoardPicture:
    """The caller's view to draw: of the current position, or (only once the match is over)
    of the position after move ``seq``. The caller's seat is found as for the match detail;
    anyone else gets the spectator view."""
    board_check(match, seq)
    engine = get_engine(match.game)
    mine = seat_of(match, user)
    viewer = mine.index if mine else None
    if seq is None or seq == match.version:
        assert match.state is not None  # board_check refuses a match not started
        state = engine.load(match.state)
    else:
        state = state_at(match, engine, seq)
    view = engine.view(state, viewer)
    view.pop("legal_moves", None)  # not drawn; and only ever the caller's own
    return BoardPicture(game=match.game, view=view, names=board_names(match, marked=seq is None),
                        etag=board_etag(match, seq), past=seq is not None)
