"""The web client's pages as Django serves them (no browser needed): every client route gets
the one page, other paths stay JSON 404s, and the import map follows hashed static names."""

from __future__ import annotations

import json
import re

import pytest

from games.catalog import engines
from games.web import views as web

CLIENT_DIR = web.CLIENT_DIR
ROUTES = ["/", "/signin", "/inbox", "/lobby", "/leaderboards", "/leaderboards/nimble",
          "/player/some.one_2", "/match/0b7c5c3e-1111-2222-3333-444455556666", "/account",
          "/password/forgot", "/password/reset"]


@pytest.mark.parametrize("path", ROUTES)
def test_every_client_route_serves_the_page(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    # The plain name until collectstatic has run in this process, the hashed one after.
    assert re.search(r'<script type="module" src="/static/boardpost/app(\.[0-9a-f]{12})?\.js">',
                     body)
    # The import map is the page's one inline script, allowed by the policy's nonce.
    nonce = response["Content-Security-Policy"].split("'nonce-")[1].split("'")[0]
    assert f'<script type="importmap" nonce="{nonce}">' in body


@pytest.mark.parametrize("path", ["/nope", "/match/not-a-uuid", "/player/a/b", "/static-x"])
def test_other_paths_stay_json_404s(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_the_api_keeps_its_urls(client):
    response = client.get("/api/me")
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
    monkeypatch.setattr(web, "static", lambda name: "/static/" + name)
    assert json.loads(web._import_map()) == {"imports": {}}
    monkeypatch.setattr(web, "static", lambda name: "/static/</script><b>" + name)
    text = web._import_map()
    assert "<" not in text and ">" not in text
    assert "/static/</script><b>boardpost/app.js" in json.loads(text)["imports"].values()


def test_the_import_map_lists_every_game_module(monkeypatch):
    # The client imports a game's module by its slug ("./games/<slug>.js"): the map must name
    # each one, whatever its file, with nothing else to edit.
    monkeypatch.setattr(web, "static", lambda name: "/static/" + name.replace(".js", ".abc123.js"))
    imports = json.loads(web._import_map())["imports"]
    game_modules = sorted((CLIENT_DIR / "games").glob("*.js"))
    assert game_modules
    for module in game_modules:
        assert imports[f"/static/boardpost/games/{module.name}"] == (
            f"/static/boardpost/games/{module.stem}.abc123.js")


def test_the_import_map_picks_up_a_new_game_module(monkeypatch, tmp_path):
    (tmp_path / "games").mkdir()
    for name in ("app.js", "catalog.js", "games/nibble.js", "games/newgame.js"):
        (tmp_path / name).write_text("export {};\n")
    monkeypatch.setattr(web, "CLIENT_DIR", tmp_path)
    monkeypatch.setattr(web, "static", lambda name: "/static/" + name.replace(".js", ".h.js"))
    imports = json.loads(web._import_map())["imports"]
    assert imports["/static/boardpost/games/newgame.js"] == "/static/boardpost/games/newgame.h.js"


def test_only_a_game_own_module_names_the_game():
    # Adding a game needs its module only: no other module imports, branches on or lists games.
    slugs = sorted(engines())
    pattern = re.compile(r"\b(" + "|".join(slugs) + r")\b", re.IGNORECASE)
    for module in sorted(CLIENT_DIR.rglob("*.js")):
        if module.parent == CLIENT_DIR / "games":
            continue
        found = pattern.findall(module.read_text())
        assert not found, f"{module.relative_to(CLIENT_DIR)} names {sorted(set(found))}"
    template = CLIENT_DIR.parents[1] / "templates" / "boardpost" / "index.html"
    assert not pattern.findall(template.read_text())


def test_the_client_loads_a_game_module_by_its_slug():
    catalog = (CLIENT_DIR / "catalog.js").read_text()
    assert "import(`./games/${slug}.js`)" in catalog
    static_imports = re.compile(r'^import\s.*?from\s+"[./]*games/', re.MULTILINE | re.DOTALL)
    for module in sorted(CLIENT_DIR.rglob("*.js")):
        assert not static_imports.search(module.read_text()), module.name


def test_the_page_lists_every_games_stylesheet_a_new_one_too(monkeypatch, tmp_path):
    monkeypatch.setattr(web, "static", lambda name: "/static/" + name)
    styles = json.loads(web._game_styles())
    assert styles == {slug: f"/static/boardpost/games/{slug}.css"
                      for slug in ("nibble", "nimalia", "nimble")}
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "fourth.css").write_text(".fourth { color: red; }\n")
    monkeypatch.setattr(web, "CLIENT_DIR", tmp_path)
    assert json.loads(web._game_styles()) == {"fourth": "/static/boardpost/games/fourth.css"}
