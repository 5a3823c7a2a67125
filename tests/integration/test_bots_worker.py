"""Bots played by a real Celery worker on Redis: a person plays a whole match over HTTP against
a level-2 bot in each game, and four bots play a match by themselves to the end."""

from __future__ import annotations

import time

import pytest

from games.catalog import games
from games.models import Match, Move
from games.services.bots import bot_accounts_ensure
from tests.integration.conftest import wait_until
from tests.integration.http import register

pytestmark = pytest.mark.integration

# Options a game is played with here where its defaults will not do: a Nimble race is real
# time, and Nimalia's first-game objectives make a short match.
CONFIGS = {"nimble": {"mode": "turns"}, "nimalia": {"objectives": "first_game"}}


def human_move(game: str, legal) -> dict | None:
    """A simple, legal choice from the compact legal moves the API gives."""
    if game == "nibble":
        takeable = legal["takeable"]
        return {"take": [takeable[sorted(takeable, key=int)[0]][0]]}
    if game == "nimble":
        by_action = {m["action"]: m for m in legal}
        return next((m for m in legal if m["action"] == "place"), None) or by_action.get(
            "flip") or by_action.get("recycle") or by_action.get("end_turn") or legal[0]
    if legal["undo"]:
        return None
    row, col = legal["anchors"][0]
    return {"card": legal["cards"][0], "row": row, "col": col, "rotation": 0}


@pytest.mark.parametrize("game", sorted(games()))
def test_a_person_plays_a_level_two_bot_to_the_end(game, live_server, celery_worker_process):
    bot_accounts_ensure()
    me = register(live_server.url, f"human-{game}")
    status, created = me.post("/api/matches", {
        "game": game, "config": CONFIGS.get(game, {}),
        "seats": [{"kind": "me"}, {"kind": "bot", "level": 2}]})
    assert status == 201, created
    match_id = created["id"]

    def my_move_or_the_end() -> tuple[dict, dict | None] | None:
        """The match once it is over or the person has a move to make, with that move."""
        detail = me.get(f"/api/matches/{match_id}")[1]
        if detail["status"] != "active":
            return detail, None
        if detail["is_your_turn"] and detail["legal_moves"] is not None:
            move = human_move(game, detail["legal_moves"])
            if move is not None:
                return detail, move
        return None

    deadline = time.monotonic() + 240
    while True:
        detail, move = wait_until(my_move_or_the_end, timeout=deadline - time.monotonic(),
                                  interval=0.05, message=f"the {game} match did not finish")
        if move is None:
            break
        status, body = me.post(f"/api/matches/{match_id}/moves",
                               {"move": move, "expected_version": detail["version"]})
        assert status in (201, 409), body  # 409: the bot moved first (simultaneous)
    assert detail["status"] == "finished", f"{game} did not finish: {detail['status']}"
    match = Match.objects.get(id=match_id)
    bot_moves = match.moves.filter(kind=Move.Kind.MOVE, user__is_bot=True)
    assert bot_moves.exists()
    assert "games.match_bot_move_play" in celery_worker_process.output()


def test_four_bots_play_a_match_by_themselves(live_server, celery_worker_process):
    bot_accounts_ensure()
    host = register(live_server.url, "host-of-bots")
    status, created = host.post("/api/matches", {
        "game": "nimalia", "config": {"objectives": "first_game"},
        "seats": [{"kind": "bot", "level": level} for level in (1, 2, 1, 2)]})
    assert status == 201, created
    assert created["rated"] is False, "a bot filling two seats plays itself: never rated"
    match_id = created["id"]
    wait_until(lambda: host.get(f"/api/matches/{match_id}")[1]["status"] == "finished",
               timeout=240, interval=0.5, message="the bots' match did not finish")
    final = host.get(f"/api/matches/{match_id}")[1]
    assert final["your_seat"] is None and final["outcome"] is not None
