"""The registry of rules engines: one entry per game, nothing else registers itself."""

from __future__ import annotations

from games.engines.base import Engine

ENGINES: dict[str, Engine] = {
    engine.slug: engine
    for engine in (
    )
}


def get_engine(slug: str) -> Engine:
    """The engine for a game slug; a missing slug is a bug in the caller, not a 404."""
    return ENGINES[slug]
