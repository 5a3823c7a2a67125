"""Level 4 in every game: a legal move, reproducible from the view, the history and the seeded
generator, and a function of what its seat may know only: the same move when the cards its seat
cannot see are dealt otherwise (hidden cards are sampled from what its seat has not seen, never
read). Strength is measured by ``bot_arena`` (docs/bots.md), not here."""

from __future__ import annotations

import dataclasses
import functools
import random
from typing import Any

import pytest

from games.catalog import game, games
from games.kit.bots import DEEP_LEVELS
from games.kit.protocol import apply_checked
from games.nimalia.bots.deep import LEVEL4, deep_move
from games.nimble.bots import LEVEL4_BUDGET, make_memory_policy
from tests.hidden.positions import positions, variants

# Level 4 without its wall-clock safety net (which a loaded machine can reach): the moves
# then depend on the fixed work budget only.
UNCAPPED: dict[str, Any] = {
    "nimble": make_memory_policy(dataclasses.replace(LEVEL4_BUDGET, max_seconds=600.0)),
    "nimalia": functools.partial(deep_move, config=dataclasses.replace(LEVEL4, seconds=600.0)),
}

# Every game the server ships (the registry's, at collection).
GAMES = sorted(games())
# Options a game's positions are played with here, where its defaults will not do: Nimble's
# default is a real-time race.
CONFIGS: dict[str, dict[str, Any]] = {"nimble": {"mode": "turns"}}


def _midgame(slug: str, seed: str, count: int = 2):
    spec = game(slug)
    found = []
    for k in range(20):
        found.extend(p for p in positions(spec.engine, players=2, config=CONFIGS.get(slug, {}),
                                          seed=f"{seed}-{k}", count=6)
                     if spec.engine.outcome(p.state) is None and spec.engine.must_act(p.state))
        if len(found) >= count:
            break
    return found[:count]


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_has_a_level_4_that_thinks_on_the_deep_queue(slug):
    assert 4 in game(slug).levels
    assert 4 in DEEP_LEVELS


@pytest.mark.parametrize("slug", GAMES)
def test_level_4_plays_a_legal_reproducible_move(slug):
    spec = game(slug)
    engine = spec.engine
    for position in _midgame(slug, f"level4-legal-{slug}", 1):
        seat = sorted(engine.must_act(position.state))[0]
        view = engine.view(position.state, seat)
        history = position.history(seat)
        move = spec.choose_move(4, view, seat, random.Random("l4"), history=history)
        again = spec.choose_move(4, view, seat, random.Random("l4"), history=history)
        assert move == again
        apply_checked(engine, position.state, seat, engine.parse_move(move))


@pytest.mark.parametrize("slug", ["nimble", "nimalia"])
def test_level_4_does_not_depend_on_the_hidden_cards(slug):
    """Two states that differ only in what the bot's seat cannot see (other hands, the order of
    unseen cards, the seed) give the same level-4 move."""
    spec = game(slug)
    engine = spec.engine
    checked = 0
    for position in _midgame(slug, f"level4-hidden-{slug}", 2):
        seat = sorted(engine.must_act(position.state))[0]
        history = position.history(seat)
        for variant in variants(spec, position, seat, 2, f"level4-{slug}"):
            assert engine.view(variant, seat) == engine.view(position.state, seat)
            policy = UNCAPPED[slug]
            moves = [policy(engine.view(s, seat), seat, random.Random("same"),
                            history=history) for s in (position.state, variant)]
            assert moves[0] == moves[1]
            checked += 1
    assert checked >= 2
