"""A tournament match's result reaches its pairing as the match ends.

``pairing_result_record`` is registered with the recording path (``games.services.match_end``)
and runs in the transaction that ends the match, under the match's lock: it writes the pairing
row alone and asks, after commit, for the tournament to move on (the tournament sweep does it
too if that message is lost: the pairing stays uncounted until the tournament acts on it)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games import movelog
from games.models import Move
from games.services.match_end import MatchEnd
from games.services.scheduling import send
from games.tournaments.models import Pairing

TOURNAMENT_ADVANCE = "games.tournament_advance"


def pairing_result_record(end: MatchEnd) -> None:
    """Keep the ended match's ranks on its pairing (a tournament match only), with the
    players who timed out of it without having moved in it. A match called off at a deadline
    before anyone moved ranks the seats that ran out below the others; one called off for any
    other reason counts for nobody."""
    match = end.locked.match
    pairing = Pairing.objects.filter(match_id=match.id, ended_at__isnull=True).first()
    if pairing is None:
        return
    seats = end.locked.seats
    if end.called_off:
        pairing.void = not end.late
        pairing.ranks = None if pairing.void else [
            1 if seat.index in end.late else 0 for seat in seats]
        late = [seat for seat in seats if seat.index in end.late]
    else:
        pairing.ranks = [seat.rank or 0 for seat in seats]
        late = [seat for seat in seats if seat.forfeit_reason == movelog.TIMEOUT]
    moved = set(Move.objects.filter(match=match, kind=Move.Kind.MOVE,
                                    seat__in=[seat.index for seat in late])
                .values_list("seat", "user_id")) if late else set()
    pairing.no_shows = [seat.user_id for seat in late
                        if seat.user is not None and not seat.user.is_bot
                        and (seat.index, seat.user_id) not in moved]
    pairing.ended_at = timezone.now()
    pairing.save(update_fields=["ranks", "void", "no_shows", "ended_at"])
    tournament_id = str(pairing.tournament_id)
    transaction.on_commit(lambda: send(TOURNAMENT_ADVANCE, (tournament_id,)))
