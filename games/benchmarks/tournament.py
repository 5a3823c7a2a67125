"""The tournament benchmark: pairing a large Swiss round, and a whole simulated Swiss played
by bots through the engines alone (no database, no HTTP).

Both use the pure formats (``games.tournaments.formats``), the code the server pairs rounds
with. A large field's earlier rounds get random results (wins, losses and a tenth of draws), so
the round that is timed pairs real score groups and meeting histories."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from games.kit.arena import play_match
from games.tournaments.formats import records, standings, swiss
from games.tournaments.formats.history import History

TWO_PLAYERS = records.DEFAULT_PLACING_POINTS[2]


def _random_ranks(rng: random.Random) -> tuple[int, int]:
    draw = rng.random()
    return (0, 0) if draw < 0.1 else (0, 1) if draw < 0.55 else (1, 0)


def _recorded(number: int, pairing: swiss.Round,
              ranks_of: Callable[[tuple[int, ...]], tuple[int, ...]]) -> list[records.Table]:
    tables = [records.finished_table(number, table, ranks_of(table), TWO_PLAYERS)
              for table in pairing.tables]
    if pairing.bye is not None:
        tables.append(records.bye(number, pairing.bye, TWO_PLAYERS[0]))
    return tables


@dataclass
class PairingFigures:
    """How long pairing each round of a large field took (wall-clock and process seconds: on a
    busy machine the first waits for the others, the second does not), and how many repeat
    pairings the whole run made (0 unless the field forced one)."""

    players: int
    seconds: list[float] = field(default_factory=list)
    cpu_seconds: list[float] = field(default_factory=list)
    repeats: int = 0


def large_round(players: int, rounds: int, seed: str = "bench") -> PairingFigures:
    """Pair ``rounds`` rounds of a ``players``-player two-player Swiss, each timed, with random
    results in between."""
    rng = random.Random(seed)
    field_ids = list(range(1, players + 1))
    tables: list[records.Table] = []
    figures = PairingFigures(players=players)
    for number in range(1, rounds + 1):
        started, started_cpu = time.perf_counter(), time.process_time()
        pairing = swiss.pair_two(field_ids, tables, round=number, seed=seed)
        figures.seconds.append(time.perf_counter() - started)
        figures.cpu_seconds.append(time.process_time() - started_cpu)
        tables += _recorded(number, pairing, lambda table: _random_ranks(rng))
    figures.repeats = sum(count - 1 for count in History.of(tables).met.values())
    return figures


@dataclass
class SimulatedSwiss:
    """A whole Swiss played by bots: the time spent pairing and playing, the matches played
    and the final standings."""

    players: int
    rounds: int
    pairing_seconds: float = 0.0
    playing_seconds: float = 0.0
    standings_seconds: float = 0.0
    cpu_seconds: float = 0.0
    matches: int = 0
    lines: list[standings.Standing] = field(default_factory=list)


def simulated_swiss(players: int, rounds: int, *, game: str = "nibble", level: int = 1,
                    seed: str = "bench") -> SimulatedSwiss:
    """Play a ``players``-player, ``rounds``-round two-player Swiss of ``game`` with every
    seat a level-``level`` bot, through the engines alone."""
    field_ids = list(range(1, players + 1))
    tables: list[records.Table] = []
    result = SimulatedSwiss(players=players, rounds=rounds)
    started_cpu = time.process_time()
    for number in range(1, rounds + 1):
        started = time.perf_counter()
        pairing = swiss.pair_two(field_ids, tables, round=number, seed=seed)
        result.pairing_seconds += time.perf_counter() - started
        started = time.perf_counter()

        def played(table: tuple[int, ...], number: int = number) -> tuple[int, ...]:
            outcome = play_match(game, {0: level, 1: level}, f"{seed}:{number}:{table}")
            return outcome.ranks

        tables += _recorded(number, pairing, played)
        result.matches += len(pairing.tables)
        result.playing_seconds += time.perf_counter() - started
    started = time.perf_counter()
    result.lines = standings.standings(field_ids, tables, standings.SWISS)
    result.standings_seconds = time.perf_counter() - started
    result.cpu_seconds = time.process_time() - started_cpu
    return result
