"""Creating a tournament: every setting checked before anything is written."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.exceptions import GuestNotAllowed
from accounts.models import User
from games.clocks import control
from games.selectors import game_engine
from games.services.clocks import time_control_checked
from games.tournaments.exceptions import InvalidTournament
from games.tournaments.formats.ladder import DEFAULT_REACH
from games.tournaments.formats.records import DEFAULT_PLACING_POINTS
from games.tournaments.formats.roundrobin import DEFAULT_MAX_PLAYERS
from games.tournaments.models import Tournament
from games.tournaments.services.marking import due_mark

# Bounds of the settings (also in docs/tournaments.md).
MAX_ROUNDS = 20
MAX_ROUND_DAYS = 60
MAX_PLAYERS = 2000
MAX_ROUND_ROBIN_PLAYERS = 20
MAX_START_DAYS = 90
MAX_REACH = 20
MAX_CHALLENGE_DAYS = 30
DEFAULT_CHALLENGE_DAYS = 7
DEFAULT_SWISS_ROUNDS = 5


@dataclass(frozen=True)
class Settings:
    """What a tournament is created with (see ``Tournament`` for each field)."""

    name: str
    game: str
    format: str
    starts_at: datetime
    time_control: Mapping[str, Any]
    players_per_match: int = 2
    config: Mapping[str, Any] = field(default_factory=dict)
    rated: bool = True
    plans_allowed: bool = True
    bots_allowed: bool = False
    min_players: int = 2
    max_players: int | None = None
    min_rating: int | None = None
    min_games: int | None = None
    rounds: int | None = None
    round_days: int | None = None
    placing_points: Sequence[float] | None = None
    challenge_reach: int | None = None
    challenge_days: int | None = None


def _bad(field: str, message: str, **extra: Any) -> InvalidTournament:
    return InvalidTournament(message, field=field, **extra)


def _within(field: str, value: int | None, low: int, high: int) -> None:
    if value is not None and not low <= value <= high:
        raise _bad(field, _("%(field)s must be from %(low)d to %(high)d.")
                   % {"field": field, "low": low, "high": high}, minimum=low, maximum=high)


@transaction.atomic
def tournament_create(*, user: User, settings: Settings, official: bool = False) -> Tournament:
    """Create a tournament taking entries until it starts (``official``: staff's own event).
    A bad setting is ``invalid_tournament`` with ``extra.field``; bad game options
    ``invalid_config``; a bad clock ``invalid_time_control``; nothing is created."""
    if user.is_guest:
        raise GuestNotAllowed(_("Guests cannot create tournaments; sign up first."))
    values = _checked(settings)
    tournament = Tournament.objects.create(created_by=user, official=official,
                                           seed=secrets.token_hex(16), **values)
    due_mark(tournament)
    tournament.save(update_fields=["due_at"])
    return tournament


def _checked(settings: Settings) -> dict[str, Any]:
    """The settings as model fields, each checked and defaulted."""
    name = settings.name.strip()
    if not 1 <= len(name) <= 100:
        raise _bad("name", _("Give the tournament a name of 1 to 100 characters."))
    if settings.format not in Tournament.Format.values:
        raise _bad("format", _("The format is swiss, round_robin or ladder."),
                   choices=list(Tournament.Format.values))
    size = settings.players_per_match
    engine = game_engine(settings.game)
    if not max(2, engine.min_players) <= size <= engine.max_players or (
            settings.format == Tournament.Format.LADDER and size != 2):
        raise _bad("players_per_match", _("This game and format do not take tables of that "
                                          "size."))
    state = engine.initial_state(num_players=size, config=dict(settings.config), seed="check")
    if engine.is_realtime(state):
        raise _bad("config", _("Tournament matches are played by correspondence, not in real "
                               "time."))
    timing = time_control_checked(settings.time_control)
    if timing is None:
        raise _bad("time_control", _("A tournament needs a time control."))
    return {"name": name, "game": settings.game, "format": settings.format,
            "players_per_match": size, "config": dict(settings.config),
            "time_control": control.dump(timing), "rated": settings.rated,
            "plans_allowed": settings.plans_allowed, "bots_allowed": settings.bots_allowed,
            **_entry_rules(settings), **_format_rules(settings)}


def _entry_rules(settings: Settings) -> dict[str, Any]:
    now = timezone.now()
    if not now - timedelta(minutes=1) <= settings.starts_at <= now + timedelta(
            days=MAX_START_DAYS):
        raise _bad("starts_at", _("The start must be from now to %(days)d days ahead.")
                   % {"days": MAX_START_DAYS})
    top = MAX_ROUND_ROBIN_PLAYERS if settings.format == Tournament.Format.ROUND_ROBIN \
        else MAX_PLAYERS
    maximum = settings.max_players
    if maximum is None and settings.format == Tournament.Format.ROUND_ROBIN:
        maximum = DEFAULT_MAX_PLAYERS
    _within("min_players", settings.min_players, 2, top)
    _within("max_players", maximum, settings.min_players, top)
    _within("min_rating", settings.min_rating, 0, 5000)
    _within("min_games", settings.min_games, 0, 10000)
    return {"starts_at": settings.starts_at, "min_players": settings.min_players,
            "max_players": maximum, "min_rating": settings.min_rating,
            "min_games": settings.min_games}


def _format_rules(settings: Settings) -> dict[str, Any]:
    swiss = settings.format == Tournament.Format.SWISS
    ladder = settings.format == Tournament.Format.LADDER
    if settings.rounds is not None and not swiss:
        raise _bad("rounds", _("Only a Swiss tournament sets its number of rounds."))
    _within("rounds", settings.rounds, 1, MAX_ROUNDS)
    if settings.round_days is not None and ladder:
        raise _bad("round_days", _("A ladder has no rounds."))
    _within("round_days", settings.round_days, 1, MAX_ROUND_DAYS)
    if not ladder and (settings.challenge_reach is not None
                       or settings.challenge_days is not None):
        raise _bad("challenge_reach", _("Only a ladder has challenges."))
    _within("challenge_reach", settings.challenge_reach, 1, MAX_REACH)
    _within("challenge_days", settings.challenge_days, 1, MAX_CHALLENGE_DAYS)
    return {"rounds": (settings.rounds or DEFAULT_SWISS_ROUNDS) if swiss else None,
            "round_days": settings.round_days,
            "placing_points": _placing(settings),
            "challenge_reach": (settings.challenge_reach or DEFAULT_REACH) if ladder else None,
            "challenge_days": (settings.challenge_days or DEFAULT_CHALLENGE_DAYS)
            if ladder else None}


def _placing(settings: Settings) -> list[float]:
    """Points per placing: a win and a draw's half for two players; for larger tables the
    creator's (one value a place, never rising, 0 to 100) or the default."""
    size = settings.players_per_match
    given = settings.placing_points
    if given is None or size == 2:
        if given is not None:
            raise _bad("placing_points", _("Two-player tables score 1 for a win and half for "
                                           "a draw."))
        return list(DEFAULT_PLACING_POINTS[size])
    values = [float(value) for value in given]
    if len(values) != size or any(not 0 <= value <= 100 for value in values) or any(
            later > earlier for earlier, later in zip(values, values[1:], strict=False)) or \
            values[0] == values[-1]:
        raise _bad("placing_points", _("Give one value a place, first place first, never "
                                       "rising, from 0 to 100."))
    return values
