"""The feed entries (and so the notifications) a tournament's players get: it starts soon,
round N has your match, you were withdrawn, it finished and here is your place."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.models import Match, UserEvent
from games.services.notifications import notify
from games.tournaments.models import Entry, Tournament


def people(entries: Iterable[Entry]) -> list[int]:
    """The user ids of the entries' people (bots are told nothing)."""
    return [entry.user_id for entry in entries if not entry.user.is_bot]


def tell(tournament: Tournament, user_ids: Iterable[int], type: str, *,
         match: Match | None = None, **data: Any) -> None:
    """A feed entry of ``type`` about ``tournament`` for each of ``user_ids``."""
    notify(user_ids=user_ids, type=type, match=match, game=tournament.game,
           tournament=str(tournament.id), name=tournament.name, **data)


def tell_starts_soon(tournament: Tournament, entries: Iterable[Entry]) -> None:
    tell(tournament, people(entries), UserEvent.Type.TOURNAMENT_STARTS_SOON,
         starts_at=tournament.starts_at)


def tell_match(tournament: Tournament, entries: Iterable[Entry], match: Match,
               round: int | None) -> None:
    """Round ``round`` (None: a ladder challenge) has this match for them."""
    tell(tournament, people(entries), UserEvent.Type.TOURNAMENT_ROUND, match=match, round=round)


def tell_withdrawn(tournament: Tournament, entry: Entry) -> None:
    tell(tournament, people([entry]), UserEvent.Type.TOURNAMENT_WITHDRAWN,
         reason=entry.withdrawal)


def tell_finished(tournament: Tournament, entries: Iterable[Entry]) -> None:
    for entry in entries:
        if not entry.user.is_bot:
            tell(tournament, [entry.user_id], UserEvent.Type.TOURNAMENT_FINISHED,
                 place=entry.final_rank, cancelled=tournament.status == "cancelled")
