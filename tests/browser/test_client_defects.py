"""Defects of the web client found on a phone and a desktop, each shown fixed: the result of a
finished match, the seat an error names, the language menu's name, the navigation on a phone,
the rules page (its pictures on a phone, its HTML built without parsing it into the page), a
solo match's "play again", the rule texts said once, each game's styles loaded with its module,
and the match page telling the server a seat has seen the match.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.catalog import games, get_engine
from games.models import Match
from games.services import match_create, match_move_submit, match_resign
from games.services.matches import SeatSpec
from tests.browser.checks import axe_violations
from tests.browser.matches import two_people_nibble
from tests.factories import UserFactory

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]

CLIENT = Path(__file__).resolve().parents[2] / "games/web/static/boardpost"
PHONES = ({"width": 360, "height": 780}, {"width": 390, "height": 844})
GAMES = sorted(games())
# Writing HTML into the page (or the document): none of these anywhere in the client.
HTML_SINKS = re.compile(r"\b(innerHTML|outerHTML|insertAdjacentHTML|document\.write(ln)?)\b")


# ------------------------------------------------------------------ the result of a match

def test_the_result_of_a_finished_match_never_reads_null(pages):
    match = two_people_nibble(resign="bo")
    ada = User.objects.get(username="ada")
    page = pages.page_as(ada)
    page.goto(f"/match/{match.id}")
    after = page.locator("#after-match")
    expect(after).to_be_visible()
    expect(page.locator("#after-result")).to_have_text("You won")
    assert "null" not in after.inner_text(), after.inner_text()
    # Once a rematch exists, the original's section names it, still without a "null".
    page.click("#rematch")
    page.wait_for_url(lambda url: not url.endswith(str(match.id)))
    page.goto(f"/match/{match.id}")
    expect(page.locator("#rematch-note")).to_be_visible()
    assert "null" not in after.inner_text(), after.inner_text()


def test_a_solo_match_offers_play_again_not_a_rematch_with_swapped_seats(pages):
    solo = UserFactory(username="lonely", password="a long enough passphrase")
    match = match_create(user=solo, game="nimalia", players=1, seats=[SeatSpec("me")],
                         rated=False, config={"objectives": "first_game"})
    match_resign(user=solo, match_id=match.id)
    page = pages.page_as(solo)
    page.goto(f"/match/{match.id}")
    expect(page.locator("#after-match")).to_be_visible()
    expect(page.locator("#rematch")).to_have_text("Play again")
    expect(page.locator("#after-match")).not_to_contain_text("seats swapped")
    # Against a bot would be another match, not this one again.
    expect(page.locator("#play-again")).to_have_count(0)
    page.click("#rematch")
    page.wait_for_url(lambda url: not url.endswith(str(match.id)))
    again = Match.objects.get(rematch_of=match)
    assert again.seats.count() == 1 and again.game == "nimalia"
    expect(page.locator("#match")).to_have_attribute("data-status", "active")
    expect(page.locator("#after-match")).to_be_hidden()


# ------------------------------------------------------------------ seats counted from 1

def test_inviting_an_unknown_player_names_the_seat_as_the_lobby_does(pages):
    host = UserFactory(username="host", password="a long enough passphrase")
    page = pages.page_as(host)
    page.goto("/lobby")
    page.select_option("#game", "nibble")
    page.select_option("#seat-1-kind", "user")
    expect(page.locator("#seat-1-username")).to_be_visible()
    page.fill("#seat-1-username", "nobody_here")
    row = page.locator("#seat-1-username").locator("xpath=..")
    expect(row.locator(".seat-no")).to_have_text("Seat 2")
    page.click("#create-form button[type=submit]")
    expect(page.locator("#create-error")).to_have_text("Seat 2: no player called 'nobody_here'.")
    assert not Match.objects.exists()


# ------------------------------------------------------------------ accessibility

def _settled(page) -> None:
    page.wait_for_function("() => !document.querySelector('main p.muted')"
                           " || document.querySelector('main p.muted').textContent !== 'Loading…'")
    page.wait_for_function("() => !document.querySelector('[aria-busy=\"true\"]')")
    page.wait_for_timeout(300)


def test_the_language_menu_is_named_by_the_code_it_shows(pages, axe_source):
    """axe-core's label-content-name-mismatch (experimental, so off by default; WCAG 2.5.3)."""
    user = UserFactory(username="labeller", password="a long enough passphrase")
    rule = {"runOnly": {"type": "rule", "values": ["label-content-name-mismatch"]}}
    found = {}
    for page, paths in ((pages.page(bypass_csp=True), ["/", "/signin", "/rules"]),
                        (pages.page_as(user, bypass_csp=True), ["/", "/lobby", "/leaderboards"])):
        for path in paths:
            page.goto(path)
            _settled(page)
            if violations := axe_violations(page, axe_source, rule):
                found[path] = violations
        expect(page.locator("#language-menu summary")).to_have_accessible_name(
            "EN Language: English")
    assert not found, found


def test_every_axe_rule_experimental_ones_included_finds_nothing_serious(web, axe_source):
    """Every rule of axe-core, the experimental ones too: no serious or critical finding on
    the pages a player sees most, a match of every game included."""
    user = UserFactory(username="auditor", password="a long enough passphrase")
    ids = {game: match_create(user=user, game=game, rated=False,
                              config={"nimble": {"mode": "turns"},
                                      "nimalia": {"objectives": "first_game"}}.get(game),
                              seats=[SeatSpec("me"), SeatSpec("bot", level=1)]).id
           for game in GAMES}
    every = {"rules": {}, "runOnly": {"type": "tag", "values": [
        "wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice",
        "experimental"]}}
    page = web.page_as(user, bypass_csp=True)
    found = {}
    paths = ["/", "/lobby", "/leaderboards", "/rules", "/rules/nimalia", "/tutorial/nibble",
             *(f"/match/{ids[game]}" for game in GAMES)]
    for path in paths:
        page.goto(path)
        _settled(page)
        if "/match/" in path:
            web.wait_for_turn_or_end(page)
        serious = [v for v in axe_violations(page, axe_source, every)
                   if v["impact"] in ("serious", "critical")]
        if serious:
            found[path] = serious
    assert not found, found


# ------------------------------------------------------------------ the phone's menu

def _inside(box: dict, width: int) -> bool:
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width


@pytest.mark.parametrize("viewport", PHONES, ids=lambda v: f"{v['width']}px")
def test_on_a_phone_the_menu_button_shows_every_navigation_item(pages, viewport):
    user = UserFactory(username="pocket", password="a long enough passphrase")
    page = pages.page_as(user, viewport)
    page.goto("/lobby")
    expect(page.get_by_role("heading", name="New match")).to_be_visible()
    toggle = page.locator("#nav-toggle")
    expect(toggle).to_be_visible()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(toggle).to_have_attribute("aria-controls", "nav")
    expect(toggle).to_have_accessible_name("Menu")
    assert _inside(toggle.bounding_box(), viewport["width"])
    items = page.locator("#nav li > a, #nav li > button")
    names = ["Inbox", "New match", "Tournaments", "Leaderboards", "Rules", "Notifications",
             "Friends", "Account", "pocket", "Sign out"]
    expect(items).to_have_count(len(names))
    for index in range(len(names)):
        expect(items.nth(index)).to_be_hidden()

    # Opened from the keyboard: every item in view and whole, the focus moves on into it.
    toggle.focus()
    page.keyboard.press("Enter")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    for index, name in enumerate(names):
        item = items.nth(index)
        expect(item).to_be_visible()
        expect(item).to_contain_text(name)
        box = item.bounding_box()
        assert _inside(box, viewport["width"]), (name, box)
        assert box["y"] + box["height"] <= viewport["height"], (name, box)
        assert box["height"] >= 44, (name, box)
    page.keyboard.press("Tab")
    expect(items.nth(0)).to_be_focused()
    pages.shot(page, f"phone-menu-open-{viewport['width']}")
    # Escape folds it and gives the focus back to the button.
    page.keyboard.press("Escape")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(toggle).to_be_focused()
    expect(items.nth(0)).to_be_hidden()
    # Following a link folds it too.
    toggle.click()
    page.locator("#nav").get_by_role("link", name="Rules").click()
    expect(page.get_by_role("heading", name="Rules and tutorials")).to_be_visible()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    header = page.locator("header.top").bounding_box()
    assert header["height"] <= 64, header


def test_on_a_desktop_the_navigation_shows_without_a_menu_button(pages):
    user = UserFactory(username="desk", password="a long enough passphrase")
    page = pages.page_as(user)
    page.goto("/lobby")
    expect(page.get_by_role("heading", name="New match")).to_be_visible()
    expect(page.locator("#nav-toggle")).to_be_hidden()
    expect(page.locator("#nav").get_by_role("button", name="Sign out")).to_be_visible()


# ------------------------------------------------------------------ the rules page

@pytest.mark.parametrize("viewport", PHONES, ids=lambda v: f"{v['width']}px")
def test_the_rules_pictures_are_legible_on_a_phone(pages, viewport):
    page = pages.page(viewport)
    for game in GAMES:
        page.goto(f"/rules/{game}")
        pictures = page.locator("#rules img.rules-picture")
        expect(pictures.first).to_be_attached()
        for index in range(pictures.count()):
            picture = pictures.nth(index)
            picture.scroll_into_view_if_needed()
            page.wait_for_function("img => img.complete && img.naturalWidth > 0",
                                   arg=picture.element_handle())
            shown, natural = picture.evaluate(
                "img => [img.getBoundingClientRect().width, img.naturalWidth]")
            # Drawn at its own size (its smallest labels as the renderer made them), not
            # shrunk to a third of it; it scrolls sideways in its own focusable box.
            assert shown >= 0.95 * natural, (game, index, shown, natural)
            box = picture.locator("xpath=..")
            expect(box).to_have_attribute("role", "region")
            expect(box).to_have_attribute("tabindex", "0")
            assert _inside(box.bounding_box(), viewport["width"]), game
        overflow = page.evaluate("w => Math.max(document.documentElement.scrollWidth,"
                                 " window.innerWidth) - w", viewport["width"])
        assert overflow <= 0, (game, overflow)
    pages.shot(page, f"rules-nimalia-phone-{viewport['width']}")


def test_the_rules_page_copies_only_the_allowed_parts_of_the_servers_html(pages):
    page = pages.page()
    page.goto("/rules/nibble")
    expect(page.locator("#rules h2").first).to_be_visible()
    headings = page.locator("#rules .rules-text h2").count()
    tables = page.locator("#rules .rules-text table").count()
    assert headings >= 3 and tables >= 1
    expect(page.locator("#rules .rules-text img.rules-picture").first).to_be_visible()
    # The same page with hostile HTML in the answer: nothing of it runs or reaches the page.
    hostile = ('<h2 id="x-a">Heading</h2><p onclick="window.hit=1">Text <em>kept</em>'
               '<script>window.hit=2</script></p><img src="/nothing.svg" onerror="window.hit=3"'
               ' alt="pic"><p><a href="javascript:window.hit=4">bad link</a> '
               '<a href="https://example.org/">good link</a></p><iframe src="/"></iframe>'
               '<table><tr><td style="color:red">cell</td></tr></table>')

    def answer(route):
        response = route.fetch()
        body = response.json()
        body["html"] = hostile
        route.fulfill(response=response, json=body)

    page.route("**/api/games/nimble/rules", answer)
    page.goto("/rules/nimble")
    text = page.locator("#rules .rules-text").first
    expect(text.locator("h2#x-a")).to_have_text("Heading")
    expect(text).to_contain_text("Text kept")
    expect(text.locator("em")).to_have_text("kept")
    assert text.locator("script, iframe, [onclick], [onerror], [style]").count() == 0
    assert text.locator("a").nth(0).get_attribute("href") is None
    assert text.locator("a").nth(1).get_attribute("href") == "https://example.org/"
    expect(text.locator("td")).to_have_text("cell")
    page.wait_for_timeout(300)
    assert page.evaluate("() => window.hit") is None
    # Parsing the hostile HTML (inert, nothing runs) still makes Chromium report the handler
    # and style attributes it met to the page's Content-Security-Policy: those reports, and
    # only they.
    blocked = [e for e in pages.errors
               if re.search(r"(inline event handler|inline style) violates", e)]
    assert blocked
    pages.errors[:] = [e for e in pages.errors if e not in blocked]


def test_nothing_in_the_client_writes_html_into_the_page():
    found = [f"{path.relative_to(CLIENT)}:{number}"
             for path in sorted(CLIENT.rglob("*.js"))
             for number, line in enumerate(path.read_text().splitlines(), 1)
             if HTML_SINKS.search(line)]
    assert not found, found
    assert len(list(CLIENT.rglob("*.js"))) >= 10


# ------------------------------------------------------------------ rule texts once

def test_game_modules_carry_no_rule_texts_of_their_own():
    """An illegal move's rule is told by the server's message; how a match ended, by the game
    module's OUTCOME_WORDS alone."""
    for module in sorted((CLIENT / "games").glob("*.js")):
        source = module.read_text()
        assert not re.search(r"export const (RULES|REASONS)\b", source), module.name
    assert ".RULES" not in (CLIENT / "pages/match.js").read_text()


# ------------------------------------------------------------------ each game's styles

def _selectors(css: str) -> set[str]:
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)
    return set(re.findall(r"\.([a-zA-Z][\w-]*)", re.sub(r"\{[^{}]*\}", "{}", css)))


def test_the_central_stylesheets_hold_no_games_rules():
    central = {name: (CLIENT / name).read_text() for name in ("style.css", "play.css", "learn.css")}
    own = {path.stem: _selectors(path.read_text()) for path in (CLIENT / "games").glob("*.css")}
    assert own and set(own) <= set(GAMES), own.keys()  # a game may have none
    shared = {"last", "legal", "mine", "small", "none", "current", "chosen", "live", "empty",
              "end", "selected", "up", "down", "list", "acting", "total", "now", "pending",
              "ghost", "unknown", "void", "anchor", "rise", "fall", "spent", "major", "seven",
              "nine", "count", "mark", "circle", "hint", "legend"}
    for name, css in central.items():
        assert not re.search("|".join(GAMES), css, re.IGNORECASE), name
        used = _selectors(css)
        for game, classes in own.items():
            assert not (classes - shared) & used, (name, game, (classes - shared) & used)


def test_a_games_styles_load_with_its_module(pages):
    nibble = two_people_nibble("stylish", "plain")
    user = User.objects.get(username="stylish")
    page = pages.page_as(user)
    page.goto("/rules")  # a page that draws no board: the styles come with the modules
    expect(page.get_by_role("heading", name="Rules and tutorials")).to_be_visible()
    for game in sorted(path.stem for path in (CLIENT / "games").glob("*.css")):
        sheet = page.locator(f'head link[rel="stylesheet"][data-game-style="{game}"]')
        expect(sheet).to_have_count(1)
        assert sheet.evaluate("link => link.sheet.cssRules.length") > 10, game
        assert re.search(rf"/static/boardpost/games/{game}(\.[0-9a-f]{{12}})?\.css$",
                         sheet.get_attribute("href"))
    page.goto(f"/match/{nibble.id}")
    expect(page.locator("#match")).to_have_attribute("data-status", "active")
    # Styled by games/nibble.css: the board's discs are round and the board has its wood.
    display = "() => getComputedStyle(document.querySelector('.nibble-board')).display"
    page.wait_for_function(f"({display})() === 'inline-flex'")

    # A game whose stylesheet does not load still plays (its markup unstyled).
    other = pages.page_as(user)
    other.route(re.compile(r".*/games/nibble(\.[0-9a-f]+)?\.css$"),
                lambda route: route.fulfill(status=404, body=""))
    other.goto(f"/match/{nibble.id}")
    expect(other.locator("#match")).to_have_attribute("data-status", "active")
    expect(other.locator(".nibble-board")).to_be_attached()
    assert other.evaluate(display) == "block"


# ------------------------------------------------------------------ "seen"

def test_the_match_page_tells_the_server_once_per_version_that_the_seat_has_seen_it(pages):
    match = two_people_nibble()
    ada, bo = User.objects.get(username="ada"), User.objects.get(username="bo")
    calls: list[str] = []

    def seen(route):
        calls.append(route.request.url)
        route.fulfill(status=204)

    page = pages.page_as(bo)
    page.route("**/api/matches/*/seen", seen)
    page.goto(f"/match/{match.id}")
    pages.wait_for_turn_or_end(page)
    expect(page.locator("#match")).to_have_attribute("data-version", "1")
    page.wait_for_timeout(500)
    assert calls == [f"{pages.base_url}/api/matches/{match.id}/seen"], calls
    page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_timeout(300)
    assert len(calls) == 1, calls  # the same version: not again

    # A new position while the page is visible: told again.
    pages.nibble_turn(page)
    expect(page.locator("#match")).to_have_attribute("data-version", "2")
    page.wait_for_timeout(500)
    assert len(calls) == 2, calls

    # A new position while the page is hidden: told when it shows again.
    page.evaluate("""() => Object.defineProperty(document, 'visibilityState',
        {configurable: true, get: () => window.__state || 'visible'})""")
    page.evaluate("() => { window.__state = 'hidden'; }")
    state = Match.objects.get(id=match.id)
    engine = get_engine("nibble")
    move = next(iter(engine.legal_moves(engine.load(state.state), 0)))
    match_move_submit(user=ada, match_id=match.id, move=engine.dump_move(move),
                      expected_version=state.version)
    expect(page.locator("#match")).to_have_attribute("data-version", "3")
    page.wait_for_timeout(500)
    assert len(calls) == 2, calls
    page.evaluate("() => { window.__state = 'visible';"
                  " document.dispatchEvent(new Event('visibilitychange')); }")
    page.wait_for_timeout(500)
    assert len(calls) == 3, calls

    # Whatever the server answers (here the real one), the page carries on without an error.
    mine = pages.page_as(ada)
    mine.goto(f"/match/{match.id}")
    expect(mine.locator("#match")).to_have_attribute("data-version", "3")
    expect(mine.locator("#status-line")).to_contain_text("Waiting for bo")
