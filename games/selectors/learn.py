"""The read side of what a game offers newcomers: its rules as HTML, its example pictures and
its tutorial, all from the game package (``GameSpec.rules`` and ``GameSpec.learning``).

Nothing here touches a match or a player: the answers depend only on the code, so they are
computed once per process."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from rest_framework.exceptions import NotFound

from games.kit.learn import example_view, tutorial_script
from games.kit.registry import GameSpec, games
from games.selectors import shapes

# The rules' own section for client authors (and everything after it) is folded away on the
# rules page; everything before it is for players.
TECHNICAL_HEADING = "## For client authors"
PICTURE_SRC = re.compile(r'src="pictures/([a-z0-9_]+)\.svg"')


def _spec(slug: str) -> GameSpec:
    spec = games().get(slug)
    if spec is None:
        raise NotFound(f"No game called {slug!r}.")
    return spec


def _markdown() -> MarkdownIt:
    # CommonMark with tables; raw HTML in the Markdown is shown as text, never passed through.
    md = MarkdownIt("commonmark", {"html": False}).enable("table")

    def heading_open(renderer: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
        # An id per heading (from its text), so a section can be linked to.
        inline = tokens[idx + 1]
        slug = re.sub(r"[^a-z0-9]+", "-", inline.content.lower()).strip("-")
        tokens[idx].attrSet("id", f"{env.get('prefix', '')}{slug}")
        return str(renderer.renderToken(tokens, idx, options, env))

    md.add_render_rule("heading_open", heading_open)
    return md


def _to_html(md: MarkdownIt, text: str, slug: str) -> str:
    html = md.render(text, {"prefix": f"{slug}-"})
    return PICTURE_SRC.sub(lambda m: f'src="/api/games/{slug}/pictures/{m.group(1)}.svg"', html)


@lru_cache(maxsize=16)
def game_rules(slug: str) -> shapes.GameRules:
    """The game's RULES.md as HTML: the part for players and, apart, the part for client
    authors; its title line is left out (the page has its own)."""
    spec = _spec(slug)
    if spec.rules is None:
        raise NotFound(f"{spec.name} has no written rules.")
    text = spec.rules.read_text(encoding="utf-8")
    lines = text.splitlines()
    title = lines[0].lstrip("# ").strip() if lines and lines[0].startswith("# ") else spec.name
    body = "\n".join(lines[1:]) if lines and lines[0].startswith("# ") else text
    players, _, technical = body.partition(TECHNICAL_HEADING)
    md = _markdown()
    return {
        "game": slug,
        "name": spec.name,
        "title": title,
        "html": _to_html(md, players, slug),
        "technical_html": _to_html(md, TECHNICAL_HEADING + technical, slug) if technical else "",
        "pictures": [{"name": example.name, "caption": example.caption,
                      "url": f"/api/games/{slug}/pictures/{example.name}.svg"}
                     for example in spec.learning.examples],
    }


@lru_cache(maxsize=32)
def game_picture(slug: str, name: str) -> str:
    """One example position of the game, drawn by the game's own renderer (SVG)."""
    spec = _spec(slug)
    for example in spec.learning.examples:
        if example.name == name:
            return spec.render(example_view(spec.engine, spec.learning, example), None)
    raise NotFound(f"{spec.name} has no picture called {name!r}.")


@lru_cache(maxsize=16)
def game_tutorial(slug: str) -> shapes.GameTutorial:
    """The game's tutorial, played through by its engine (``games.kit.learn.tutorial_script``)."""
    spec = _spec(slug)
    tutorial = spec.learning.tutorial
    if tutorial is None:
        raise NotFound(f"{spec.name} has no tutorial.")
    script = tutorial_script(spec.engine, tutorial)
    return {"game": slug, "name": spec.name, **script}  # type: ignore[typeddict-item]
