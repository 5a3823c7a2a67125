"""Nimalia: build a 6 x 6 animal reserve from drafted cards and score four objectives."""

from games.engines.nimalia.engine import NIMALIA, NimaliaEngine, Place, State, Undo

__all__ = ["NIMALIA", "NimaliaEngine", "Place", "State", "Undo"]
