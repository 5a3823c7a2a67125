"""Bot turns: a bot chooses from what its seat may see, then moves through the one write path."""

from __future__ import annotations

from uuid import UUID

from django.db import transaction

from accounts.models import User
from games.bots import DESCRIPTIONS, choose_move
from games.engines import ENGINES, get_engine
from games.engines.base import EngineError, apply_checked, seeded_rng
from games.models import Match, Move
from games.selectors import match_seats
from games.services import _transition_record

# A seat whose player left a match the game cannot continue without is played at this level.
TAKEOVER_LEVEL = 2


LEVELS = (1, 2, 3)


def bot_username(game: str, level: int) -> str:
    return f"{game}-bot-{level}"


@transaction.atomic
def bot_accounts_ensure() -> list[User]:
    """One bot account per game and level, created or brought up to date."""
    bots = []
    for game, engine in sorted(ENGINES.items()):
        for level in LEVELS:
            bot, _ = User.objects.update_or_create(
                is_bot=True, bot_game=game, bot_level=level,
                defaults={"username": bot_username(game, level),
                          "bot_description": f"{engine.name} level {level}. "
                                             f"{DESCRIPTIONS[level]}"},
            )
            if bot.has_usable_password():
                bot.set_unusable_password()
                bot.save(update_fields=["password"])
            bots.append(bot)
    return bots


def _bot_level(seat) -> int | None:
    if seat.user is not None and seat.user.is_bot:
        return seat.user.bot_level
    if seat.forfeited_at is not None:
        return TAKEOVER_LEVEL
    return None


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
    level = _bot_level(bot_seat) if bot_seat else None
    if level is None:
        return False
    engine = get_engine(match.game)
    state = engine.load(match.state)
    rng = seeded_rng(match.seed, "bot", expected_version, seat)
    payload = choose_move(match.game, engine.view(state, seat), seat, level, rng)
    return _record_bot_move(match_id=match.id, expected_version=expected_version, seat=seat,
                            payload=payload)


@transaction.atomic
def _record_bot_move(*, match_id: UUID, expected_version: int, seat: int, payload: dict) -> bool:
    match = Match.objects.select_for_update(of=("self",)).get(id=match_id)
    if match.status != Match.Status.ACTIVE or match.version != expected_version:
        return False
    engine = get_engine(match.game)
    bot_seat = next(s for s in match_seats(match) if s.index == seat)
    try:
        move = engine.parse_move(payload)
        transition = apply_checked(engine, engine.load(match.state), seat, move)
    except EngineError:
        return False
    _transition_record(match=match, engine=engine, kind=Move.Kind.MOVE, seat=seat,
                       user=bot_seat.user, payload=engine.dump_move(move),
                       transition=transition)
    return True
