"""Nibble: two players take discs of one colour at a time from a 9x9 board (see RULES.md)."""

from pathlib import Path

from games.kit.registry import GameSpec
from games.nibble import bench
from games.nibble.bots import NIBBLE_POLICIES
from games.nibble.engine import NIBBLE
from games.nibble.learn import LEARNING
from games.nibble.render import render
from games.nibble.texts import TEXTS
from games.nibble.types import TYPES

SPEC = GameSpec(engine=NIBBLE, policies=NIBBLE_POLICIES, render=render, bench=bench.run,
                types=TYPES, rules=Path(__file__).with_name("RULES.md"), learning=LEARNING,
                texts=TEXTS)
