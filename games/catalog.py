"""The games this server plays: one registration line per game.

Importing this module registers the built-in games; everything else reaches them through
``games.kit.registry``.
"""

from games import nibble, nimalia, nimble
from games.kit.registry import engines, game, games, get_engine, register

register(nibble.SPEC)
register(nimble.SPEC)
register(nimalia.SPEC)

__all__ = ["engines", "game", "games", "get_engine", "register"]
