"""Backups: matches of every game played through the services, the database dumped with
pg_dump, restored into a fresh database with pg_restore, and every match's move log replayed
there through the engines to the stored state, version, seats to act and outcome
(``manage.py replay_check``, run against the restored copy as an operator would)."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from games.catalog import games
from games.models import Match, Move, RatingChange
from games.services import (
    SeatSpec,
    bot_account_ensure,
    match_create,
    match_join,
    match_resign,
    moderation,
)
from tests.factories import UserFactory
from tests.ops.play import TaskQueue, play_out

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.needs_postgresql,
    pytest.mark.skipif(shutil.which("pg_dump") is None,
                       reason="needs PostgreSQL's client programs (pg_dump, pg_restore)"),
]

ROOT = Path(__file__).resolve().parents[2]
# Every game the server ships, from the registry (replay_check runs in a process of its own,
# which knows only these).
GAMES = sorted(games())


def pg_env(name: str | None = None) -> dict[str, str]:
    """The environment the PostgreSQL programs need to reach the test database (or ``name``)."""
    db = connection.settings_dict
    env = {**os.environ, "PGHOST": db["HOST"] or "127.0.0.1", "PGPORT": str(db["PORT"] or 5432),
           "PGUSER": db["USER"] or "postgres", "PGDATABASE": name or db["NAME"]}
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = db["PASSWORD"]
    return env


def database_url(name: str) -> str:
    env = pg_env(name)
    password = f":{env['PGPASSWORD']}" if env.get("PGPASSWORD") else ""
    return f"postgres://{env['PGUSER']}{password}@{env['PGHOST']}:{env['PGPORT']}/{name}"


def run(*command: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=300,
                          check=False)


def replay_check(name: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": database_url(name),
           "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    return subprocess.run([sys.executable, "manage.py", "replay_check"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


@pytest.fixture
def restored_name():
    name = f"{connection.settings_dict['NAME']}_restored"
    env = pg_env("postgres")
    run("dropdb", "--if-exists", name, env=env)
    yield name
    run("dropdb", "--if-exists", "--force", name, env=env)


def play_every_game(queue: TaskQueue) -> list[Match]:
    """Several matches of every game in every way a match can end or stand: bots only, a
    person against bots (rated), a resignation, a staff adjudication and abort, a match still
    running, one never started."""
    rng = random.Random(18)
    for game in GAMES:
        bot_account_ensure(game, 1)
        bot_account_ensure(game, 2)
    staff = UserFactory(is_staff=True)
    people = [UserFactory() for _ in range(4)]
    bot = SeatSpec("bot", level=1)
    played: list[Match] = []
    to_end: list[Match] = []
    setups = [("nibble", {}, [bot, SeatSpec("bot", level=2)]),
              ("nimble", {}, [bot, bot, bot]),
              ("nimble", {}, [SeatSpec("bot", level=2), bot]),
              ("nimalia", {"rounds": 4}, [bot, bot]),
              ("nimalia", {"rounds": 4}, [bot, SeatSpec("bot", level=2), bot])]
    for index, (game, config, seats) in enumerate(setups):
        to_end.append(match_create(user=people[index % 4], game=game, config=config,
                                   seats=seats))
    for game, players in [*((game, max(2, games()[game].engine.min_players)) for game in GAMES),
                          ("nimalia", 1)]:
        to_end.append(match_create(user=people[0], game=game,
                                   seats=[SeatSpec("me")] + [bot] * (players - 1)))
    play_out(queue, to_end, rng=rng)
    played += to_end

    # Person against person, left after a few moves each: one resigns, one is adjudicated,
    # one aborted by staff, one goes on.
    running: list[Match] = []
    for game in GAMES:
        for _ in range(4):
            match = match_create(user=people[1], game=game,
                                 seats=[SeatSpec("me"), SeatSpec("open")])
            match_join(user=people[2], match_id=match.id)
            running.append(match)
    play_out(queue, running, rng=rng, max_human_moves=5)
    for group in range(len(GAMES)):
        resigned, adjudicated, aborted = running[4 * group:4 * group + 3]
        match_resign(user=people[2], match_id=resigned.id)
        moderation.match_adjudicate(actor=staff, match_id=adjudicated.id,
                                    decision=moderation.Decision(winners=frozenset({1})),
                                    reason="stuck for a week")
        moderation.match_abort_by_staff(actor=staff, match_id=aborted.id, reason="test abort")
    queue.drain()
    played += running
    played.append(match_create(user=people[3], game="nimble",
                               seats=[SeatSpec("me"), SeatSpec("open"), SeatSpec("open")]))
    return played


def test_a_restored_dump_replays_every_match_to_its_stored_state(queue, restored_name,
                                                                 tmp_path):
    played = play_every_game(queue)
    statuses = Counter((m.game, m.status) for m in Match.objects.all())
    assert {game for game, _ in statuses} == set(GAMES)
    for game in GAMES:
        assert statuses[(game, "finished")] >= 3, statuses
        assert statuses[(game, "active")] >= 1, statuses
        assert statuses[(game, "aborted")] >= 1, statuses
    assert Match.objects.filter(outcome__reason="adjudicated").count() == len(GAMES)
    assert RatingChange.objects.exists()
    assert len(played) == Match.objects.count()

    # The operator's procedure (docs/backups.md): a custom-format dump, a fresh database,
    # pg_restore into it, then replay_check against the copy.
    dump = tmp_path / "boardpost.dump"
    dumped = run("pg_dump", "--format=custom", "--no-owner", "--file", str(dump), env=pg_env())
    assert dumped.returncode == 0, dumped.stderr
    created = run("createdb", restored_name, env=pg_env("postgres"))
    assert created.returncode == 0, created.stderr
    restored = run("pg_restore", "--no-owner", "--exit-on-error", "--dbname", restored_name,
                   str(dump), env=pg_env())
    assert restored.returncode == 0, restored.stderr

    with psycopg.connect(database_url(restored_name)) as copy:
        rows = copy.execute("SELECT id, version, status, state, outcome FROM games_match "
                            "ORDER BY id").fetchall()
        moves = copy.execute("SELECT count(*) FROM games_move").fetchone()
    originals = {m.id: m for m in Match.objects.all()}
    assert len(rows) == len(originals)
    for match_id, version, status, state, outcome in rows:
        original = originals[match_id]
        assert (version, status, state, outcome) == (original.version, original.status,
                                                     original.state, original.outcome)
    assert moves is not None and moves[0] == Move.objects.count() > 100

    checked = replay_check(restored_name)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"total: {len(originals)} matches, 0 mismatches" in checked.stdout
    for game in GAMES:
        assert f"{game}: " in checked.stdout

    # And the check does catch a copy that differs from its log.
    damaged = next(m for m in originals.values() if m.status == "active")
    with psycopg.connect(database_url(restored_name), autocommit=True) as copy:
        copy.execute("DELETE FROM games_move WHERE match_id = %s AND seq = %s",
                     [damaged.id, damaged.version])
    checked = replay_check(restored_name)
    assert checked.returncode == 1
    assert f"MISMATCH {damaged.game} {damaged.id}" in checked.stdout
    assert "total: " in checked.stdout and ", 1 mismatches" in checked.stdout
