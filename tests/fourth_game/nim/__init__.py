"""Nim: players take objects from heaps in turn; whoever takes the last object wins.

A complete game for the platform in one package: the rules engine, a level-1 bot and a
renderer, gathered into one :class:`GameSpec`. The package is pure Python, like the built-in
games; registering ``SPEC`` is all the server needs to offer it.
"""

from games.kit.registry import GameSpec
from tests.fourth_game.nim.bots import NIM_POLICIES
from tests.fourth_game.nim.engine import NIM
from tests.fourth_game.nim.render import render

SPEC = GameSpec(engine=NIM, policies=NIM_POLICIES, render=render)
