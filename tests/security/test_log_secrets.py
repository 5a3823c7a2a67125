"""No log line, at any level, ever holds a token, a password or hidden information.

Matches of every game are played over the API (people who signed up with passwords, a bot
playing through its Celery task, eagerly here) while every logger writes at DEBUG through a
handler configured like the production one, SQL statement logging forced on as well. Then none
of the API keys, passwords, the match's seed (hidden until the match is over), its stored state
or any seat's view appears in what was logged."""

from __future__ import annotations

import io
import json
import logging
import random

import pytest
from django.db import connection
from rest_framework.test import APIClient

from config.logging import handler_for
from games.catalog import games
from games.models import Match
from games.services.bots import bot_account_ensure
from tests.games.matchplay import match_url, submit

pytestmark = pytest.mark.django_db(transaction=True)

# Options a game is played with here where its defaults will not do: a Nimble race is real
# time, and Nimalia's first-game objectives make a short match.
CONFIGS = {"nimble": {"mode": "turns"}, "nimalia": {"objectives": "first_game"}}


def sign_up(username: str, password: str) -> APIClient:
    client = APIClient()
    response = client.post("/api/auth/register", {"username": username, "password": password},
                           format="json")
    assert response.status_code == 201, response.json()
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    client.token = response.json()["token"]
    return client


@pytest.mark.parametrize("game", sorted(games()))
def test_no_token_password_or_hidden_information_in_any_log_line(game):
    assert game in games()
    stream = io.StringIO()
    handler = handler_for(stream)
    root, sql = logging.getLogger(), logging.getLogger("django.db.backends")
    saved = root.level, sql.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    sql.setLevel(logging.DEBUG)
    connection.force_debug_cursor = True
    passwords = [f"pw-{game}-{n}-Zq8xk2Lm" for n in range(2)]
    try:
        bot_account_ensure(game, 1)
        a = sign_up(f"logs-{game}-a", passwords[0])
        b = sign_up(f"logs-{game}-b", passwords[1])
        # Failures are logged too: a wrong password, an unknown key, a move out of turn.
        assert APIClient().post("/api/auth/token", {"username": f"logs-{game}-a",
                                                    "password": passwords[1]},
                                format="json").status_code in (400, 401)
        stranger = APIClient()
        stranger.credentials(HTTP_AUTHORIZATION="Token bp_NotARealKey0123456789abcdef")
        assert stranger.get("/api/me").status_code == 401
        created = a.post("/api/matches", {
            "game": game, "config": CONFIGS.get(game, {}),
            "seats": [{"kind": "me"}, {"kind": "user", "username": f"logs-{game}-b"},
                      {"kind": "bot", "level": 1}]}, format="json")
        if created.status_code != 201:  # a two-player game: the bot leaves
            created = a.post("/api/matches", {
                "game": game, "config": CONFIGS.get(game, {}),
                "seats": [{"kind": "me"}, {"kind": "user", "username": f"logs-{game}-b"}]},
                format="json")
        assert created.status_code == 201, created.json()
        match_id = created.json()["id"]
        assert b.post(match_url(match_id, "join")).status_code == 200
        rng = random.Random(game)
        clients = {0: a, 1: b}
        for _ in range(12):
            match = Match.objects.get(id=match_id)
            if match.status != Match.Status.ACTIVE:
                break
            for seat, client in clients.items():
                detail = client.get(match_url(match_id)).json()
                if not detail.get("is_your_turn"):
                    # Out of turn: refused, and logged as such.
                    submit(client, match_id, {"nonsense": 1}, detail["version"])
                    continue
                from games.catalog import get_engine

                engine = get_engine(game)
                state = engine.load(Match.objects.get(id=match_id).state)
                legal = list(engine.legal_moves(state, seat))
                if legal:
                    submit(client, match_id, engine.dump_move(rng.choice(legal)),
                           detail["version"])
        match = Match.objects.get(id=match_id)
    finally:
        connection.force_debug_cursor = False
        root.removeHandler(handler)
        root.setLevel(saved[0])
        sql.setLevel(saved[1])

    text = stream.getvalue()
    assert text.strip(), "nothing was logged"
    for line in text.splitlines():
        json.loads(line)  # every line is one JSON object
    assert match.moves.count() > 1
    for secret in (a.token, b.token, "bp_NotARealKey0123456789abcdef", *passwords):
        assert secret not in text
    if match.status == Match.Status.ACTIVE:
        assert match.seed not in text
    assert json.dumps(match.state) not in text
    engine = games()[game].engine
    state = engine.load(match.state)
    for seat in range(len(match.seats.all())):
        view = engine.view(state, seat)
        for dumped in (json.dumps(view), json.dumps(view, separators=(",", ":")), repr(view)):
            assert dumped not in text
