"""A bot's move depends only on its seat's view and the events its seat was shown: with the
hidden parts of the position swapped (a hidden variant for the bot's seat), every policy of
every registered game, at every level, chooses the same move from the same seeded generator."""

from __future__ import annotations

import random
import time

from games.kit.registry import GameSpec
from tests.hidden.positions import Position, positions, variants

# Level-3 policies search for up to two seconds a move: they get few positions.
POSITIONS = {1: 6, 2: 6, 3: 2}
SLOW_BUDGET_SECONDS = 20.0


def _running_positions(spec: GameSpec, players: int, level: int,
                       count: int) -> list[Position]:
    """``count`` positions of running matches, from as many playouts as short games need."""
    found: list[Position] = []
    for k in range(20):
        found.extend(p for p in positions(spec.engine, players=players, config={},
                                          seed=f"bots-{spec.slug}-{level}-{k}", count=count)
                     if spec.engine.outcome(p.state) is None)
        if len(found) >= count:
            break
    return found[:count]


def test_a_bots_move_depends_only_on_what_its_seat_may_know(spec: GameSpec) -> None:
    engine = spec.engine
    chosen = 0
    for level in spec.levels:
        started = time.monotonic()
        players = engine.max_players if level < 3 else max(2, engine.min_players)
        players = min(players, engine.max_players)
        count = POSITIONS.get(level, 2)
        for position in _running_positions(spec, players, level, count):
            state = position.state
            for seat in sorted(engine.must_act(state))[:2]:
                history = position.history(seat)
                (variant,) = variants(spec, position, seat, 1, f"bots-{level}")
                moves = [spec.choose_move(level, engine.view(s, seat), seat,
                                          random.Random(f"bot:{level}:{seat}"),
                                          history=history)
                         for s in (state, variant)]
                assert moves[0] == moves[1], (spec.slug, level, seat)
                chosen += 1
            if time.monotonic() - started > SLOW_BUDGET_SECONDS:
                break
    assert chosen >= 2 * len(spec.levels), chosen
