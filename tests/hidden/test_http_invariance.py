"""Information-set invariance over HTTP, for every registered game.

Matches are played through the API to random positions. There, for every seat and for a
spectator, every answer the API gives that viewer is recorded (the match detail with its legal
moves and ETag, the move log, both event feeds, the match list and inbox, the dry run of its
legal moves and of moves from elsewhere in the match, the errors of illegal moves, the board
picture with its ETag); then the stored state and seed are swapped for a hidden variant for that
viewer (``engine.hidden_variant`` given what the log showed it) and everything is asked again:
the answers must be byte-identical.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.core.cache import cache

from games.kit.protocol import JSON, events_for
from games.kit.registry import GameSpec
from games.models import Match
from tests.games.helpers import create_match
from tests.games.matchplay import match_url, submit

pytestmark = pytest.mark.django_db

PREVIEWS = 6  # legal moves previewed per viewer and position
ODD = 4  # moves from elsewhere in the match tried per viewer and position


def _player_counts(spec: GameSpec) -> list[int]:
    engine = spec.engine
    return sorted({engine.min_players, max(2, engine.min_players), engine.max_players})


class Table:
    """One match played over HTTP by one client per seat, watched by a spectator."""

    def __init__(self, spec: GameSpec, players: int, make_user, client_for, on_commit) -> None:
        self.spec, self.engine, self.players = spec, spec.engine, players
        self.on_commit = on_commit
        label = f"{spec.slug}{players}"
        users = [make_user(username=f"{label}-p{seat}") for seat in range(players)]
        self.clients = [client_for(user) for user in users]
        self.watcher = client_for(make_user(username=f"{label}-watch"))
        with on_commit(execute=True):
            self.id = create_match(self.clients[0], game=spec.slug, players=players)["id"]
        for client in self.clients[1:]:
            with on_commit(execute=True):
                joined = client.post(match_url(self.id, "join"))
            assert joined.status_code == 200, joined.json()
        # The creator of a match between bots watches it with the spectator's view; the
        # creator's seat here is taken by a person, so the watcher stands in as the creator.
        Match.objects.filter(id=self.id).update(created_by=self.watcher.user)
        self.odd_moves: list[JSON] = [{"nonsense": 1}]

    def match(self) -> Match:
        return Match.objects.get(id=self.id)

    def state(self) -> Any:
        return self.engine.load(self.match().state)

    def play(self, steps: int, rng: random.Random) -> bool:
        """Random legal moves, each by a random seat that may act; False once the match is
        over."""
        for _ in range(steps):
            match = self.match()
            if match.status != Match.Status.ACTIVE:
                return False
            state = self.engine.load(match.state)
            actors = sorted(self.engine.actors(state))
            assert actors, "a due system step was not run"
            seat = rng.choice(actors)
            data = self.engine.dump_move(rng.choice(list(self.engine.legal_moves(state, seat))))
            if rng.random() < 0.3:
                self.odd_moves.append(data)
            with self.on_commit(execute=True):
                response = submit(self.clients[seat], self.id, data, match.version)
            assert response.status_code == 201, response.json()
        return self.match().status == Match.Status.ACTIVE

    def history(self, seat: int | None) -> list[JSON]:
        events: list[JSON] = []
        for logged in self.match().moves.order_by("seq").values_list("events", flat=True):
            events.extend(events_for(logged, seat))
        return events

    def answers(self, seat: int | None, tried: list[JSON], odd: list[JSON],
                refused: list[JSON]) -> list[tuple[str, int, bytes, str | None]]:
        """Every answer the viewer gets, in order: (what, status, body, ETag)."""
        cache.clear()  # throttle budgets: the same for both rounds
        client = self.watcher if seat is None else self.clients[seat]
        found = []

        def got(what: str, response) -> None:
            found.append((what, response.status_code, response.content, response.get("ETag")))

        for path in ("", "moves", "events?wait=0", "board.svg"):
            got(path, client.get(match_url(self.id, path)))
        for path in ("/api/me/events?wait=0", "/api/matches?scope=all", "/api/me/inbox"):
            got(path, client.get(path))
        preview = match_url(self.id, "moves/preview")
        for data in [*tried, *odd]:
            got(f"preview {data}", client.post(preview, {"move": data}, format="json"))
        for data in refused:
            got(f"submit {data}", submit(client, self.id, data))
        return found

    def check_variants(self, rng: random.Random) -> int:
        """Swap the stored state for a hidden variant for each viewer; compare everything."""
        match = self.match()
        stored, seed = match.state, match.seed
        state = self.engine.load(stored)
        compared = 0
        for seat in (None, *range(self.players)):
            tried: list[JSON] = []
            if seat is not None:
                legal = [self.engine.dump_move(m) for m in self.engine.legal_moves(state, seat)]
                tried = legal if len(legal) <= PREVIEWS else rng.sample(legal, PREVIEWS)
            odd = rng.sample(self.odd_moves, min(ODD, len(self.odd_moves)))
            # Submitted only where the real state refuses them (a legal one would be played).
            refused = [data for data in odd if seat is not None
                       and self.client_refuses(seat, data)][:2]
            before = self.answers(seat, tried, odd, refused)
            variant = self.engine.hidden_variant(state, seat, history=self.history(seat),
                                                 rng=random.Random(rng.random()))
            dumped = self.engine.dump(variant)
            Match.objects.filter(id=self.id).update(state=dumped,
                                                    seed=dumped.get("seed", seed))
            try:
                after = self.answers(seat, tried, odd, refused)
            finally:
                Match.objects.filter(id=self.id).update(state=stored, seed=seed)
            assert self.match().version == match.version  # nothing was played
            for one, other in zip(before, after, strict=True):
                assert one == other, (self.spec.slug, seat, one[0])
            compared += len(before)
        return compared

    def client_refuses(self, seat: int, data: JSON) -> bool:
        cache.clear()
        response = self.clients[seat].post(match_url(self.id, "moves/preview"),
                                           {"move": data}, format="json")
        return response.status_code != 200


def test_every_http_answer_is_the_same_in_every_hidden_variant(
        spec: GameSpec, make_user, client_for, django_capture_on_commit_callbacks) -> None:
    rng = random.Random(f"http:{spec.slug}")
    compared = 0
    for players in _player_counts(spec):
        table = Table(spec, players, make_user, client_for, django_capture_on_commit_callbacks)
        for steps in (0, rng.randint(1, 6), rng.randint(5, 30)):
            if not table.play(steps, rng):
                break
            compared += table.check_variants(rng)
    assert compared > 30
