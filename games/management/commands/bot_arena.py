"""Bot strength: engine-only matches between two levels, seats alternated.

``--b reference`` (Nibble only) plays against the reference opponent, a plain UCT search with
random playouts and its own implementation of the rules
(``games.reference.uct_nibble``), reported as level 0."""

import json

from django.core.management.base import BaseCommand

from games.catalog import engines
from games.catalog import game as game_spec
from games.kit.arena import run_arena
from games.management.progress import ProgressBar
from games.reference.uct_nibble import reference_policy

# Two-player settings the strength targets are measured in.
DEFAULT_CONFIGS = {"nimble": {"mode": "turns"}}


class Command(BaseCommand):
    help = "Play engine-only matches between two bot levels and report the win rate."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--game", choices=sorted(engines()), required=True)
        parser.add_argument("--a", type=int, choices=[1, 2, 3, 4], required=True)
        parser.add_argument("--b", choices=["1", "2", "3", "4", "reference"], required=True,
                            help="A level, or 'reference' (Nibble): plain UCT, random playouts.")
        parser.add_argument("--games", type=int, default=200)
        parser.add_argument("--first", type=int, default=0,
                            help="Number of the first match (seed '{seed}-{number}'), to split "
                                 "a run into parts.")
        parser.add_argument("--jobs", type=int, default=1,
                            help="Processes playing matches at once (the result is the same).")
        parser.add_argument("--config", type=json.loads, default=None,
                            help="Match options as JSON (default: the game's defaults).")
        parser.add_argument("--seed", default="arena")
        parser.add_argument("--matches", action="store_true",
                            help="Also print a line per match: its seed, level A's seat, "
                                 "points and score difference, and how it ended.")

    def handle(self, *args, **options) -> None:
        game = options["game"]
        policies = game_spec(game).policies
        others = {}
        if options["b"] == "reference":
            if game != "nibble":
                self.stderr.write("the reference opponent plays Nibble only")
                return
            options["b"], others = 0, {0: reference_policy}
        options["b"] = int(options["b"])
        missing = [lvl for lvl in (options["a"], options["b"])
                   if lvl not in policies and lvl not in others]
        if missing:
            self.stderr.write(f"no level {missing[0]} bot for {game}")
            return
        config = options["config"] if options["config"] is not None else DEFAULT_CONFIGS.get(
            game, {})
        with ProgressBar(options["games"], f"{game} L{options['a']} v L{options['b']}",
                         stream=self.stderr) as bar:
            result = run_arena(game, options["a"], options["b"], options["games"], config,
                               seed=options["seed"], progress=bar.advance,
                               first=options["first"], jobs=options["jobs"], others=others)
        low, high = result.win_rate_interval()
        mean, half = result.mean_score_diff()
        self.stdout.write(
            f"{game}: level {result.level_a} vs level {result.level_b}, {result.games} games "
            f"(matches {options['first']}-{options['first'] + result.games - 1}, "
            f"seed {options['seed']!r})\n"
            f"  points of level {result.level_a}: {result.wins_a:g}\n"
            f"  win rate of level {result.level_a}: {100 * result.win_rate():.1f}% "
            f"(95% CI {100 * low:.1f}-{100 * high:.1f}%)\n"
            f"  score difference (A - B): {mean:+.1f} +/- {half:.1f}\n"
            f"  mean think time: level {result.level_a} {result.mean_think_ms(result.level_a):.1f}"
            f" ms, level {result.level_b} {result.mean_think_ms(result.level_b):.1f} ms per move\n"
            f"  mean (max) process time: level {result.level_a} "
            f"{result.mean_think_cpu_ms(result.level_a):.1f} "
            f"({result.max_think_cpu_ms(result.level_a):.0f}) ms, level {result.level_b} "
            f"{result.mean_think_cpu_ms(result.level_b):.1f} "
            f"({result.max_think_cpu_ms(result.level_b):.0f}) ms per move, over "
            f"{len(result.think_cpu_seconds.get(result.level_a, []))} and "
            f"{len(result.think_cpu_seconds.get(result.level_b, []))} moves")
        if options["matches"]:
            for match in result.matches:
                self.stdout.write(
                    f"  match {match.number} (seed {options['seed']}-{match.number}): level "
                    f"{result.level_a} in seat {match.seat_a}; points {match.points:g}, score "
                    f"difference {match.score_diff:+g}, {match.reason}")
