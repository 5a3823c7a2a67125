"""Bot strength: engine-only matches between two levels, seats alternated."""

import json

from django.core.management.base import BaseCommand

from games.catalog import engines
from games.catalog import game as game_spec
from games.kit.arena import run_arena
from games.management.progress import ProgressBar

# Two-player settings the strength targets are measured in.
DEFAULT_CONFIGS = {"nimble": {"mode": "turns"}}


class Command(BaseCommand):
    help = "Play engine-only matches between two bot levels and report the win rate."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--game", choices=sorted(engines()), required=True)
        parser.add_argument("--a", type=int, choices=[1, 2, 3], required=True)
        parser.add_argument("--b", type=int, choices=[1, 2, 3], required=True)
        parser.add_argument("--games", type=int, default=200)
        parser.add_argument("--config", type=json.loads, default=None,
                            help="Match options as JSON (default: the game's defaults).")
        parser.add_argument("--seed", default="arena")

    def handle(self, *args, **options) -> None:
        game = options["game"]
        policies = game_spec(game).policies
        missing = [lvl for lvl in (options["a"], options["b"]) if lvl not in policies]
        if missing:
            self.stderr.write(f"no level {missing[0]} bot for {game}")
            return
        config = options["config"] if options["config"] is not None else DEFAULT_CONFIGS.get(
            game, {})
        with ProgressBar(options["games"], f"{game} L{options['a']} v L{options['b']}",
                         stream=self.stderr) as bar:
            result = run_arena(game, options["a"], options["b"], options["games"], config,
                               seed=options["seed"], progress=bar.advance)
        low, high = result.win_rate_interval()
        mean, half = result.mean_score_diff()
        self.stdout.write(
            f"{game}: level {result.level_a} vs level {result.level_b}, {result.games} games\n"
            f"  win rate of level {result.level_a}: {100 * result.win_rate():.1f}% "
            f"(95% CI {100 * low:.1f}-{100 * high:.1f}%)\n"
            f"  score difference (A - B): {mean:+.1f} +/- {half:.1f}\n"
            f"  mean think time: level {result.level_a} {result.mean_think_ms(result.level_a):.1f}"
            f" ms, level {result.level_b} {result.mean_think_ms(result.level_b):.1f} ms per move")
