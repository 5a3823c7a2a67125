"""Nimalia's end-of-round scoring runs in a real Celery worker on Redis, once per round, even
when a worker dies holding the task."""

from __future__ import annotations

import pytest

from games.catalog import get_engine
from games.models import Match, Move
from games.services import SeatSpec, match_create, match_move_submit
from tests.factories import UserFactory
from tests.integration.conftest import wait_until
from tests.integration.http import register

pytestmark = pytest.mark.integration


def _nimalia_move(legal: dict) -> dict:
    row, col = legal["anchors"][0]
    return {"card": legal["cards"][0], "row": row, "col": col, "rotation": 0}


def replay(match: Match):
    """The final state of a pure-engine replay of the match's move log."""
    engine = get_engine(match.game)
    state = engine.initial_state(num_players=match.num_players, config=match.config,
                                 seed=match.seed)
    for move in match.moves.order_by("seq"):
        if move.kind == Move.Kind.SYSTEM:
            state = engine.system_step(state).state
        elif move.kind == Move.Kind.FORFEIT:
            state = engine.forfeit(state, move.seat).state
        else:
            state = engine.apply(state, move.seat, engine.parse_move(move.payload)).state
    return engine, state


def test_three_players_over_http_with_rounds_scored_by_the_worker(
        live_server, celery_worker_process):
    players = [register(live_server.url, name) for name in ("nia", "omar", "pia")]
    status, created = players[0].post("/api/matches", {
        "game": "nimalia", "config": {"objectives": "first_game"},
        "seats": [{"kind": "me"}, {"kind": "user", "username": "omar"},
                  {"kind": "user", "username": "pia"}]})
    assert status == 201, created
    match_id = created["id"]
    for client in players[1:]:
        assert client.post(f"/api/matches/{match_id}/join")[0] == 200

    for _ in range(400):
        status, detail = players[0].get(f"/api/matches/{match_id}")
        if detail["status"] == "finished":
            break
        if not detail["to_act"]:
            # A round ended: only the worker can move the match on.
            version = detail["version"]
            wait_until(lambda v=version: players[0].get(f"/api/matches/{match_id}")[1]["version"]
                       > v, timeout=60, message="the worker did not score the round")
            continue
        for seat in detail["to_act"]:
            status, mine = players[seat].get(f"/api/matches/{match_id}")
            legal = mine["legal_moves"]
            if legal is None or legal["undo"]:
                continue
            status, body = players[seat].post(f"/api/matches/{match_id}/moves",
                                              {"move": _nimalia_move(legal)})
            assert status == 201, body
    match = Match.objects.get(id=match_id)
    assert match.status == Match.Status.FINISHED
    system_moves = list(match.moves.filter(kind=Move.Kind.SYSTEM).order_by("seq"))
    assert len(system_moves) == 5  # one scoring per round
    assert [m.events[0]["type"] for m in system_moves] == ["round_scored"] * 5
    # Received and succeeded, each logged: the last "succeeded" may be written just after the
    # match was seen finished (the task logs it once its transaction has committed).
    wait_until(lambda: celery_worker_process.output().count(
        "Task games.match_system_step_run[") >= 2 * 5, timeout=10,
        message="the worker did not log every step it received and ran")
    assert celery_worker_process.output().count("succeeded") >= 5

    engine, state = replay(match)
    assert engine.outcome(state).as_dict() == match.outcome
    assert list(engine.outcome(state).scores) == [s.score for s in match.seats.order_by("index")]


def _play_to_round_end(match: Match, users) -> int:
    """Place cards through the service until the round's system step is due."""
    engine = get_engine(match.game)
    while True:
        match.refresh_from_db()
        if not match.actors:
            return match.version
        state = engine.load(match.state)
        for seat in match.actors:
            legal = engine.view(state, seat)["legal_moves"]
            if legal and not legal["undo"]:
                match_move_submit(user=users[seat], match_id=match.id, move=_nimalia_move(legal))
                break


def test_a_worker_killed_mid_step_is_replaced_and_the_round_is_scored_once(make_worker):
    users = [UserFactory() for _ in range(2)]
    match = match_create(user=users[0], game="nimalia",
                         seats=[SeatSpec("me"), SeatSpec("user", username=users[1].username)])
    from games.services import match_join

    match_join(user=users[1], match_id=match.id)
    slow = make_worker(app="tests.integration.slow_worker", env={"SLOW_SYSTEM_STEP": "30"})
    version = _play_to_round_end(match, users)
    wait_until(lambda: "Task games.match_system_step_run[" in slow.output(), timeout=30,
               message="the slow worker never received the system step")
    slow.kill()
    match.refresh_from_db()
    assert match.version == version, "the killed worker must not have scored"

    fast_env = {"CELERY_VISIBILITY_TIMEOUT": "3", "CELERY_UNACKED_RESTORE_INTERVAL": "1",
                "CELERY_UNACKED_RESTORE_THROTTLE": "1"}
    fresh = make_worker(env=fast_env)
    wait_until(lambda: Match.objects.get(id=match.id).version > version, timeout=60,
               message="the redelivered system step never ran")
    # Enqueue the same step twice more: the version check makes both no-ops.
    from games.tasks import match_system_step_run_task as run_system_step

    run_system_step.delay(str(match.id), version)
    run_system_step.delay(str(match.id), version)
    wait_until(lambda: fresh.output().count("succeeded") >= 3, timeout=30,
               message="the duplicate tasks did not run")
    scored = Move.objects.filter(match=match, kind=Move.Kind.SYSTEM)
    assert scored.count() == 1
    assert scored.get().seq == version + 1
