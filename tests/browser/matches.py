"""Matches the browser tests set up through the services, to look at them in a page."""

from __future__ import annotations

from games.catalog import get_engine
from games.models import Match
from games.services import match_create, match_join, match_move_submit, match_resign
from games.services.matches import SeatSpec
from tests.factories import UserFactory


def two_people_nibble(first: str = "ada", second: str = "bo", *, resign: str | None = None,
                      rated: bool = False) -> Match:
    """A running Nibble match between two new people, ``first`` in seat 0 having made one move;
    ``resign``: which of them resigns then."""
    ada = UserFactory(username=first, password="a long enough passphrase")
    bo = UserFactory(username=second, password="a long enough passphrase")
    match = match_create(user=ada, game="nibble", config={"first_seat": 0}, rated=rated,
                         seats=[SeatSpec("me"), SeatSpec("user", username=second)])
    match_join(user=bo, match_id=match.id)
    state = Match.objects.get(id=match.id)
    engine = get_engine("nibble")
    first_move = next(iter(engine.legal_moves(engine.load(state.state), 0)))
    match_move_submit(user=ada, match_id=match.id, move=engine.dump_move(first_move),
                      expected_version=state.version)
    if resign:
        match_resign(user=ada if resign == first else bo, match_id=match.id)
    return Match.objects.get(id=match.id)
