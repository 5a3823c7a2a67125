"""The solo rank table stays in line with the reference players it was drawn from."""

from __future__ import annotations

import statistics

from games.nimalia.engine import SOLO_THRESHOLDS
from tests.engines.nimalia.solo_sim import greedy_policy, play_solo, random_policy


def test_reference_players_land_in_the_expected_bands() -> None:
    bands = SOLO_THRESHOLDS[5]
    greedy = [play_solo(f"table-{n}", greedy_policy) for n in range(8)]
    random_ = [play_solo(f"table-{n}", random_policy) for n in range(8)]
    # A random player rarely gets past the second title; the greedy player reaches the
    # middle titles (Head keeper to Reserve director) in most games.
    assert statistics.median(random_) < bands[2]
    assert bands[3] <= statistics.median(greedy) < bands[6]
    assert min(greedy) > max(random_) / 2
