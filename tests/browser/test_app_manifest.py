"""The installable app as Django serves it (no browser needed): the manifest, its icons, the
page's link to it, and the service worker's script with the app shell's list."""

from __future__ import annotations

import re
import struct

import pytest
from django.contrib.staticfiles import finders

from games.web import icons, worker

pytestmark = pytest.mark.django_db

ROUTES = ["/", "/signin", "/inbox", "/lobby", "/leaderboards", "/rules/nibble",
          "/match/0b7c5c3e-1111-2222-3333-444455556666"]


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_is_served_with_its_media_type(client):
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("application/manifest+json")
    manifest = answer.json()
    assert manifest["name"] == manifest["short_name"] == "Boardpost"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    # The palette: the header's blue, the page's grey.
    assert manifest["theme_color"] == "#18202f"
    assert manifest["background_color"] == "#f4f5f8"
    assert [s["url"] for s in manifest["shortcuts"]] == ["/inbox?show=my_turn", "/?play=bot"]
    assert [s["name"] for s in manifest["shortcuts"]] == ["My turn", "Play a bot"]


def test_the_manifest_lists_icons_of_192_and_512_px_any_and_maskable(client):
    manifest = client.get("/manifest.webmanifest").json()
    listed = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert listed == {("192x192", "any"), ("512x512", "any"), ("192x192", "maskable"),
                      ("512x512", "maskable")}
    for icon in manifest["icons"]:
        name = icon["src"].removeprefix("/static/")
        path = finders.find(name)
        assert path, icon
        size = int(icon["sizes"].split("x")[0])
        assert _png_size(open(path, "rb").read()) == (size, size)


def test_the_committed_icons_are_what_the_generator_draws():
    for name, (size, purpose) in icons.icon_files().items():
        committed = (icons.ICONS_DIR / name).read_bytes()
        assert committed == icons.png(size, maskable=purpose == "maskable"), (
            f"{name} is out of date: python -m games.web.icons")


def test_the_manifest_speaks_the_requests_language(client):
    manifest = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="fr").json()
    assert manifest["lang"] == "fr"
    assert manifest["shortcuts"][0]["name"] == "À moi de jouer"


@pytest.mark.parametrize("path", ROUTES)
def test_every_page_links_the_manifest_and_a_theme_colour(client, path):
    body = client.get(path).content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in body
    assert '<meta name="theme-color" content="#18202f">' in body
    assert re.search(r'<link rel="apple-touch-icon" href="/static/boardpost/icons/', body)


def test_the_service_worker_carries_the_app_shell(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    body = answer.content.decode()
    first = body.splitlines()[0]
    assert first.startswith("self.BOARDPOST_SHELL = {")
    urls = worker.shell_urls()
    assert all(url in first for url in urls)
    assert any(url.endswith("app.js") or re.search(r"app\.[0-9a-f]{12}\.js$", url)
               for url in urls)
    assert any("/icons/" in url for url in urls)
    # Both parts: offline and push.
    assert "outbox-flush" in body and "showNotification" in body
