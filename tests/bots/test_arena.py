"""The arena's record of each match, and ``bot_arena --matches`` printing it, so a level's
losses can be looked at one by one."""

from __future__ import annotations

import io

from django.core.management import call_command

from games.kit.arena import run_arena

REASONS = {"finished", "deadlock", "stalemate", "forfeit"}


def test_the_arena_keeps_a_record_of_every_match_in_order():
    result = run_arena("nimble", 2, 1, games=3, config={"mode": "turns"}, seed="smoke", first=5)
    assert [m.number for m in result.matches] == [5, 6, 7]
    assert [m.seat_a for m in result.matches] == [1, 0, 1]
    assert {m.points for m in result.matches} <= {0.0, 0.5, 1.0}
    assert result.games == 3 and result.wins_a == sum(m.points for m in result.matches)
    assert result.score_diffs == [m.score_diff for m in result.matches]
    assert {m.reason for m in result.matches} <= REASONS
    jobs = run_arena("nimble", 2, 1, games=3, config={"mode": "turns"}, seed="smoke", first=5,
                     jobs=2)
    assert jobs.matches == result.matches


def test_bot_arena_prints_a_line_per_match_when_asked():
    out = io.StringIO()
    call_command("bot_arena", "--game", "nimble", "--a", "2", "--b", "1", "--games", "2",
                 "--first", "3", "--seed", "smoke", "--matches", stdout=out,
                 stderr=io.StringIO())
    lines = [line for line in out.getvalue().splitlines() if line.startswith("  match ")]
    assert len(lines) == 2
    assert lines[0].startswith("  match 3 (seed smoke-3): level 2 in seat 1; points ")
    assert lines[1].startswith("  match 4 (seed smoke-4): level 2 in seat 0; points ")
    assert all(line.rsplit(", ", 1)[1] in REASONS for line in lines)
    quiet = io.StringIO()
    call_command("bot_arena", "--game", "nimble", "--a", "2", "--b", "1", "--games", "1",
                 "--seed", "smoke", stdout=quiet, stderr=io.StringIO())
    assert "  match " not in quiet.getvalue()
