"""The read side of what a game offers newcomers: its rules as HTML, its example pictures and
its tutorial, all from the game package (``GameSpec.rules`` and ``GameSpec.learning``).

Nothing here touches a match or a player: the answers depend only on the code and the active
language, so they are computed once per process and language.

The rules are in the active language when the game has them in it: ``RULES.<language>.md``
next to ``RULES.md`` (Django's language code, for example ``RULES.fr.md``, ``RULES.pt-br.md``,
``RULES.ko.md``), with English (``RULES.md``) as the fallback. A translation may stop before
the part for client authors; that part is then the English one. The other texts (captions,
tutorial steps) come from the message catalogues."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.utils.translation import get_language, gettext
from markdown_it import MarkdownIt
from rest_framework.exceptions import NotFound

from games.kit.learn import example_view, tutorial_script
from games.kit.registry import GameSpec, games
from games.rules_text import game_name
from games.selectors import shapes

# The rules' own section for client authors (and everything after it) is folded away on the
# rules page; everything before it is for players.
TECHNICAL_HEADING = "## For client authors"
PICTURE_SRC = re.compile(r'src="pictures/([a-z0-9_]+)\.svg"')


def _spec(slug: str) -> GameSpec:
    spec = games().get(slug)
    if spec is None:
        raise NotFound(gettext("No game called %(slug)r.") % {"slug": slug})
    return spec


def _markdown() -> MarkdownIt:
    # CommonMark with tables; raw HTML in the Markdown is shown as text, never passed through.
    md = MarkdownIt("commonmark", {"html": False}).enable("table")

    def heading_open(renderer: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
        # An id per heading (from its text), so a section can be linked to.
        # Letters of any script count (a Korean heading keeps its words), so English ids are
        # the same as ASCII-only ones.
        inline = tokens[idx + 1]
        slug = re.sub(r"[\W_]+", "-", inline.content.lower()).strip("-")
        tokens[idx].attrSet("id", f"{env.get('prefix', '')}{slug}")
        return str(renderer.renderToken(tokens, idx, options, env))

    md.add_render_rule("heading_open", heading_open)
    return md


def _to_html(md: MarkdownIt, text: str, slug: str) -> str:
    html = md.render(text, {"prefix": f"{slug}-"})
    return PICTURE_SRC.sub(lambda m: f'src="/api/games/{slug}/pictures/{m.group(1)}.svg"', html)


def rules_path(english: Path, language: str | None) -> Path:
    """The rules in ``language`` (``RULES.<language>.md``, else ``RULES.<base language>.md``
    for a regional variant such as ``pt-br``), else the English ``english``."""
    if language:
        language = language.lower()
        for code in dict.fromkeys((language, language.partition("-")[0])):
            translated = english.with_name(f"{english.stem}.{code}{english.suffix}")
            if code != "en" and translated.is_file():
                return translated
    return english


def _split(text: str, name: str) -> tuple[str, str, str]:
    """(title, players' part, technical part with its heading, or "") of a rules file."""
    lines = text.splitlines()
    titled = bool(lines) and lines[0].startswith("# ")
    title = lines[0].lstrip("# ").strip() if titled else name
    body = "\n".join(lines[1:]) if titled else text
    players, found, technical = body.partition(TECHNICAL_HEADING)
    return title, players, (found + technical) if found else ""


def game_rules(slug: str) -> shapes.GameRules:
    """The game's rules as HTML in the active language (``_game_rules``)."""
    return _game_rules(slug, get_language() or "en")


@lru_cache(maxsize=64)
def _game_rules(slug: str, language: str) -> shapes.GameRules:
    """The game's rules as HTML: the part for players and, apart, the part for client
    authors, from the rules in ``language`` (English for what they leave out); the title line
    is left out (the page has its own)."""
    spec = _spec(slug)
    if spec.rules is None:
        raise NotFound(gettext("%(game)s has no written rules.")
                       % {"game": game_name(slug, spec.name)})
    title, players, technical = _split(
        rules_path(spec.rules, language).read_text(encoding="utf-8"), spec.name)
    if not technical:
        technical = _split(spec.rules.read_text(encoding="utf-8"), spec.name)[2]
    md = _markdown()
    return {
        "game": slug,
        "name": game_name(slug, spec.name),
        "title": title,
        "html": _to_html(md, players, slug),
        "technical_html": _to_html(md, technical, slug) if technical else "",
        "pictures": [{"name": example.name, "caption": gettext(example.caption),
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
    raise NotFound(gettext("%(game)s has no picture called %(name)r.")
                   % {"game": game_name(slug, spec.name), "name": name})


def game_tutorial(slug: str) -> shapes.GameTutorial:
    """The game's tutorial in the active language (``_game_tutorial``)."""
    return _game_tutorial(slug, get_language() or "en")


@lru_cache(maxsize=64)
def _game_tutorial(slug: str, language: str) -> shapes.GameTutorial:
    """The game's tutorial, played through by its engine (``games.kit.learn.tutorial_script``),
    its words in ``language`` (the active one, which ``gettext`` follows)."""
    spec = _spec(slug)
    tutorial = spec.learning.tutorial
    if tutorial is None:
        raise NotFound(gettext("%(game)s has no tutorial.")
                       % {"game": game_name(slug, spec.name)})
    script = tutorial_script(spec.engine, tutorial, gettext)
    name = game_name(slug, spec.name)
    return {"game": slug, "name": name, **script}  # type: ignore[typeddict-item]
