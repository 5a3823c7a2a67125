"""The game registry: each game is one :class:`GameSpec` naming all of its parts.

The server, the bots, the pictures, the benchmarks and the translated texts find a game only
here, by its slug. The built-in games are registered by :mod:`games.catalog`; a new game is one
package and one ``register`` call.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from games.kit.bots import Policy, uses_history
from games.kit.jsontypes import GameTypes
from games.kit.learn import Learning
from games.kit.protocol import JSON, AnyEngine, Seat
from games.kit.texts import Texts

# render(view, names) -> an SVG document of one viewer's view (see games.kit.render).
Renderer = Callable[[Mapping[str, Any], Sequence[str | None] | None], str]
# bench() -> rows of (metric, value, unit), measured on one core.
BenchRow = tuple[str, float, str]
Bench = Callable[[], list[BenchRow]]


@dataclass(frozen=True)
class GameSpec:
    """Everything the platform knows of one game: its rules engine, its bot policies by level,
    its renderer, its benchmark and the types of its JSON (``games.kit.jsontypes``; a game
    without them is served untyped: its fields are free-form objects in the API schema).

    For newcomers: ``rules`` is the path of its rules (Markdown, served on its rules page) and
    ``learning`` its presets, options in players' words, example pictures and tutorial
    (``games.kit.learn``); ``texts`` its name, rule texts, fixed engine messages and bot
    strength lines as players read them (``games.kit.texts``)."""

    engine: AnyEngine
    policies: Mapping[int, Policy]
    render: Renderer
    bench: Bench | None = None
    types: GameTypes | None = None
    rules: Path | None = None
    learning: Learning = field(default_factory=Learning)
    texts: Texts = field(default_factory=Texts)
    levels: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "levels", tuple(sorted(self.policies)))

    @property
    def slug(self) -> str:
        return self.engine.slug

    @property
    def name(self) -> str:
        return self.engine.name

    def needs_history(self, level: int) -> bool:
        """Whether the level's policy remembers the events its seat was shown."""
        return uses_history(self.policies[level])

    def choose_move(self, level: int, view: JSON, seat: Seat, rng: random.Random,
                    history: Sequence[JSON] = ()) -> JSON:
        """The bot's move; ``history`` (the events its seat was shown) reaches only policies
        that declare they use it."""
        policy = self.policies[level]
        if uses_history(policy):
            return policy(view, seat, rng, history=history)
        return policy(view, seat, rng)


_GAMES: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    """Add a game. Registering the same spec twice is harmless; another spec under a slug that
    is taken is a mistake and raises ``ValueError``."""
    current = _GAMES.get(spec.slug)
    if current is not None and current is not spec:
        raise ValueError(f"A game called {spec.slug!r} is already registered.")
    _GAMES[spec.slug] = spec
    return spec


def unregister(slug: str) -> None:
    """Remove a game (for tests that register a game of their own)."""
    _GAMES.pop(slug, None)


def games() -> Mapping[str, GameSpec]:
    """Every registered game by slug (a read-only view that follows later registrations)."""
    return _VIEW


def game(slug: str) -> GameSpec:
    """The spec of a registered game; an unknown slug is a bug in the caller: ``KeyError``."""
    return _GAMES[slug]


def get_engine(slug: str) -> AnyEngine:
    return _GAMES[slug].engine


def engines() -> dict[str, AnyEngine]:
    """Every registered engine by slug, sorted by slug."""
    return {slug: _GAMES[slug].engine for slug in sorted(_GAMES)}


_VIEW: Mapping[str, GameSpec] = MappingProxyType(_GAMES)
