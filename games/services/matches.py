"""Setting a match up: create it, join or decline a seat, and start it once every seat has
joined; or create one with its players seated, for an event (``match_create_seated``)."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.blocks import blocked_in_games, blocks_in_games
from accounts.exceptions import GuestNotAllowed, PlayerBlocked
from accounts.invitations import invitation_check
from accounts.models import User
from accounts.services import guest_touch
from games.catalog import game as game_spec
from games.clocks import clock, control
from games.clocks.control import TimeControl
from games.exceptions import (
    AlreadySeated,
    InvalidSeats,
    InvalidTimeControl,
    MatchFull,
    NoInvitation,
    NotSeated,
    RematchNotAvailable,
    TooManyBotMatches,
)
from games.kit.protocol import Engine
from games.models import Match, Seat, UserEvent
from games.selectors import game_engine, match_rows
from games.services import _recording
from games.services.clocks import time_control_checked
from games.services.locking import LockedMatch, match_lock, vacations_lock
from games.services.notifications import match_changed, notify


@dataclass(frozen=True)
class SeatSpec:
    """How a seat is filled at creation: by the creator, an invited user, a bot, or left open."""

    kind: str  # "me" | "user" | "bot" | "open"
    username: str | None = None
    level: int | None = None


# --------------------------------------------------------------------------- create / join


@transaction.atomic
def match_create(*, user: User, game: str, players: int | None = None,
                 config: dict[str, Any] | None = None, seats: list[SeatSpec] | None = None,
                 rated: bool = True, time_control: Mapping[str, Any] | None = None,
                 turn_seconds: int | None = None,
                 private: bool = False, rematch_of: Match | None = None,
                 plans: bool = True) -> Match:
    """Create a match, and start it at once if every seat is filled (by the creator and bots).

    ``time_control``: the clock, in ``games.clocks.control``'s JSON form (a bad kind, key or
    value is ``InvalidTimeControl``, ``invalid_time_control``, and nothing is created);
    ``plans``: whether its seats may hold plans (where the game allows them);
    ``turn_seconds``: the same as a per-move control of that many seconds; neither: a casual
    match without a clock."""
    timing = _time_control(time_control, turn_seconds)
    engine = game_engine(game)
    seats = _seats_checked(user, engine, players, seats)
    count = len(seats)
    kinds = [spec.kind for spec in seats]
    if user.is_guest:
        _check_guest_match_allowance(user)
    elif "bot" in kinds:
        _check_bot_match_allowance(user)
    seed = secrets.token_hex(16)
    # Validates the options (InvalidConfig) before anything is written; kept for the start.
    initial = engine.initial_state(num_players=count, config=config or {}, seed=seed)
    seat_users = _resolve_seat_users(user=user, game=game, seats=seats)
    filled = [u.id for u in seat_users if u is not None]
    # A bot filling several seats plays itself, and bots playing only bots would let anyone
    # farm their ratings: such matches are never rated.
    # Guests are never rated (they would farm ratings with throwaway accounts).
    rated = (rated and count > 1 and len(filled) == len(set(filled)) and "me" in kinds
             and not user.is_guest)
    match = Match.objects.create(
        game=game, config=config or {}, num_players=count, rated=rated,
        created_by=user, seed=seed, private=private or user.matches_private,
        rematch_of=rematch_of, plans_allowed=plans,
        time_control=None if timing is None else control.dump(timing),
        clocks=None if timing is None else clock.dump_clocks(clock.new_clocks(timing, count)),
    )
    guest_touch(user)
    now = timezone.now()
    Seat.objects.bulk_create([
        Seat(match=match, index=index, user=seat_user, is_bot=spec.kind == "bot",
             joined_at=now if spec.kind in ("me", "bot") else None)
        for index, (spec, seat_user) in enumerate(zip(seats, seat_users, strict=True))
    ])
    invited = [u.id for spec, u in zip(seats, seat_users, strict=True)
               if spec.kind == "user" and u is not None]
    notify(user_ids=invited, type=UserEvent.Type.INVITED, match=match, game=game,
           by=user.username)
    # Nobody else can see the new row before commit; it is locked like any other all the same,
    # so it starts through the one recording path (and is read back with its seats).
    locked = match_lock(match_id=match.id)
    _start_if_full(locked, initial)
    return locked.match


def _seats_checked(user: User, engine: Engine, players: int | None,
                   seats: list[SeatSpec] | None) -> list[SeatSpec]:
    """The seats asked for (by default the creator's and open ones), checked against the
    game's player count and the creator's kinds of seat (``InvalidSeats``)."""
    if seats is None:
        count = players or engine.min_players
        seats = [SeatSpec("me")] + [SeatSpec("open")] * (count - 1)
    if user.is_guest:
        _check_guest_seats(seats)
    count = len(seats)
    if players is not None and players != count:
        raise InvalidSeats(_("players must equal the number of seats given."))
    if not engine.min_players <= count <= engine.max_players:
        raise InvalidSeats(_("%(game)s is played by %(min)d to %(max)d players.") % {
            "game": engine.name, "min": engine.min_players, "max": engine.max_players})
    kinds = [spec.kind for spec in seats]
    if kinds.count("me") > 1:
        raise InvalidSeats(_("At most one seat can be yours (kind 'me')."))
    if "me" not in kinds and set(kinds) != {"bot"}:
        raise InvalidSeats(_("Take a seat yourself (kind 'me'), or fill every seat with bots "
                             "to watch them play."))
    return seats


def _time_control(data: Mapping[str, Any] | None, turn_seconds: int | None) -> TimeControl | None:
    """The time control asked for, checked (``InvalidTimeControl``); None for none."""
    if data is not None and turn_seconds is not None:
        raise InvalidTimeControl(field="turn_seconds")
    if turn_seconds is not None:
        data = {"kind": control.PER_MOVE, "turn_seconds": turn_seconds}
    return time_control_checked(data)


def _check_bot_match_allowance(user: User) -> None:
    """A person keeps at most MAX_ACTIVE_BOT_MATCHES open or running matches with a bot seat
    that they created: bots answer everyone, and a flood of bot matches would slow them down
    for the others."""
    limit = settings.MAX_ACTIVE_BOT_MATCHES
    if limit <= 0:
        return
    active = (Match.objects
              .filter(created_by=user, status__in=[Match.Status.OPEN, Match.Status.ACTIVE],
                      seats__is_bot=True)
              .values("pk").distinct().count())
    if active >= limit:
        raise TooManyBotMatches(
            f"You already have {active} open or running matches with bots (at most {limit}); "
            "finish or abort one first.", limit=limit)


def _check_guest_seats(seats: list[SeatSpec]) -> None:
    """Guests play bots: inviting people or leaving seats open needs an account."""
    for index, spec in enumerate(seats):
        if spec.kind not in ("me", "bot"):
            raise GuestNotAllowed(
                "Guests play against bots; sign up to invite players or open seats.",
                seat=index)


def _check_guest_match_allowance(user: User) -> None:
    """A guest keeps at most GUEST_MAX_ACTIVE_MATCHES open or running matches."""
    limit = settings.GUEST_MAX_ACTIVE_MATCHES
    active = Match.objects.filter(created_by=user, status__in=[Match.Status.OPEN,
                                                               Match.Status.ACTIVE]).count()
    if active >= limit:
        raise TooManyBotMatches(
            f"A guest keeps at most {limit} running matches; finish or abort one first, or "
            "sign up.", limit=limit)


def _resolve_seat_users(*, user: User, game: str, seats: list[SeatSpec]) -> list[User | None]:
    """The player of each seat. A refused seat's message counts seats from 1, as people do;
    its ``extra.seat`` stays the seat's index (from 0), as everywhere in the API."""
    resolved: list[User | None] = []
    for index, spec in enumerate(seats):
        if spec.kind == "me":
            resolved.append(user)
        elif spec.kind == "open":
            resolved.append(None)
        elif spec.kind == "user":
            invited = User.objects.filter(username=spec.username, is_active=True).first()
            if invited is None or invited.is_bot or invited.is_guest:
                raise InvalidSeats(_("Seat %(seat)d: no player called %(name)r.")
                                   % {"seat": index + 1, "name": spec.username}, seat=index)
            if invited.pk != user.pk:
                # The invited player's setting and blocks (a rematch offer is one too).
                invitation_check(inviter=user, invitee=invited, seat=index)
            resolved.append(invited)
        elif spec.kind == "bot":
            bot = User.objects.filter(is_bot=True, bot_game=game, bot_level=spec.level).first() \
                if spec.level in game_spec(game).levels else None
            if bot is None:
                raise InvalidSeats(_("Seat %(seat)d: no level %(level)s bot for %(game)s.")
                                   % {"seat": index + 1, "level": spec.level, "game": game},
                                   seat=index)
            resolved.append(bot)
        else:
            raise InvalidSeats(_("Seat %(seat)d: unknown kind %(kind)r.")
                               % {"seat": index + 1, "kind": spec.kind}, seat=index)
    people = [u.id for u in resolved if u is not None and not u.is_bot]
    if len(people) != len(set(people)):
        raise InvalidSeats(_("A player can hold only one seat of a match."))
    return resolved


@transaction.atomic
def match_join(*, user: User, match_id: UUID) -> Match:
    """Take an open seat, or accept the seat one was invited to."""
    if user.is_guest:
        raise GuestNotAllowed(_("Guests play against bots; sign up to join other players."))
    locked = match_lock(match_id=match_id, user=user)
    match = locked.match
    if match.status != Match.Status.OPEN:
        raise MatchFull(_("This match is not open for joining."))
    mine = locked.seat_of(user)
    if mine is not None:
        if mine.joined_at is not None:
            raise AlreadySeated()
        mine.joined_at = timezone.now()
        mine.save(update_fields=["joined_at"])
    else:
        free = next((seat for seat in locked.seats if seat.is_open), None)
        if free is None:
            raise MatchFull()
        _check_blocks(user, locked)
        free.user = user
        free.joined_at = timezone.now()
        free.save(update_fields=["user", "joined_at"])
    match.save(update_fields=["updated_at"])
    _start_if_full(locked)
    return match


def _check_blocks(user: User, locked: LockedMatch) -> None:
    """Players a games block stands between never sit together through an open seat: the
    joiner who blocked a seated player is told so (``PlayerBlocked``); one a seated player
    blocked gets the answer of a full match, as anyone might, and is not told why."""
    seated = [seat.user_id for seat in locked.seats
              if seat.user_id is not None and not seat.is_bot]
    if not blocked_in_games(user.pk, seated):
        return
    if any(blocks_in_games(user.pk, other) for other in seated):
        raise PlayerBlocked()
    raise MatchFull()


@transaction.atomic
def match_decline(*, user: User, match_id: UUID) -> Match:
    """Turn down an invitation: the seat opens for anyone to join, and the host is told."""
    locked = match_lock(match_id=match_id, user=user)
    match, seat = locked.match, locked.seat_of(user)
    if seat is None or seat.joined_at is not None or match.status != Match.Status.OPEN:
        raise NoInvitation()
    seat.user = None
    seat.save(update_fields=["user"])
    match.save(update_fields=["updated_at"])
    notify(user_ids=[match.created_by_id], type=UserEvent.Type.INVITATION_DECLINED,
           match=match, game=match.game, by=user.username, seat=seat.index)
    match_changed(match)
    return match


def _start_if_full(locked: LockedMatch, initial: Any = None) -> None:
    """Start the match once every seat has joined (``initial``: its first state, if known)."""
    if any(seat.joined_at is None for seat in locked.seats):
        return
    match = locked.match
    state = initial if initial is not None else locked.engine.initial_state(
        num_players=match.num_players, config=match.config, seed=match.seed)
    _recording.start(locked=locked, state=state)


# --------------------------------------------------------------------------- rematch


@transaction.atomic
def match_rematch(*, user: User, match_id: UUID) -> tuple[Match, bool]:
    """The rematch of a finished match: the same game, options, clock, rating, privacy and plans
    option and the same players, each seat moved one place on (two players swap seats). A seat
    of a person other than the caller becomes an invitation; bots sit down at once.

    Once per match: whoever of its players asks first creates it, and asking again (anyone,
    any number of times) gives the same match, accepting the caller's invitation to it if one
    is pending. Returns the rematch and whether this call created it."""
    # The rematch may start here, reading its players' vacation rows: they are locked before
    # any match, as everywhere (games.services.locking), since the original ran a moment ago.
    seated = match_rows(match_id, Seat.objects.filter(user__isnull=False, user__is_bot=False))
    people = [seat.user for seat in seated if seat.user is not None]
    if len(people) > 1:
        vacations_lock(people, timezone.now())
    locked = match_lock(match_id=match_id, user=user)
    match, seats = locked.match, list(locked.seats)
    mine = locked.seat_of(user)
    if mine is None and not (match.created_by_id == user.id
                             and all(seat.is_bot for seat in seats)):
        raise NotSeated(_("Only the match's players can ask for a rematch."))
    existing = Match.objects.filter(rematch_of=match).first()
    if existing is not None:
        locked_rematch = match_lock(match_id=existing.id)
        rematch, invited = locked_rematch.match, locked_rematch.seat_of(user)
        if (rematch.status == Match.Status.OPEN and invited is not None
                and invited.joined_at is None):
            return match_join(user=user, match_id=rematch.id), False
        return rematch, False
    if match.status != Match.Status.FINISHED:
        raise RematchNotAvailable(
            "A rematch can be asked for only once the match has finished.",
            match_status=match.status)
    rotated = seats[-1:] + seats[:-1]
    # (A match of bots only is watched by its creator: its rematch is watched the same way.)
    specs = [_rematch_seat(seat, user) for seat in rotated]
    rematch = match_create(
        user=user, game=match.game, config=match.config, seats=specs,
        rated=match.rated or match.unrated_reason != "",
        time_control=match.time_control, private=match.private, rematch_of=match,
        plans=match.plans_allowed)
    # The original's answers change (they name the rematch): a new ETag.
    match.save(update_fields=["updated_at"])
    match_changed(match)
    return rematch, True


def _rematch_seat(seat: Seat, caller: User) -> SeatSpec:
    player = seat.user
    if player is None:
        return SeatSpec("open")
    if player.pk == caller.pk:
        return SeatSpec("me")
    if player.is_bot:
        return SeatSpec("bot", level=player.bot_level)
    return SeatSpec("user", username=player.username)


# --------------------------------------------------------------------------- seated for an event


@transaction.atomic
def match_create_seated(*, created_by: User, players: Sequence[User], game: str,
                        config: Mapping[str, Any], time_control: Mapping[str, Any],
                        rated: bool, plans: bool) -> Match:
    """A match whose seats ``players`` (people and bots, in seat order) take at once, started
    at once: a table an event (a tournament round, a ladder challenge) made for them.
    ``created_by`` is the player who counts as its creator, one of its players (a match's
    creator may see it even when it is private). The options and clock were checked when the
    event was created; a match of bots only, or with a player twice, is never rated."""
    timing = _time_control(time_control, None)
    engine = game_engine(game)
    seed = secrets.token_hex(16)
    count = len(players)
    initial = engine.initial_state(num_players=count, config=dict(config), seed=seed)
    ids = [player.id for player in players]
    rated = (rated and len(set(ids)) == count
             and not all(player.is_bot for player in players))
    match = Match.objects.create(
        game=game, config=dict(config), num_players=count, rated=rated, created_by=created_by,
        seed=seed, private=any(player.matches_private for player in players),
        plans_allowed=plans,
        time_control=None if timing is None else control.dump(timing),
        clocks=None if timing is None else clock.dump_clocks(clock.new_clocks(timing, count)))
    now = timezone.now()
    Seat.objects.bulk_create([
        Seat(match=match, index=index, user=player, is_bot=player.is_bot, joined_at=now)
        for index, player in enumerate(players)])
    locked = match_lock(match_id=match.id)
    _start_if_full(locked, initial)
    return locked.match
