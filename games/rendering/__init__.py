"""Server-rendered pictures of a match: ``render_svg(game, view)`` draws one seat's view.

A renderer gets the engine's ``view`` for one viewer (and optionally the seats' player names,
which the match summary shows anyway) and nothing else: never the stored state. Whatever the
view hides (another seat's Nimalia hand, the order of a Nimble Set, the seed while the match
runs) therefore cannot reach the picture. Every colour is also told by a letter (and Nimalia's
terrains by a pattern), for colour-blind players.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.rendering import nibble, nimalia, nimble

Renderer = Callable[..., str]

RENDERERS: dict[str, Renderer] = {
    "nibble": nibble.render,
    "nimble": nimble.render,
    "nimalia": nimalia.render,
}

MEDIA_TYPE = "image/svg+xml"
# Bump when the pictures change, so clients holding an old picture's ETag get the new one.
REVISION = 1


def render_svg(game: str, view: Mapping[str, Any],
               names: Sequence[str | None] | None = None) -> str:
    """The SVG document for ``view`` of a ``game`` match; ``names[seat]`` labels the seats.

    An unknown game is a bug in the caller (every engine has a renderer): ``KeyError``."""
    return RENDERERS[game](view, names)
