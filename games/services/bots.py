"""Bot turns: a bot chooses from what its seat may see, then moves through the one write path."""

from __future__ import annotations

from uuid import UUID

from django.db import transaction

from accounts.models import User
from games.catalog import engines, game, get_engine
from games.kit.bots import DESCRIPTIONS
from games.kit.protocol import EngineError, apply_checked, events_for, seeded_rng
from games.models import Match, Move, Seat
from games.selectors import match_seats, seat_bot_level
from games.services import transition_record

LEVELS = (1, 2, 3)


def bot_username(game: str, level: int) -> str:
    return f"{game}-bot-{level}"


def bot_accounts_ensure() -> list[User]:
    """One bot account per game and level, created or brought up to date."""
    return [bot_account_ensure(game, level) for game in sorted(engines()) for level in LEVELS]


@transaction.atomic
def bot_account_ensure(game: str, level: int) -> User:
    """The bot account of ``game`` at ``level``, created or brought up to date."""
    bot, _ = User.objects.update_or_create(
        is_bot=True, bot_game=game, bot_level=level,
        defaults={"username": bot_username(game, level),
                  "bot_description": f"{engines()[game].name} level {level}. "
                                     f"{DESCRIPTIONS[level]}"},
    )
    if bot.has_usable_password():
        bot.set_unusable_password()
        bot.save(update_fields=["password"])
    return bot


def _choose(match: Match, seat: Seat, level: int, label: object) -> dict:
    """The bot's move from its own view (and, for bots that remember, the events its seat was
    shown); reproducible from the seed and ``label``."""
    engine = get_engine(match.game)
    state = engine.load(match.state)
    rng = seeded_rng(match.seed, "bot", label, seat.index)
    history: list[dict] = []
    spec = game(match.game)
    if spec.needs_history(level):
        for events in match.moves.order_by("seq").values_list("events", flat=True):
            history.extend(events_for(events, seat.index))
    return spec.choose_move(level, engine.view(state, seat.index), seat.index, rng,
                       history=history)


def match_bot_move_play(*, match_id: UUID | str, expected_version: int, seat: int) -> bool:
    """Play one bot move for ``seat`` if the match is still at ``expected_version``.

    The move is chosen outside the row lock (a level-3 bot thinks for up to two seconds), then
    recorded under the lock only if nothing moved meanwhile. Returns whether a move was
    recorded; a stale or repeated task records nothing."""
    match = Match.objects.filter(id=match_id).first()
    if match is None or match.status != Match.Status.ACTIVE or match.version != expected_version:
        return False
    if seat not in match.actors:
        return False
    bot_seat = next((s for s in match_seats(match) if s.index == seat), None)
    level = seat_bot_level(bot_seat) if bot_seat else None
    if level is None:
        return False
    payload = _choose(match, bot_seat, level, expected_version)
    return _record_bot_move(match_id=match.id, seat=seat, payload=payload,
                            expected_version=expected_version)


@transaction.atomic
def _record_bot_move(*, match_id: UUID, seat: int, payload: dict, expected_version: int) -> bool:
    """Record a turn bot's move under the row lock, only if the match has not moved since the
    bot chose."""
    match = Match.objects.select_for_update(of=("self",)).get(id=match_id)
    if match.status != Match.Status.ACTIVE or match.version != expected_version:
        return False
    return _apply_locked(match, seat, payload)


def _apply_locked(match: Match, seat: int, payload: dict) -> bool:
    """Apply a bot's move to the latest state; the caller holds the match row lock. A move the
    state no longer allows (someone was faster) is skipped."""
    engine = get_engine(match.game)
    bot_seat = next(s for s in match_seats(match) if s.index == seat)
    try:
        move = engine.parse_move(payload)
        transition = apply_checked(engine, engine.load(match.state), seat, move)
    except EngineError:
        return False
    transition_record(match=match, engine=engine, kind=Move.Kind.MOVE, seat=seat,
                       user=bot_seat.user, payload=engine.dump_move(move),
                       transition=transition)
    return True


def match_bot_race_tick(*, match_id: UUID | str, seat: int, ticket: int) -> bool:
    """One action of a bot in a real-time match, then the next one scheduled.

    ``ticket`` must equal the seat's ``bot_ticket``; running bumps it, so a duplicate delivery
    of the same tick does nothing. The move is chosen from the latest view and applied to the
    latest state; if someone got there first it is simply skipped. Returns whether it moved."""
    match = Match.objects.filter(id=match_id).first()
    if match is None or match.status != Match.Status.ACTIVE:
        return False
    bot_seat = next((s for s in match_seats(match) if s.index == seat), None)
    level = seat_bot_level(bot_seat) if bot_seat else None
    if level is None or bot_seat.bot_ticket != ticket or seat not in match.actors:
        return False
    payload = _choose(match, bot_seat, level, f"race-{ticket}")
    with transaction.atomic():
        # The match row first, as every write path does, then the seat's ticket.
        match = Match.objects.select_for_update(of=("self",)).get(id=match.id)
        if match.status != Match.Status.ACTIVE:
            return False
        if not Seat.objects.filter(id=bot_seat.id, bot_ticket=ticket).update(
                bot_ticket=ticket + 1):
            return False
        moved = _apply_locked(match, seat, payload)
        if match.status == Match.Status.ACTIVE:
            from games import tasks

            transaction.on_commit(lambda: tasks.schedule_race_tick(
                str(match.id), seat, ticket + 1, level))
    return moved
