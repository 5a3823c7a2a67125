"""Match rows made directly, as the lists and the inbox read them (no game state): a match of
two players at any status, deadline, time of its last move and time it ended."""

from __future__ import annotations

from datetime import UTC, datetime

from games.clocks import clock, control
from games.models import Match, Move, Seat

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def listed_match(owner, other, *, game="nibble", status="active", my_turn=False,
                 deadline=None, created=T0, started=None, finished=None, moved=None) -> Match:
    """A match row of ``owner`` and ``other`` as the lists read it: seat 0 is the owner's
    (its turn when ``my_turn``), ``moved``: when its one move was recorded (None: no move)."""
    actors = ([0] if my_turn else [1]) if status == "active" else []
    timing = control.per_move(86400) if deadline else None
    match = Match.objects.create(
        game=game, num_players=2, status=status, created_by=owner, seed="s",
        version=1 if moved else 0, actors=actors,
        time_control=control.dump(timing) if timing else None,
        clocks=clock.dump_clocks(clock.carried_over(timing, 2, actors, deadline))
        if timing else None, deadline=deadline,
        started_at=started if started or status == "open" else created,
        finished_at=finished)
    Seat.objects.bulk_create([
        Seat(match=match, index=0, user=owner, joined_at=created),
        Seat(match=match, index=1, user=other, joined_at=None if status == "open" else created)])
    if moved:
        Move.objects.create(match=match, seq=1, kind=Move.Kind.MOVE, seat=1, user=other)
        Move.objects.filter(match=match).update(created_at=moved)
    Match.objects.filter(id=match.id).update(created_at=created)
    return Match.objects.get(id=match.id)
