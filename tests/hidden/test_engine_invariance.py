"""Information-set invariance, through the engine functions, for every registered game.

At random reachable positions, for every seat and a spectator, a hidden variant (a state that
differs only in what that viewer may not know, consistent with what it was shown) must give
byte-identical answers: the view and its legal moves, who may and must act, the outcome, the
dry run of every legal move, the coded errors of moves from elsewhere in the match, and the
picture.
"""

from __future__ import annotations

import json

import pytest

from games.kit.protocol import preview
from games.kit.registry import GameSpec
from tests.hidden.positions import answers, configs, positions, variants

SEEDS = ("hidden-a", "hidden-b")
POSITIONS = 4


def _cases(spec: GameSpec):
    engine = spec.engine
    for players in range(engine.min_players, engine.max_players + 1):
        for config in configs(engine):
            seeds = SEEDS if not config else SEEDS[:1]
            for seed in seeds:
                yield players, config, seed


def test_every_answer_is_the_same_in_every_hidden_variant(spec: GameSpec) -> None:
    engine = spec.engine
    checked = 0
    for players, config, seed in _cases(spec):
        label = f"{spec.slug}-{players}-{json.dumps(config)}-{seed}"
        for n, position in enumerate(positions(engine, players=players, config=config,
                                               seed=seed, count=POSITIONS)):
            for seat in (None, *range(players)):
                # The picture costs most: draw it at one position in two.
                picture = n % 2 == 0
                expected = answers(spec, position.state, seat, position.odd_moves,
                                   picture=picture)
                for variant in variants(spec, position, seat, 2, f"{label}-{n}"):
                    got = answers(spec, variant, seat, position.odd_moves, picture=picture)
                    assert got == expected, (label, n, seat)
                    checked += 1
    assert checked > 20


def test_a_running_match_always_has_another_seed(spec: GameSpec) -> None:
    """Every game hides at least its seed while the match runs, and shows it once it is over."""
    engine = spec.engine
    players = engine.min_players
    for position in positions(engine, players=players, config={}, seed="seeds", count=3):
        for seat in (None, *range(players)):
            (variant,) = variants(spec, position, seat, 1, "seeds")
            if engine.outcome(position.state) is None:
                assert engine.dump(variant)["seed"] != engine.dump(position.state)["seed"]
            else:
                assert variant == position.state


@pytest.mark.parametrize("slug", ["nimble", "nimalia"])
def test_declared_reveals_are_needed_and_the_variants_hide_more_than_the_seed(
        slug: str) -> None:
    """Guards against a vacuous property: in the games with hidden cards, the variants move
    cards around, and the transitions of the moves declared as revealing really differ between
    variants (the dry run before the declaration showed them: the card a flip turns up, the
    placements and hands revealed by the last placement)."""
    from games.catalog import games

    spec = games()[slug]
    engine = spec.engine
    moved = leaks = 0
    for players in range(max(2, engine.min_players), engine.max_players + 1):
        for position in positions(engine, players=players, config={}, seed=f"sharp-{players}",
                                  count=8):
            if engine.outcome(position.state) is not None:
                continue
            for seat in range(players):
                (variant,) = variants(spec, position, seat, 1, f"sharp-{players}")
                plain = {k: v for k, v in engine.dump(position.state).items() if k != "seed"}
                other = {k: v for k, v in engine.dump(variant).items() if k != "seed"}
                moved += plain != other
                for move in engine.legal_moves(position.state, seat):
                    if not engine.move_reveals(position.state, seat, move):
                        continue
                    data = engine.dump_move(move)
                    assert preview(engine, position.state, seat, data) == {
                        "legal": True, "reveals_hidden": True, "events": [], "view": None}
                    raw = [engine.apply(s, seat, move) for s in (position.state, variant)]
                    seen = [(json.dumps([e for e in t.events
                                         if e.get("private_to", seat) == seat]),
                             json.dumps(engine.view(t.state, seat))) for t in raw]
                    leaks += seen[0] != seen[1]
                    break
    assert moved > 5 and leaks > 0, (moved, leaks)
