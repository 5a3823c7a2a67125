"""Reads of match lists: a player's matches, the open ones and everything visible
(``GET /matches``, cursor pages), and the inbox (``GET /me/inbox``), each in the order the
client asks for.

Every order is a key of several fields ending in the match id (``config.ordering``), so a
cursor page continues exactly where the last one ended: soonest deadline first (matches
without one last), most recent move first, by game, by when the match ended (latest first,
after the matches that have not ended), or newest first."""

from __future__ import annotations

from collections.abc import Iterable
from uuid import UUID

from django.db.models import F, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce

from accounts.models import User
from config.ordering import SortKey, keyset_order
from config.replica import read_database
from games.models import Match, Move, Seat
from games.selectors.matches import (
    match_seats,
    mine_filter,
    open_seat_filter,
    private_filter,
    seated_filter,
    seats_prefetch,
    visible_filter,
)

# The time of a match's last recorded move (its seq is the match's version), else when it
# started, else when it was created: the "last move" of a match nobody has moved in yet.
LAST_MOVE = "last_move_at"
_BY_LAST_MOVE = SortKey(LAST_MOVE, descending=True)
_BY_ID = SortKey("id")

# Each order a list can be read in, as its sort key.
LIST_ORDERS: dict[str, tuple[SortKey, ...]] = {
    "created": (SortKey("created_at", descending=True), SortKey("id", descending=True)),
    "time_left": (SortKey("deadline", nullable=True), _BY_LAST_MOVE, _BY_ID),
    "last_move": (_BY_LAST_MOVE, _BY_ID),
    "game": (SortKey("game"), _BY_LAST_MOVE, _BY_ID),
    "ended": (SortKey("finished_at", descending=True, nullable=True), _BY_ID),
}
LIST_SORTS = tuple(LIST_ORDERS)
# The inbox holds running matches only: none has ended, and the newest first is no use there.
INBOX_SORTS = ("time_left", "last_move", "game")


def list_sort(*, sort: str | None, my_turn: bool = False, status: str | None = None) -> str:
    """The order of a match list: the one asked for, else by time left for "my turn", by
    when they ended for finished matches, newest first otherwise."""
    if sort:
        return sort
    if my_turn:
        return "time_left"
    if status == Match.Status.FINISHED:
        return "ended"
    return "created"


def list_order(sort: str) -> tuple[SortKey, ...]:
    """The sort key of the order ``sort`` (one of ``LIST_SORTS``)."""
    return LIST_ORDERS[sort]


def sortable(queryset: QuerySet[Match], sort: str) -> QuerySet[Match]:
    """``queryset`` with what the order ``sort`` sorts on that is not a column (the last
    move's time), so ``list_order(sort)`` can order and page it."""
    if not any(key.name == LAST_MOVE for key in list_order(sort)):
        return queryset
    last_move = Move.objects.filter(match=OuterRef("pk"), seq=OuterRef("version"))
    return queryset.annotate(**{LAST_MOVE: Coalesce(
        Subquery(last_move.values("created_at")[:1]), F("started_at"), F("created_at"))})


def match_list(*, user: User, game: str | None = None, status: str | None = None,
               scope: str = "mine", my_turn: bool = False,
               sort: str = "created") -> QuerySet[Match]:
    """Matches for a list: ``scope`` is "mine" (seated), "open" (joinable) or "all" visible;
    ready to be ordered and paged by ``list_order(sort)``. Read from the replica when it may
    serve the caller (``config.replica.read_database``)."""
    queryset = Match.objects.using(read_database(user))
    if scope == "mine":
        queryset = queryset.filter(mine_filter(user))
    elif scope == "open":
        queryset = queryset.filter(open_seat_filter()).exclude(seated_filter(user)).exclude(
            private_filter())
    else:
        queryset = queryset.filter(visible_filter(user))
    if my_turn:
        queryset = queryset.filter(id__in=matches_awaiting(user=user))
    if game:
        queryset = queryset.filter(game=game)
    if status:
        queryset = queryset.filter(status=status)
    return sortable(queryset, sort).prefetch_related(seats_prefetch())


def matches_awaiting(*, user: User) -> list[UUID]:
    """Ids of the active matches waiting for one of my seats to act."""
    rows = Seat.objects.filter(user=user, match__status=Match.Status.ACTIVE).values_list(
        "match_id", "index", "match__actors")
    return [match_id for match_id, index, actors in rows if index in actors]


def waiting_count(*, user_id: int) -> int:
    """How many matches wait for the player: active ones where one of their seats must act,
    and invitations not answered yet (the web client's "waiting for you" badge, and the app
    badge a push sets)."""
    rows = Seat.objects.filter(user_id=user_id, match__status=Match.Status.ACTIVE).values_list(
        "index", "match__actors")
    invited = Seat.objects.filter(user_id=user_id, match__status=Match.Status.OPEN,
                                  joined_at__isnull=True).count()
    return sum(1 for index, actors in rows if index in actors) + invited


def _awaiting(matches: Iterable[Match], user: User) -> set[UUID]:
    """Those of ``matches`` (their seats read) where one of my seats must act."""
    return {match.id for match in matches
            if match.status == Match.Status.ACTIVE
            and any(seat.user_id == user.id and seat.index in match.actors
                    for seat in match_seats(match))}


def match_inbox(*, user: User, sort: str = "time_left", game: str | None = None,
                my_turn: bool = False) -> list[Match]:
    """My active and open matches (invitations included) in the order ``sort``: by time left
    (the default) puts the matches where I must act first, each part soonest deadline first;
    the other orders are those of the match lists. ``my_turn``: only where I must act."""
    queryset = Match.objects.filter(seated_filter(user),
                                    status__in=[Match.Status.ACTIVE, Match.Status.OPEN])
    if game:
        queryset = queryset.filter(game=game)
    matches = list(sortable(queryset, sort).order_by(*keyset_order(list_order(sort)))
                   .prefetch_related(seats_prefetch()))
    to_act = _awaiting(matches, user)
    if my_turn:
        matches = [match for match in matches if match.id in to_act]
    if sort == "time_left":
        matches.sort(key=lambda match: match.id not in to_act)  # stable: deadlines stay in order
    return matches
