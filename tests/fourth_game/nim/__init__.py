"""Nim: players take objects from heaps in turn; whoever takes the last object wins.

A complete game for the platform in one package: the rules engine, a level-1 bot, a renderer
and the texts players read, gathered into one :class:`GameSpec`. The package is pure Python,
like the built-in games; registering ``SPEC`` is all the server needs to offer it.
"""

from games.kit.registry import GameSpec
from tests.fourth_game.nim.bots import NIM_POLICIES
from tests.fourth_game.nim.engine import NIM
from tests.fourth_game.nim.render import render
from tests.fourth_game.nim.texts import TEXTS

SPEC = GameSpec(engine=NIM, policies=NIM_POLICIES, render=render, texts=TEXTS)
