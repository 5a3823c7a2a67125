"""A game the web client has no module for still plays in the browser: the match page falls
back to the server's board picture, the legal moves and a JSON move box."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]

NIMBLE_MODULE = re.compile(r"/static/boardpost/games/nimble(\.[0-9a-f]+)?\.js$")


def test_a_game_without_its_module_gets_the_board_picture_and_a_move_box(web):
    page = web.page()
    # The browser cannot load Nimble's module, as for a new game before its module is written.
    page.route(NIMBLE_MODULE, lambda route: route.fulfill(status=404, body="not found"))
    web.register(page, "generic-player")
    web.create_match(page, "nimble", options={"mode": '"turns"'}, rated=False)
    match = page.locator("#match")
    expect(match).to_have_attribute("data-game", "nimble")
    expect(match).to_have_attribute("data-client", "generic")
    expect(page.locator("#match h1")).to_have_text("Nimble")  # the name comes from the API
    assert web.wait_for_turn_or_end(page) == "active"

    # The server's picture of the current position.
    version = page.get_attribute("#match", "data-version")
    board = page.locator("#generic-board")
    expect(board).to_have_attribute("data-version", version)
    assert board.get_attribute("src").startswith("data:image/svg+xml")
    assert board.evaluate("img => img.complete && img.naturalWidth > 0")

    # Not JSON: the page says so and sends nothing.
    page.fill("#generic-move", "{flip")
    page.click("#generic-send")
    expect(page.locator("#move-message")).to_contain_text("not JSON")
    expect(match).to_have_attribute("data-version", version)

    # An illegal move shows the server's rule code.
    page.fill("#generic-move", '{"action": "recycle"}')
    message = web.act(page, lambda: page.keyboard.press("Control+Enter"))
    assert "Illegal move" in message
    expect(page.locator("#move-message")).to_have_attribute("data-rule", "nimble.set_not_empty")

    # A legal move from the list goes through; the log and the picture follow.
    legal = page.locator("#generic-legal button").first
    text = legal.text_content()
    legal.click()
    expect(page.locator("#generic-move")).to_have_value(text)
    assert web.act(page, lambda: page.click("#generic-send")) == ""
    expect(match).not_to_have_attribute("data-version", version)
    expect(page.locator("#generic-move")).to_have_value("")
    expect(page.locator("#move-log")).to_contain_text("generic-player: ")
    web.wait_for_turn_or_end(page)  # the bot may have moved meanwhile
    version = page.get_attribute("#match", "data-version")
    expect(board).to_have_attribute("data-version", version)
    web.shot(page, "generic-game")
