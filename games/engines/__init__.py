"""The registry of rules engines: one entry per game, nothing else registers itself."""

from __future__ import annotations

from games.engines.base import Engine
from games.engines.nibble import NIBBLE
from games.engines.nimalia import NIMALIA
from games.engines.nimble import NIMBLE

ENGINES: dict[str, Engine] = {
    engine.slug: engine
    for engine in (
        NIBBLE,
        NIMBLE,
        NIMALIA,
    )
}


def get_engine(slug: str) -> Engine:
    """The engine for a game slug; a missing slug is a bug in the caller, not a 404."""
    return ENGINES[slug]
