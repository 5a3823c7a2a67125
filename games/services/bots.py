"""Bots at the table: their accounts, a turn bot's move, and a real-time bot's clock.

A bot chooses from what its seat may see, outside any lock (a level-3 bot thinks for up to two
seconds), then plays through the same recording path as a person, under ``match_lock``, only if
the match is still where the bot looked."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.db import transaction

from accounts.models import User
from games import metrics
from games.catalog import engines, game, games, get_engine
from games.kit.bots import DESCRIPTIONS
from games.kit.protocol import EngineError, events_for, seeded_rng
from games.models import Match, Seat
from games.selectors import match_seats, match_state, seat_bot_level
from games.services import _recording, due, scheduling
from games.services.locking import LockedMatch, match_lock


def bot_username(game: str, level: int) -> str:
    return f"{game}-bot-{level}"


def bot_levels() -> list[tuple[str, int]]:
    """Every (game, level) that has a bot: the levels each game's package has a policy for."""
    return [(slug, level) for slug, spec in sorted(games().items()) for level in spec.levels]


def bot_accounts_ensure() -> list[User]:
    """One bot account per game and level, created or brought up to date."""
    return [bot_account_ensure(game, level) for game, level in bot_levels()]


@transaction.atomic
def bot_account_ensure(game: str, level: int) -> User:
    """The bot account of ``game`` at ``level``, created or brought up to date.

    Its description says what the level does and, where it was measured (docs/bots.md), its
    strength (the game's ``texts.strength``): shown in the bot list and the lobby. It is stored
    in English, and the bot list puts each of its sentences in the caller's language
    (``games.selectors.matches.bot_description``)."""
    bot, _ = User.objects.update_or_create(
        is_bot=True, bot_game=game, bot_level=level,
        defaults={"username": bot_username(game, level),
                  "bot_description": " ".join(filter(None, (
                      f"{engines()[game].name} level {level}.", DESCRIPTIONS[level],
                      games()[game].texts.strength.get(level))))[:200]},
    )
    if bot.has_usable_password():
        bot.set_unusable_password()
        bot.save(update_fields=["password"])
    return bot


def _choose(match: Match, seat: Seat, level: int, label: object) -> Any:
    """The bot's move from its own view (and, for bots that remember, the events its seat was
    shown); reproducible from the seed and ``label``."""
    engine = get_engine(match.game)
    state = match_state(match, engine)
    rng = seeded_rng(match.seed, "bot", label, seat.index)
    history: list[dict[str, Any]] = []
    spec = game(match.game)
    if spec.needs_history(level):
        for events in match.moves.order_by("seq").values_list("events", flat=True):
            history.extend(events_for(events, seat.index))
    view = engine.view(state, seat.index)
    with metrics.bot_thinking(match.game, level):
        return spec.choose_move(level, view, seat.index, rng, history=history)


def _bot_seat(match: Match, seat: int) -> tuple[Seat, int] | None:
    """The seat and the level of the bot that plays it, if a bot plays it."""
    bot_seat = next((s for s in match_seats(match) if s.index == seat), None)
    level = seat_bot_level(bot_seat) if bot_seat is not None else None
    if bot_seat is None or level is None:
        return None
    return bot_seat, level


def _play(locked: LockedMatch, seat: Seat, payload: Any) -> bool:
    """Play a bot's move on the latest state of the locked match. A move the state no longer
    allows (someone was faster) is skipped."""
    try:
        _recording.play(locked=locked, seat=seat.index, user=seat.user, payload=payload)
    except EngineError:
        return False
    metrics.move_recorded(locked.match.game, "bot")
    return True


def match_bot_move_play(*, match_id: UUID | str, expected_version: int, seat: int) -> bool:
    """Play one bot move for ``seat`` if the match is still at ``expected_version``.

    The move is chosen outside the row lock, then recorded under the lock only if nothing
    moved meanwhile. Returns whether a move was recorded; a stale or repeated task records
    nothing."""
    match = Match.objects.filter(id=match_id).first()
    if match is None or match.status != Match.Status.ACTIVE or match.version != expected_version:
        return False
    found = _bot_seat(match, seat) if seat in match.actors else None
    if found is None:
        return False
    payload = _choose(match, found[0], found[1], expected_version)
    with transaction.atomic():
        locked = match_lock(match_id=match.id, missing_ok=True)
        if (locked is None or locked.match.status != Match.Status.ACTIVE
                or locked.match.version != expected_version):
            return False
        return _play(locked, locked.seat(seat), payload)


def match_bot_race_tick(*, match_id: UUID | str, seat: int, ticket: int) -> bool:
    """One action of a bot in a real-time match, then the next one scheduled.

    ``ticket`` must equal the seat's ``bot_ticket``; running bumps it, so a duplicate delivery
    of the same tick does nothing. The move is chosen from the latest view and applied to the
    latest state; if someone got there first it is simply skipped. Returns whether it moved."""
    match = Match.objects.filter(id=match_id).first()
    if match is None or match.status != Match.Status.ACTIVE:
        return False
    found = _bot_seat(match, seat)
    if found is None or found[0].bot_ticket != ticket or seat not in match.actors:
        return False
    level = found[1]
    payload = _choose(match, found[0], level, f"race-{ticket}")
    with transaction.atomic():
        locked = match_lock(match_id=match.id, missing_ok=True)
        if locked is None or locked.match.status != Match.Status.ACTIVE:
            return False
        # Tickets change only under the match lock, so the seat read with it is current.
        bot_seat = locked.seat(seat)
        if bot_seat.bot_ticket != ticket:
            return False
        bot_seat.bot_ticket = ticket + 1
        bot_seat.save(update_fields=["bot_ticket"])
        due.race_chain_progressed(locked, bot_seat)
        moved = _play(locked, bot_seat, payload)
        if locked.match.status == Match.Status.ACTIVE:
            scheduling.race_tick_after_commit(match_id=str(locked.match.id), seat=seat,
                                              ticket=ticket + 1, level=level)
    return moved
