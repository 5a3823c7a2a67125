"""Nimble: a card race for 2-4 players, in real time or in turns (see RULES.md)."""

from pathlib import Path

from games.kit.registry import GameSpec
from games.nimble import bench
from games.nimble.bots import NIMBLE_POLICIES
from games.nimble.engine import NIMBLE
from games.nimble.learn import LEARNING
from games.nimble.render import render
from games.nimble.texts import TEXTS
from games.nimble.types import TYPES

SPEC = GameSpec(engine=NIMBLE, policies=NIMBLE_POLICIES, render=render, bench=bench.run,
                types=TYPES, rules=Path(__file__).with_name("RULES.md"), learning=LEARNING,
                texts=TEXTS)
