"""Rules-engine benchmarks: playouts per second and per-operation timings, one core."""

import importlib

from django.core.management.base import BaseCommand

from games.engines import ENGINES
from games.management.progress import ProgressBar


class Command(BaseCommand):
    help = "Benchmark the rules engines (random playouts, move generation, scoring)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--game", choices=sorted(ENGINES), action="append",
                            help="Only these games (repeatable).")

    def handle(self, *args, **options) -> None:
        games = options["game"] or sorted(ENGINES)
        rows = []
        with ProgressBar(len(games), "benchmarks", stream=self.stderr) as bar:
            for game in games:
                module = importlib.import_module(f"games.benchmarks.{game}")
                rows += [(game, *row) for row in module.run()]
                bar.advance()
        width = max(len(row[1]) for row in rows)
        for game, metric, value, unit in rows:
            self.stdout.write(f"{game:8} {metric:<{width}}  {value:>12,.1f} {unit}")
