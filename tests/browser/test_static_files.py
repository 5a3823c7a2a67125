"""The client's static files: hashed names cached for a year, compressed, module imports
rewritten to the hashed names, and every module preloaded from the page."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from games.catalog import games

pytestmark = pytest.mark.django_db

HASHED = re.compile(r"/static/boardpost/[\w/-]+\.[0-9a-f]{12}\.(?:js|css|png)$")
# Formats compressed already, which WhiteNoise sends as they are.
COMPRESSED = (".png",)


def _assets(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', html)


def test_the_page_names_hashed_files_and_preloads_every_module(collected_static):
    html = Client().get("/lobby").content.decode()
    assets = _assets(html)
    assert assets and all(HASHED.search(url) for url in assets), assets
    preloads = re.findall(r'<link rel="modulepreload" href="([^"]+)"', html)
    manifest = json.loads((collected_static / "staticfiles.json").read_text())["paths"]
    modules = sorted(name for name in manifest
                     if name.startswith("boardpost/") and name.endswith(".js"))
    assert len(preloads) == len(modules) >= 15
    # The import map sends the plain name of each module (a dynamic import) to its hashed one.
    for name in ("app.js", "games/nibble.js", "pages/match.js"):
        assert re.search(rf'"/static/boardpost/{re.escape(name)}": "/static/boardpost/'
                         rf'{re.escape(name[:-3])}\.[0-9a-f]{{12}}\.js"', html), name


@pytest.mark.parametrize("encoding", ["gzip", "br"])
def test_every_asset_is_compressed_and_cached_for_a_year(collected_static, encoding):
    client = Client()
    html = client.get("/").content.decode()
    for url in _assets(html):
        response = client.get(url, HTTP_ACCEPT_ENCODING=encoding)
        assert response.status_code == 200, url
        if not url.endswith(COMPRESSED):
            assert response["Content-Encoding"] == encoding, url
        control = response["Cache-Control"]
        max_age = int(re.search(r"max-age=(\d+)", control).group(1))
        assert max_age >= 365 * 86400 and "immutable" in control, (url, control)


def test_module_imports_name_the_hashed_files(collected_static):
    client = Client()
    html = client.get("/").content.decode()
    app = next(url for url in _assets(html) if "/boardpost/app." in url)
    source = b"".join(client.get(app).streaming_content).decode()
    imports = re.findall(r'from\s*"([^"]+)"', source)
    assert len(imports) >= 5
    assert all(re.search(r"\.[0-9a-f]{12}\.js$", name) for name in imports), imports
    # A module an import names is served, hashed and cached like the page's own.
    target = "/static/boardpost/" + imports[0].removeprefix("./")
    response = client.get(target, HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200 and response["Content-Encoding"] == "gzip"
    assert "immutable" in response["Cache-Control"]


def test_every_collected_module_imports_files_that_exist(collected_static):
    root = collected_static / "boardpost"
    hashed = [p for p in root.rglob("*.js") if re.search(r"\.[0-9a-f]{12}\.js$", p.name)]
    assert len(hashed) >= 15
    for module in hashed:
        for target in re.findall(r'^(?:import|export)\s[^;]*?from\s*"([^"]+)";',
                                 module.read_text(), re.MULTILINE):
            assert re.search(r"[^.]\.[0-9a-f]{12}\.js$", target), (module.name, target)
            assert (module.parent / target).resolve().is_file(), (module.name, target)


def test_a_comment_does_not_hash_an_import_twice(tmp_path):
    from config.staticfiles import ClientStaticStorage

    source = tmp_path / "src"
    (source / "x").mkdir(parents=True)
    (source / "x" / "a.js").write_text("export const a = 1;\n")
    (source / "x" / "b.js").write_text(
        "// every export optional; the import map (by slug)\nimport { a } from \"./a.js\";\n")
    from django.core.files.storage import FileSystemStorage

    origin = FileSystemStorage(location=source)
    storage = ClientStaticStorage(location=tmp_path / "out")
    for name in ("x/a.js", "x/b.js"):
        with origin.open(name) as handle:
            storage.save(name, handle)
    list(storage.post_process({name: (origin, name) for name in ("x/a.js", "x/b.js")}))
    b = next((tmp_path / "out" / "x").glob("b.*.js")).read_text()
    assert re.search(r'from "\./a\.[0-9a-f]{12}\.js";', b), b


def test_the_page_itself_is_revalidated(collected_static):
    response = Client().get("/")
    assert response["Cache-Control"] == "no-cache"


def test_each_games_stylesheet_is_named_hashed_compressed_and_cached(collected_static):
    """The page lists each game's stylesheet (games/<slug>.css) for catalog.js to add with the
    game's module: hashed names, served compressed and cached for a year."""
    import html as entities

    client = Client()
    page = client.get("/").content.decode()
    content = re.search(r'<meta name="boardpost-game-styles" content="([^"]*)">', page).group(1)
    styles = json.loads(entities.unescape(content))
    assert set(styles) == set(games()), styles
    for slug, url in styles.items():
        assert re.search(rf"/static/boardpost/games/{slug}\.[0-9a-f]{{12}}\.css$", url), url
        response = client.get(url, HTTP_ACCEPT_ENCODING="br")
        assert response.status_code == 200 and response["Content-Encoding"] == "br", url
        assert "immutable" in response["Cache-Control"], url
