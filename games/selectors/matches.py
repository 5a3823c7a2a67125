"""Reads: who may see a match, and what each caller sees of it."""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable, Sequence
from datetime import timedelta
from functools import reduce
from typing import Any, TypeVar
from uuid import UUID

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet, prefetch_related_objects
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from config.replica import PRIMARY, read_database
from games.catalog import engines, games, get_engine
from games.exceptions import MatchNotFound, MatchNotStarted, UnknownGame
from games.kit.learn import option_dicts
from games.kit.protocol import Engine, events_for
from games.models import Match, Move, Rating, RatingChange, Seat
from games.ratings import is_provisional
from games.rules_text import game_name
from games.selectors import shapes
from games.selectors.clocks import clocks_view, turn_seconds, zone_annotation
from games.selectors.vacations import away_annotation, seats_away

PUBLIC_STATUSES = (Match.Status.FINISHED, Match.Status.ABORTED)


def game_engine(slug: str) -> Engine:
    """The engine of a game a caller named, or the coded ``unknown_game`` error."""
    engine = engines().get(slug)
    if engine is None:
        raise UnknownGame(_("No game called %(slug)r.") % {"slug": slug},
                          games=sorted(engines()))
    return engine


def private_filter() -> Q:
    """Private matches: marked so, or with a player who keeps their matches private."""
    return Q(private=True) | Q(Exists(Seat.objects.filter(match=OuterRef("pk"),
                                                           user__matches_private=True)))


def seated_filter(user: User) -> Q:
    """Matches where ``user`` holds a seat (an invitation included). Like every filter of the
    lists, a semi-join rather than a join, so a list needs no DISTINCT and can follow an index
    in its order."""
    return Q(id__in=Seat.objects.filter(user=user).order_by().values("match_id"))


def mine_filter(user: User) -> Q:
    """Matches where ``user`` holds a seat or that ``user`` created: the ids of both in one
    small set, which the database reads through the seats' and creators' indexes."""
    seated = Seat.objects.filter(user=user).order_by().values("match_id")
    created = Match.objects.filter(created_by=user).order_by().values("id")
    return Q(id__in=seated.union(created))


def open_seat_filter() -> Q:
    """Open matches with a seat anyone may join."""
    return Q(status=Match.Status.OPEN,
             id__in=Seat.objects.filter(user__isnull=True).values("match_id"))


def visible_filter(user: User | AnonymousUser) -> Q:
    """Seated players and the match's creator see it; everyone else, signed in or not, sees
    open matches (to join them) and matches that are over (to replay them), unless the match
    is private. A running match is private to its seats and creator."""
    public = ~private_filter() & (open_seat_filter() | Q(status__in=PUBLIC_STATUSES))
    if not user.is_authenticated:
        return public
    return mine_filter(user) | public


def match_access(*, user: User, match_id: UUID | str) -> Match:
    """The match if the caller may see it, else MatchNotFound (missing and hidden look alike).

    The match comes with its seats and their players in one query."""
    match = match_loaded(match_id)
    if match is None or not match_visible(match, user):
        raise MatchNotFound()
    return match


def match_loaded(match_id: UUID | str) -> Match | None:
    """The match, read with its seats and their players in one query (every match has at least
    one seat), so ``match_seats`` reads no more; None when it is missing or the id malformed."""
    return match_of_rows(list(match_rows(match_id, Seat.objects.all())))


SeatRow = TypeVar("SeatRow", bound=Seat)


def match_rows(match_id: UUID | str, seats: QuerySet[SeatRow]) -> QuerySet[SeatRow]:
    """The match's seat rows from ``seats``, each with its match, its player, the player's
    time zone (for the clocks, ``games.selectors.clocks``) and whether the player is on
    vacation (``games.selectors.vacations``), in index order, read in one query (``match_lock``
    passes seats that lock the match row); none when the match is missing or the id
    malformed."""
    try:
        return (seats.filter(match_id=match_id).select_related("match", "user")
                .annotate(**zone_annotation(), **away_annotation()).order_by("index"))
    except (ValueError, ValidationError):
        return seats.none()


def match_of_rows(rows: Sequence[Seat]) -> Match | None:
    """The match of one match's seat rows (``match_rows``), its seats kept where
    ``match_seats`` finds them; None for no rows."""
    return _matches_of(rows).get(rows[0].match_id) if rows else None


def matches_loaded(match_ids: Iterable[UUID]) -> dict[UUID, Match]:
    """Several matches, each as ``match_loaded`` reads it, in ONE query for all of them; a
    missing match is missing from the answer."""
    return _matches_of(Seat.objects.filter(match_id__in=list(match_ids))
                       .select_related("match", "user").order_by("match_id", "index"))


def _matches_of(rows: Iterable[Seat]) -> dict[UUID, Match]:
    """The matches of seat rows read with their match, ordered by match then index: each
    match object once, its seats kept where ``match_seats`` finds them (the same list a
    ``seats_prefetch()`` would have left there)."""
    matches: dict[UUID, Match] = {}
    for seat in rows:
        match = matches.get(seat.match_id)
        if match is None:
            match = matches[seat.match_id] = seat.match
            setattr(match, SEATS_ATTR, [])
        seat.match = match
        getattr(match, SEATS_ATTR).append(seat)
    return matches


def match_visible(match: Match, user: User | AnonymousUser,
                  seats: Sequence[Seat] | None = None) -> bool:
    """Whether ``user`` (or an anonymous visitor) may see the match (see ``visible_filter``),
    from its seats (``seats``, else its loaded ones)."""
    seats = match_seats(match) if seats is None else seats
    if user.is_authenticated and (match.created_by_id == user.id
                                  or any(seat.user_id == user.id for seat in seats)):
        return True
    if match_private(match, seats):
        return False
    open_seat = match.status == Match.Status.OPEN and any(s.is_open for s in seats)
    return open_seat or match.status in PUBLIC_STATUSES


def match_private(match: Match, seats: Sequence[Seat] | None = None) -> bool:
    """Whether only the seats (and the creator) may see the match: it is marked private, or
    one of its players keeps their matches private (from ``seats``, else the loaded ones)."""
    return match.private or any(seat.user is not None and seat.user.matches_private
                                for seat in (match_seats(match) if seats is None else seats))


# Where a match read through ``seats_prefetch()`` or ``match_loaded`` keeps its seats.
SEATS_ATTR = "seat_list"


def seats_prefetch() -> Prefetch[Any]:
    """For ``prefetch_related``: each match's seats with their players (and whether each is on
    vacation), in index order, in one query for all the matches, kept where ``match_seats``
    finds them."""
    return Prefetch("seats", queryset=Seat.objects.select_related("user")
                    .annotate(**away_annotation()).order_by("index"), to_attr=SEATS_ATTR)


def match_seats(match: Match) -> list[Seat]:
    """The match's seats (with their players) in index order, read at most once per match
    object: from ``match_access``, a ``seats_prefetch()``, or else one query here."""
    seats: list[Seat] | None = getattr(match, SEATS_ATTR, None)
    if seats is None:
        prefetch_related_objects([match], seats_prefetch())
        seats = getattr(match, SEATS_ATTR)
    return seats


def match_state(match: Match, engine: Engine) -> Any:
    """The game state of a started match, loaded from its snapshot."""
    if match.state is None:
        raise MatchNotStarted()
    return engine.load(match.state)


# A seat whose player left a match that cannot go on without it is played at this level.
TAKEOVER_LEVEL = 2


def seat_bot_level(seat: Seat) -> int | None:
    """The bot level that plays this seat: the bot's own, or the take-over level for a seat
    whose player left; None for a person still playing."""
    if seat.user is not None and seat.user.is_bot:
        return seat.user.bot_level
    if seat.forfeited_at is not None:
        return TAKEOVER_LEVEL
    return None


def seat_of(match: Match, user: User | AnonymousUser) -> Seat | None:
    if not user.is_authenticated:
        return None
    return next((seat for seat in match_seats(match) if seat.user_id == user.id), None)


def _player(user: User | None) -> shapes.PlayerRef | None:
    if user is None:
        return None
    return {"username": user.username, "is_bot": user.is_bot}


def seat_summary(seat: Seat, actors: Iterable[int], *, away: bool = False) -> shapes.Seat:
    """One seat as lists and details show it; ``away``: its player is on vacation
    (``games.selectors.vacations.seats_away``)."""
    return {
        "index": seat.index,
        "player": _player(seat.user),
        "on_vacation": away,
        "joined": seat.joined_at is not None,
        "to_act": seat.index in actors,
        "forfeited": seat.forfeited_at is not None,
        "rank": seat.rank,
        "score": seat.score,
    }


def match_summary(match: Match, user: User | AnonymousUser) -> shapes.MatchSummary:
    """What lists show of a match: no game view, no hidden state."""
    seats = match_seats(match)
    mine = seat_of(match, user)
    return {
        "id": str(match.id),
        "game": match.game,
        "status": match.status,
        "players": match.num_players,
        "rated": match.rated,
        "version": match.version,
        "time_control": match.time_control,
        "turn_seconds": turn_seconds(match),
        "deadline": match.deadline,
        "created_at": match.created_at,
        "updated_at": match.updated_at,
        "started_at": match.started_at,
        "finished_at": match.finished_at,
        "seats": [seat_summary(seat, match.actors, away=away)
                  for seat, away in zip(seats, seats_away(seats), strict=True)],
        "to_act": list(match.actors),
        "your_seat": mine.index if mine else None,
        # From the match row alone, so it always agrees with to_act in the same answer.
        "is_your_turn": bool(mine and mine.index in match.actors),
        "invitation_pending": bool(mine and mine.joined_at is None),
        "outcome": match.outcome,
        "private": match_private(match),
        "unrated_reason": match.unrated_reason or None,
    }


def match_detail(match: Match, user: User | AnonymousUser, *,
                 state: Any = None) -> shapes.MatchDetail:
    """The caller's view of a match: the summary plus the game as the caller's seat sees it.
    ``state``: the match's current game state when the caller holds it already (the one its
    snapshot loads to), else it is loaded here."""
    summary = match_summary(match, user)
    view = None
    legal_moves = None
    if match.state is not None:
        engine = get_engine(match.game)
        current = match_state(match, engine) if state is None else state
        view = engine.view(current, summary["your_seat"])
        legal_moves = view.pop("legal_moves", None)
    return {
        **summary,
        "config": match.config,
        "view": view,
        # Whatever the engine offers the caller's seat now: the moves of a seat that must act,
        # and also those of one that may act without having to (take back a Nimalia placement).
        "legal_moves": legal_moves if match.status == Match.Status.ACTIVE else None,
        "seed": match.seed if match.status in PUBLIC_STATUSES else None,
        "clocks": clocks_view(match, match_seats(match), timezone.now()),
        "plans": match.plans_allowed,
        **match_aftermath(match),
    }


def match_etag(match: Match) -> str:
    """The validator of the match's answers: its version and last change (``Match.etag``),
    and the seats whose players are on vacation, which the answers show and which change
    without the match changing (``-away0.2``; nothing when nobody is away)."""
    away = [str(seat.index) for seat, flag in zip(match_seats(match),
                                                  seats_away(match_seats(match)), strict=True)
            if flag]
    return f'{match.etag[:-1]}-away{".".join(away)}"' if away else match.etag


def match_aftermath(match: Match) -> shapes.MatchAftermath:
    """What follows a match: each seat's rating change (once the match is rated) and the
    rematch made of it, if any (and the match it is the rematch of). Reads nothing while the
    match runs."""
    changes: list[shapes.SeatRatingChange] = []
    rematch = None
    if match.status == Match.Status.FINISHED:
        seat_index = {seat.user_id: seat.index for seat in match_seats(match)}
        if match.rated:
            rows = RatingChange.objects.filter(match=match).select_related("user")
            changes = sorted(({
                "seat": seat_index.get(row.user_id),
                "username": row.user.username,
                "rating_before": row.display_before,
                "rating_after": row.display_after,
                "change": row.display_after - row.display_before,
            } for row in rows), key=lambda c: (c["seat"] is None, c["seat"] or 0))
        rematch = Match.objects.filter(rematch_of=match).values_list("id", flat=True).first()
    return {
        "rating_changes": changes,
        "rematch": str(rematch) if rematch else None,
        "rematch_of": str(match.rematch_of_id) if match.rematch_of_id else None,
    }


def game_list() -> list[shapes.Game]:
    """The registered games, by slug, with the options a match of each takes."""
    return [{"slug": slug, "name": game_name(slug, engine.name),
             "min_players": engine.min_players,
             "max_players": engine.max_players,
             "options": option_dicts([option.as_dict() for option in engine.options],
                                     games()[slug].learning.option_words, _),
             "presets": [preset.as_dict(_) for preset in games()[slug].learning.presets]}
            for slug, engine in engines().items()]


def bot_description(text: str, game: str, level: int) -> str:
    """A bot account's description in the active language. The description is stored in
    English, as sentences the server writes (``games.services.bots.bot_account_ensure``): each
    is looked up in the catalogues; a sentence written otherwise (by an administrator) stays as
    written."""
    heading = f"{engines()[game].name} level {level}."
    said = []
    for sentence in re.split(r"(?<=\.) (?=[A-Z])", text):
        if sentence == heading:
            said.append(_("%(game)s level %(level)s.")
                        % {"game": game_name(game, engines()[game].name), "level": level})
        else:
            said.append(_(sentence))
    return " ".join(said)


def bot_list(*, game: str | None = None) -> list[shapes.Bot]:
    """Bot accounts with a policy behind them, each with its rating in its own game."""
    accounts = User.objects.filter(is_bot=True, is_active=True).order_by("bot_game", "bot_level")
    if game:
        accounts = accounts.filter(bot_game=game)
    bots = [bot for bot in accounts
            if bot.bot_game in games() and bot.bot_level in games()[bot.bot_game].policies]
    ratings = {(r.user_id, r.game): r for r in Rating.objects.filter(user__in=bots)}
    result: list[shapes.Bot] = []
    for bot in bots:
        assert bot.bot_level is not None  # a level with a policy
        rating = ratings.get((bot.id, bot.bot_game))
        result.append({
            "username": bot.username,
            "game": bot.bot_game,
            "level": bot.bot_level,
            "description": bot_description(bot.bot_description, bot.bot_game, bot.bot_level),
            "rating": rating.display if rating else None,
            "provisional": is_provisional(rating.sigma) if rating else True,
        })
    return result


def user_must_act(*, user: User, match_id: UUID) -> bool:
    """Whether one of the user's seats in the match is among those that must act now."""
    seats = Seat.objects.filter(match_id=match_id, user=user).values_list(
        "index", "match__actors")
    return any(index in actors for index, actors in seats)


def user_seated(*, user: User, match_id: UUID) -> bool:
    """Whether the user holds a seat of the match."""
    return Seat.objects.filter(match_id=match_id, user=user).exists()


def invitations_for(*, user: User) -> list[Match]:
    """Open matches with a seat reserved for me that I have not accepted yet, oldest first."""
    return list(Match.objects.filter(status=Match.Status.OPEN, seats__user=user,
                                     seats__joined_at__isnull=True)
                .order_by("created_at").prefetch_related(seats_prefetch()))


def move_log_entry(move: Move, viewer: int | None, *, revealed: bool,
                   private_moves: bool) -> shapes.MoveLogEntry:
    """One move as the seat ``viewer`` (None: a spectator) may see it: while the match runs
    (not ``revealed``), other seats' moves of a game with ``private_moves`` lose their payload
    and every move's events are cut to what ``viewer`` may see."""
    hidden = (not revealed and private_moves and move.kind == Move.Kind.MOVE
              and move.seat != viewer)
    return {
        "seq": move.seq,
        "kind": move.kind,
        "seat": move.seat,
        "player": _player(move.user),
        "payload": None if hidden else move.payload,
        "events": move.events if revealed else events_for(move.events, viewer),
        "by_plan": move.by_plan,
        "created_at": move.created_at,
    }


def moves_after(match: Match, after: int, limit: int) -> list[Move]:
    """The match's moves after ``after``, at most ``limit``, in order, with their movers, and
    only those up to the version read with the match: a move committed since then is left to
    the wake-up it sends, so no answer shows a move with a version that does not count it (nor,
    while the match runs, with a status that move may have ended)."""
    return moves_after_many([(match, after, limit)], using=settled_log_database(match))[0]


def settled_log_database(match: Match) -> str:
    """Where the log of ``match`` may be read: a match that ended longer ago than twice the lag
    a replica may have has the same log on the replica (``config.replica.read_database``); any
    other, on the primary."""
    if match.finished_at is None or match.status not in PUBLIC_STATUSES:
        return PRIMARY
    settled = timezone.now() - timedelta(seconds=2 * settings.REPLICA_MAX_LAG_SECONDS)
    return read_database() if match.finished_at < settled else PRIMARY


def moves_after_many(asked: Sequence[tuple[Match, int, int]],
                     using: str = PRIMARY) -> list[list[Move]]:
    """``moves_after(match, after, limit)`` for each of ``asked``, in ONE query for all of
    them. A match's moves are numbered 1 to its version without a gap (each recorded move takes
    the next version as its seq), so the first ``limit`` moves after ``after`` are exactly those
    with ``after < seq <= min(version, after + limit)``."""
    bounds = [(match.id, after, min(match.version, after + limit)) for match, after, limit in asked]
    wanted = [Q(match_id=match_id, seq__gt=low, seq__lte=high)
              for match_id, low, high in bounds if high > low]
    found: dict[UUID, list[Move]] = {}
    if wanted:
        rows = (Move.objects.using(using).filter(reduce(operator.or_, wanted))
                .select_related("user").order_by("match_id", "seq"))
        for move in rows:
            found.setdefault(move.match_id, []).append(move)
    return [[move for move in found.get(match_id, ()) if low < move.seq <= high]
            for match_id, low, high in bounds]


def match_moves_for_user(*, match: Match, user: User, after: int = 0,
                         limit: int = 100) -> list[shapes.MoveLogEntry]:
    """The move log as the caller may see it: other seats' private moves and events redacted
    while the match runs."""
    engine = get_engine(match.game)
    mine = seat_of(match, user)
    viewer = mine.index if mine else None
    revealed = match.status in PUBLIC_STATUSES
    return [move_log_entry(move, viewer, revealed=revealed, private_moves=engine.private_moves)
            for move in moves_after(match, after, limit)]


def match_move_log(*, match: Match, user: User, after: int = 0,
                   limit: int = 100) -> shapes.MoveLog:
    """A page of the move log as the caller may see it (``match_moves_for_user``), with the
    cursor for the next page."""
    moves = match_moves_for_user(match=match, user=user, after=after, limit=limit)
    return {"moves": moves, "next_after": moves[-1]["seq"] if moves else after,
            "version": match.version}


def match_events(*, match: Match, user: User, after: int = 0,
                 limit: int = 100) -> shapes.MatchEvents:
    """The long-poll answer about a match: the move log after ``after`` as the caller may see
    it, and the match's version and status."""
    moves = (match_moves_for_user(match=match, user=user, after=after, limit=limit)
             if match.version > after else [])
    return {"moves": moves, "next_after": moves[-1]["seq"] if moves else after,
            "version": match.version, "status": match.status}


def match_reread(*, previous: Match | None, user: User, match_id: UUID) -> Match:
    """The match through ``match_access``, except when a waiting request reads it again and it
    was and still is active: an active match is visible to its seats alone and no seat changes
    hands while it is active, so the access decision and the seats read before still hold and
    only the version needs reading (one small query instead of the whole row and the seats)."""
    if previous is not None and previous.status == Match.Status.ACTIVE:
        row = Match.objects.filter(id=match_id).values("version", "status").first()
        if row is not None and row["status"] == Match.Status.ACTIVE:
            previous.version = row["version"]
            return previous
    return match_access(user=user, match_id=match_id)
