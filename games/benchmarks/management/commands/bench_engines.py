"""Rules-engine benchmarks: playouts per second and per-operation timings, one core."""

from django.core.management.base import BaseCommand

from games.catalog import game, games
from games.management.progress import ProgressBar


class Command(BaseCommand):
    help = "Benchmark the rules engines (random playouts, move generation, scoring)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--game", choices=sorted(games()), action="append",
                            help="Only these games (repeatable).")

    def handle(self, *args, **options) -> None:
        slugs = options["game"] or sorted(slug for slug, spec in games().items() if spec.bench)
        rows = []
        with ProgressBar(len(slugs), "benchmarks", stream=self.stderr) as bar:
            for slug in slugs:
                bench = game(slug).bench
                rows += [(slug, *row) for row in bench()] if bench else []
                bar.advance()
        width = max(len(row[1]) for row in rows)
        for slug, metric, value, unit in rows:
            self.stdout.write(f"{slug:8} {metric:<{width}}  {value:>12,.1f} {unit}")
