"""make bench-tournament on a small field: every round paired and timed, a whole Swiss played
by level-1 bots with its standings."""

from __future__ import annotations

from io import StringIO

from django.core.management import call_command

from games.benchmarks.tournament import large_round, simulated_swiss


def test_a_large_field_is_paired_round_by_round_without_repeats():
    figures = large_round(130, 3)
    assert len(figures.seconds) == 3 and figures.repeats == 0


def test_a_simulated_swiss_plays_every_match_and_ranks_everyone():
    result = simulated_swiss(8, 3)
    assert result.matches == 12
    assert sorted(line.player for line in result.lines) == list(range(1, 9))
    assert sum(line.points for line in result.lines) == 12


def test_the_command_prints_both_figures():
    out = StringIO()
    call_command("bench_tournament", "--field", "40", "--field-rounds", "2", "--players", "6",
                 "--rounds", "2", stdout=out)
    text = out.getvalue()
    assert "Swiss pairing, 40 players" in text and "Simulated Swiss of nibble" in text
