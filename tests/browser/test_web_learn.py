"""Learning in the browser: each game's rules page (with the server's pictures), each game's
tutorial played to the end with the real board modules, the lobby's presets and plain-language
options, and the goal line and rules link on the match page; axe-core finds no violations on
these pages."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from games.catalog import games
from games.selectors.learn import game_tutorial
from tests.browser.conftest import web_pages

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]

GAMES = sorted(games())


@pytest.fixture
def web(request, browser, server_url):
    """Pages on the live server without a Celery worker: the bots a lobby seats move eagerly."""
    with web_pages(request, browser, server_url) as client:
        yield client


def axe_violations(page, axe_source) -> list[str]:
    # Evaluated through the browser's devtools, so the page's Content-Security-Policy (which
    # refuses inline scripts) does not apply to the checker.
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(axe_source)
    result = page.evaluate("async () => (await axe.run(document)).violations.map("
                           "v => `${v.id}: ${v.nodes.map(n => n.target.join(' ')).join(', ')}`)")
    return result


@pytest.mark.parametrize("game", GAMES)
def test_rules_page_with_the_servers_pictures(web, axe_source, game):
    page = web.page()
    page.goto(f"/rules/{game}")  # no account needed
    expect(page.get_by_role("heading", level=1)).to_have_text(f"How to play {games()[game].name}")
    rules = page.locator("#rules")
    expect(rules.get_by_role("heading", level=2).first).to_be_visible()
    pictures = rules.locator(".rules-text img")
    expect(pictures.first).to_be_visible()
    for index in range(pictures.count()):
        picture = pictures.nth(index)
        assert picture.get_attribute("src").startswith(f"/api/games/{game}/pictures/")
        picture.scroll_into_view_if_needed()
        page.wait_for_function("img => img.complete && img.naturalWidth > 0",
                               arg=picture.element_handle())
        assert picture.get_attribute("alt")
    technical = rules.locator("details.rules-technical")
    expect(technical).not_to_have_attribute("open", "")
    technical.locator("summary").click()
    expect(technical.get_by_role("heading", name="For client authors")).to_be_visible()
    assert not axe_violations(page, axe_source)
    web.shot(page, f"rules-{game}")
    page.get_by_role("link", name="Try the tutorial: a short first match").click()
    expect(page.locator("#tutorial")).to_have_attribute("data-step", "1")


def _play_step(page, game, move):
    if game == "nibble":
        for row, col in move["take"]:
            page.click(f".nibble-board [data-r='{row}'][data-c='{col}']")
        page.click("#nibble-take")
    elif game == "nimble":
        if move["action"] == "place":
            page.click(f".stack[data-stack='{move['stack']}']")
        else:
            page.click(f"button.action[data-action='{move['action']}']")
    else:
        page.click(f".hand-card[data-card='{move['card']}']")
        page.click(f".reserve.live [data-r='{move['row']}'][data-c='{move['col']}']")


@pytest.mark.parametrize("game", GAMES)
def test_tutorial_played_to_the_end_on_the_real_board(web, axe_source, game):
    script = json.loads(json.dumps(game_tutorial(game)))
    page = web.page()
    page.goto("/rules")
    page.get_by_role("link", name=f"Play the {games()[game].name} tutorial").click()
    tutorial = page.locator("#tutorial")
    expect(tutorial).to_have_attribute("data-step", "1")
    expect(page.locator("#tutorial-progress")).to_have_text(
        f"Step 1 of {len(script['steps'])}")
    # The board is the game's own module (the match page's), marking only the suggested move.
    expect(page.locator(f".{game}")).to_be_visible()
    assert not axe_violations(page, axe_source)
    web.shot(page, f"tutorial-{game}-start")

    if game == "nibble":  # a wrong move is explained, and nothing moves on
        page.click(".nibble-board [data-r='0'][data-c='0']")
        page.click("#nibble-take")
        expect(page.locator("#move-message")).to_contain_text("Not quite")
        expect(tutorial).to_have_attribute("data-step", "1")
        page.get_by_role("button", name="Clear selection").click()

    for number, step in enumerate(script["steps"], start=1):
        expect(tutorial).to_have_attribute("data-step", str(number))
        expect(page.locator("#tutorial-explain")).to_contain_text(step["text"][:40])
        _play_step(page, game, step["move"])
        expect(page.locator("#tutorial-explain")).to_contain_text(step["done"][:40])
    expect(tutorial).to_have_attribute("data-step", "done")
    expect(page.locator("#tutorial-progress")).to_have_text("Tutorial complete")
    expect(page.locator("#tutorial-explain")).to_contain_text(script["end"][:40])
    assert not axe_violations(page, axe_source)
    web.shot(page, f"tutorial-{game}-done")


def test_lobby_presets_plain_options_and_the_goal_on_the_match_page(web, axe_source):
    page = web.page()
    web.register(page, "learner")
    page.locator("#nav").get_by_role("link", name="New match").click()
    page.select_option("#game", "nibble")
    presets = page.locator("#presets")
    expect(presets.get_by_role("radio", name="First game")).to_be_checked()
    expect(presets).to_contain_text("Standard")
    # The raw options are folded away, in players' words.
    raw = page.locator("#raw-options")
    expect(raw).not_to_have_attribute("open", "")
    expect(page.locator("#opt-early_finish")).to_be_hidden()
    raw.locator("summary").click()
    expect(page.get_by_label("Stop when the winner is settled")).to_have_value("true")
    presets.get_by_role("radio", name="Standard").click()
    expect(page.get_by_label("Stop when the winner is settled")).to_have_value("false")
    presets.get_by_role("radio", name="Quick").click()
    expect(page.get_by_label("Stop when the winner is settled")).to_have_value("true")
    # Bot levels say what they do, without a bare "?"; one name per time limit.
    page.select_option("#seat-1-kind", "bot")
    levels = page.locator("#seat-1-level option").all_text_contents()
    assert levels and all(text.startswith("Level ") and "?" not in text for text in levels)
    clocks = page.locator("#clock option").all_text_contents()
    assert "24 hours per move" not in clocks and "1 day per move" in clocks
    assert len(set(clocks)) == len(clocks)
    expect(page.locator("#learn-links").get_by_role("link", name="Nibble rules")).to_be_visible()
    assert not axe_violations(page, axe_source)
    web.shot(page, "lobby-presets")

    # An invitation survives a change of game.
    page.select_option("#seat-1-kind", "user")
    page.fill("#seat-1-username", "somebody")
    page.select_option("#game", "nimble")
    expect(page.locator("#seat-1-kind")).to_have_value("user")
    expect(page.locator("#seat-1-username")).to_have_value("somebody")
    page.select_option("#game", "nimalia")
    expect(page.locator("#presets").get_by_role("radio", name="First game")).to_be_checked()
    page.select_option("#seat-1-kind", "bot")
    page.uncheck("#rated")
    page.click("#create-form button[type=submit]")
    page.wait_for_selector("#match[data-status]")
    goal = page.locator("#goal-line")
    expect(goal).to_contain_text("Goal:")
    expect(goal).to_contain_text("The highest total after 5 rounds wins")
    expect(goal).not_to_contain_text("_")
    goal.get_by_role("link", name="Rules").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("How to play Nimalia")
