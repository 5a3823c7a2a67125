"""The reference web client: one HTML page for every client route.

The page is static HTML, CSS and plain ES modules (no build step) served by WhiteNoise; the
modules talk only to the public token-authenticated JSON API, like any mobile client. This
view only hands out the page, with an import map that points every module at its (hashed, in
production) static URL, so relative imports between modules stay cache-safe after a deploy.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe

CLIENT_DIR = Path(__file__).resolve().parent / "static" / "boardpost"

# The client's own routes (the page's router handles them); anything else stays a 404.
CLIENT_ROUTES = (
    r"^(?:signin|lobby|inbox|notifications|friends|blocks|account|password/(?:forgot|reset)"
    r"|leaderboards(?:/[a-z]+)?|player/[A-Za-z0-9_.-]{1,150}|match/[0-9a-fA-F-]{36}"
    r"|rules(?:/[a-z][a-z0-9_]*)?|tutorial/[a-z][a-z0-9_]*"
    r"|tournaments(?:/new)?|tournament/[0-9a-fA-F-]{36})/?$"
)


def _modules() -> list[str]:
    return sorted(path.relative_to(CLIENT_DIR).as_posix() for path in CLIENT_DIR.rglob("*.js"))


def _import_map() -> str:
    """``{"imports": {plain URL: served URL}}`` for every module of the client, as safe JSON
    for an inline ``<script type="importmap">``."""
    base = f"{settings.STATIC_URL}boardpost/"
    imports = {}
    for name in _modules():
        served = static(f"boardpost/{name}")
        if served != base + name:  # only where the storage renames (hashes) the file
            imports[base + name] = served
    text = json.dumps({"imports": imports}, indent=1, sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@lru_cache(maxsize=1)
def _cached_import_map() -> str:
    return _import_map()


def _preloads() -> list[str]:
    """The served URL of every module, for ``<link rel="modulepreload">``: the browser fetches
    them all at once instead of discovering them import by import (about 20 files, each cached
    for a year under its hashed name, so a returning visitor fetches none)."""
    return [static(f"boardpost/{name}") for name in _modules()]


@lru_cache(maxsize=1)
def _cached_preloads() -> tuple[str, ...]:
    return tuple(_preloads())


def _game_styles() -> str:
    """``{slug: served URL}`` of every game's stylesheet (``games/<slug>.css``), as JSON: the
    client adds a game's stylesheet when it loads the game's module; a game without one has
    none to add."""
    styles = {path.stem: static(f"boardpost/games/{path.name}")
              for path in sorted((CLIENT_DIR / "games").glob("*.css"))}
    return json.dumps(styles, sort_keys=True)


@lru_cache(maxsize=1)
def _cached_game_styles() -> str:
    return _game_styles()


@require_safe
def index(request, **_ignored):
    """The client's single page, for ``/`` and every client route."""
    import_map = _import_map() if settings.DEBUG else _cached_import_map()
    preloads = _preloads() if settings.DEBUG else _cached_preloads()
    game_styles = _game_styles() if settings.DEBUG else _cached_game_styles()
    # The page is in the language LocaleMiddleware chose (the language cookie, then
    # Accept-Language); its modules fetch that language's texts from /jsi18n.json.
    response = render(request, "boardpost/index.html",
                      {"import_map": mark_safe(import_map), "preloads": preloads,
                       # Each language in its own name, untranslated (the menu's items).
                       "languages": settings.LANGUAGES,
                       "language_cookie": settings.LANGUAGE_COOKIE_NAME,
                       "game_styles": game_styles})
    # The page names the current module URLs: always revalidate it.
    response["Cache-Control"] = "no-cache"
    response["X-Content-Type-Options"] = "nosniff"
    response["Referrer-Policy"] = "same-origin"
    return response
