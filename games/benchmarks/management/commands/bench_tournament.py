"""make bench-tournament: pairing a large Swiss round, and a whole Swiss played by bots."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.benchmarks.tournament import large_round, simulated_swiss


class Command(BaseCommand):
    help = ("Time Swiss pairing of a large field round by round, then a whole Swiss played by "
            "level-1 bots through the engines (no database, no HTTP) with its standings.")

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--field", type=int, default=1000,
                            help="Players of the large field (default 1000).")
        parser.add_argument("--field-rounds", type=int, default=5,
                            help="Rounds of the large field to pair (default 5).")
        parser.add_argument("--players", type=int, default=64,
                            help="Players of the simulated Swiss (default 64).")
        parser.add_argument("--rounds", type=int, default=7,
                            help="Rounds of the simulated Swiss (default 7).")
        parser.add_argument("--game", default="nibble", help="The game the bots play.")
        parser.add_argument("--top", type=int, default=8, help="Standings lines to print.")

    def handle(self, *args: Any, **options: Any) -> None:
        figures = large_round(options["field"], options["field_rounds"])
        self.stdout.write(f"Swiss pairing, {figures.players} players:")
        for number, (seconds, cpu) in enumerate(zip(figures.seconds, figures.cpu_seconds,
                                                    strict=True), start=1):
            self.stdout.write(f"  round {number}: {seconds * 1000:9.1f} ms "
                              f"({cpu * 1000:.1f} ms of CPU)")
        self.stdout.write(f"  worst round: {max(figures.seconds) * 1000:.1f} ms; repeat "
                          f"pairings: {figures.repeats}")
        swiss = simulated_swiss(options["players"], options["rounds"], game=options["game"])
        total = swiss.pairing_seconds + swiss.playing_seconds + swiss.standings_seconds
        self.stdout.write(
            f"Simulated Swiss of {options['game']}, {swiss.players} level-1 bots, "
            f"{swiss.rounds} rounds, {swiss.matches} matches: {total:.2f} s in all "
            f"(pairing {swiss.pairing_seconds * 1000:.1f} ms, playing "
            f"{swiss.playing_seconds:.2f} s, standings {swiss.standings_seconds * 1000:.1f} ms; "
            f"{swiss.cpu_seconds:.2f} s of CPU)")
        self.stdout.write("  rank player points buchholz sonneborn-berger")
        for line in swiss.lines[:options["top"]]:
            self.stdout.write(f"  {line.rank:4} {line.player:6} {line.points:6.1f} "
                              f"{line.buchholz:8.1f} {line.sonneborn_berger:16.2f}")
