"""The web client's pages as Django serves them (no browser needed): every client route gets
the one page, other paths stay JSON 404s, and the import map follows hashed static names."""

from __future__ import annotations

import json
import re

import pytest

from games.web import views as web

CLIENT_DIR = web.CLIENT_DIR
ROUTES = ["/", "/signin", "/inbox", "/lobby", "/leaderboards", "/leaderboards/nimble",
          "/player/some.one_2", "/match/0b7c5c3e-1111-2222-3333-444455556666"]


@pytest.mark.parametrize("path", ROUTES)
def test_every_client_route_serves_the_page(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    assert '<script type="module" src="/static/boardpost/app.js">' in body
    assert '<script type="importmap">' in body


@pytest.mark.parametrize("path", ["/nope", "/match/not-a-uuid", "/player/a/b", "/static-x"])
def test_other_paths_stay_json_404s(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_the_api_keeps_its_urls(client):
    response = client.get("/api/games")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_the_page_only_answers_reads(client):
    assert client.post("/lobby").status_code == 405
    assert client.head("/").status_code == 200


def test_the_client_files_are_served(client):
    for name in ("app.js", "style.css", "games/nimalia.js", "pages/match.js"):
        response = client.get(f"/static/boardpost/{name}")
        assert response.status_code == 200, name


def test_every_relative_import_names_a_module_that_exists():
    pattern = re.compile(r'^import\s.*?from\s+"(\.{1,2}/[^"]+)";', re.MULTILINE | re.DOTALL)
    modules = sorted(CLIENT_DIR.rglob("*.js"))
    assert len(modules) >= 10
    for module in modules:
        for target in pattern.findall(module.read_text()):
            assert (module.parent / target).resolve().is_file(), f"{module.name}: {target}"


def test_the_import_map_points_plain_module_urls_at_hashed_ones(monkeypatch):
    monkeypatch.setattr(web, "static", lambda name: "/static/" + name.replace(".js", ".abc123.js"))
    imports = json.loads(web._import_map())["imports"]
    assert imports["/static/boardpost/app.js"] == "/static/boardpost/app.abc123.js"
    assert imports["/static/boardpost/games/nibble.js"] == (
        "/static/boardpost/games/nibble.abc123.js")
    assert len(imports) == len(list(CLIENT_DIR.rglob("*.js")))


def test_the_import_map_is_empty_without_hashing_and_safe_inline(monkeypatch):
    assert json.loads(web._import_map()) == {"imports": {}}
    monkeypatch.setattr(web, "static", lambda name: "/static/</script><b>" + name)
    text = web._import_map()
    assert "<" not in text and ">" not in text
    assert "/static/</script><b>boardpost/app.js" in json.loads(text)["imports"].values()
