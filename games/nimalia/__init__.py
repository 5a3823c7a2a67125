"""Nimalia: build a 6 x 6 animal reserve from drafted cards and score four objectives (see
RULES.md)."""

from pathlib import Path

from games.kit.registry import GameSpec
from games.nimalia import bench
from games.nimalia.bots import NIMALIA_POLICIES
from games.nimalia.engine import NIMALIA
from games.nimalia.learn import LEARNING
from games.nimalia.render import render
from games.nimalia.texts import TEXTS
from games.nimalia.types import TYPES

SPEC = GameSpec(engine=NIMALIA, policies=NIMALIA_POLICIES, render=render, bench=bench.run,
                types=TYPES, rules=Path(__file__).with_name("RULES.md"), learning=LEARNING,
                texts=TEXTS)
