"""Nimble: a card race for 2-4 players, in real time or in turns (see RULES.md)."""

from games.kit.registry import GameSpec
from games.nimble import bench
from games.nimble.bots import NIMBLE_POLICIES
from games.nimble.engine import NIMBLE
from games.nimble.render import render
from games.nimble.types import TYPES

SPEC = GameSpec(engine=NIMBLE, policies=NIMBLE_POLICIES, render=render, bench=bench.run,
                types=TYPES)
