"""Replay every match's move log through its engine and report the matches whose stored state,
version, seats to act or outcome differ from the replay (``games.selectors.replay``).

    python manage.py replay_check [--game nibble] [--match ID ...] [--quiet]

Prints one line per mismatch and a summary per game; exits with status 1 when any match
differs. Reads only, so it is safe on a live database (run it on a restored copy after a
backup, as docs/backups.md describes)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.selectors.replay import replay_problems


class Command(BaseCommand):
    help = "Replay every match's move log and report the matches that differ from it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", help="Only matches of this game.")
        parser.add_argument("--match", action="append", dest="matches", metavar="ID",
                            help="Only this match (repeatable).")
        parser.add_argument("--quiet", action="store_true", help="Print only mismatches.")

    def handle(self, *args: Any, **options: Any) -> None:
        checked: Counter[str] = Counter()
        moves: Counter[str] = Counter()
        bad: Counter[str] = Counter()
        for match, problem in replay_problems(game=options["game"],
                                              match_ids=options["matches"]):
            checked[match.game] += 1
            moves[match.game] += match.version
            if problem is not None:
                bad[match.game] += 1
                self.stdout.write(f"MISMATCH {match.game} {match.id} v{match.version} "
                                  f"{match.status}: {problem}")
        if not options["quiet"]:
            for game in sorted(checked):
                self.stdout.write(f"{game}: {checked[game]} matches, {moves[game]} log entries "
                                  f"replayed, {bad[game]} mismatches")
            self.stdout.write(f"total: {sum(checked.values())} matches, "
                              f"{sum(bad.values())} mismatches")
        if bad:
            raise CommandError(f"{sum(bad.values())} matches differ from their move logs.")
