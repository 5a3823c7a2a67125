"""The web app manifest (``/manifest.webmanifest``): what a phone or a desktop browser needs to
install the client as an app: its names, icons (``games.web.icons``; "any" and "maskable"), the
start URL, the standalone display, the palette's colours and two shortcuts, in the request's
language."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.templatetags.static import static
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_safe

from games.web.icons import icon_files

# The header's dark blue (style.css .top) and the page's grey (--page).
THEME_COLOUR = "#18202f"
BACKGROUND_COLOUR = "#f4f5f8"
MEDIA_TYPE = "application/manifest+json"


def manifest() -> dict:
    """The manifest in the active language."""
    icons = [{"src": static(f"boardpost/icons/{name}"), "sizes": f"{size}x{size}",
              "type": "image/png", "purpose": purpose}
             for name, (size, purpose) in icon_files().items()]
    return {
        "id": "/",
        "name": "Boardpost",
        "short_name": "Boardpost",
        "description": gettext("Correspondence board games: Nibble, Nimble and Nimalia, "
                               "against people and bots."),
        "lang": get_language() or "en",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "categories": ["games"],
        "icons": icons,
        "shortcuts": [
            {"name": gettext("My turn"), "short_name": gettext("My turn"),
             "description": gettext("The matches waiting for your move"),
             "url": "/inbox?show=my_turn", "icons": icons[:1]},
            {"name": gettext("Play a bot"), "short_name": gettext("Play a bot"),
             "description": gettext("A new match against a level-1 bot"),
             "url": "/?play=bot", "icons": icons[:1]},
        ],
    }


@require_safe
def manifest_view(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(json.dumps(manifest(), ensure_ascii=False),
                            content_type=f"{MEDIA_TYPE}; charset=utf-8")
    # It names the icons' hashed URLs: revalidate it like the page.
    response["Cache-Control"] = "no-cache"
    response["X-Content-Type-Options"] = "nosniff"
    return response
