"""Bugs of the match and inbox pages, each seen in a real browser: the live updates after a move
that commits while the page loads, the keyboard focus after a Nimble key, a Nimble race's status
line, one "Your turn" line per match in the inbox, Nimalia's take back, and the board reading
(coordinates, the last move, one numbering)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.services.matches import SeatSpec, match_create
from tests.browser.api import call_api
from tests.factories import UserFactory, token_for

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]

FAST_MS = 6_000  # well under the long-poll's 25 s wait


def test_a_move_committed_between_the_match_read_and_the_log_read_shows_at_once(web):
    alice = UserFactory(username="alice")
    bea = UserFactory(username="bea")
    match = match_create(user=alice, game="nibble", config={"first_seat": 0},
                         seats=[SeatSpec("me"), SeatSpec("user", username="bea")], rated=False)
    bea_token = token_for(bea)
    call_api(web.base_url, bea_token, "POST", f"/api/matches/{match.id}/join")
    page = web.page_as(alice)
    page.goto(f"/match/{match.id}")
    web.wait_for_turn_or_end(page)
    web.nibble_turn(page)  # bea's turn now

    # Alice opens the match again; bea moves after the page has read the match and before it
    # reads the move log.
    # page.route below holds the log read back; the offline worker's requests would pass it by.
    again = web.page_as(alice, service_workers="block")
    moved = []

    def bea_moves_then_continue(route):
        if not moved:
            detail = call_api(web.base_url, bea_token, "GET", f"/api/matches/{match.id}")
            colour, cells = next(iter(detail["legal_moves"]["takeable"].items()))
            call_api(web.base_url, bea_token, "POST", f"/api/matches/{match.id}/moves",
                     {"move": {"take": [cells[0]]}, "expected_version": detail["version"]})
            moved.append(colour)
        route.continue_()

    again.route(re.compile(r".*/api/matches/[^/]+/moves\?after=0.*"), bea_moves_then_continue)
    again.goto(f"/match/{match.id}")
    expect(again.locator("#status-line")).to_contain_text("Your turn", timeout=FAST_MS)
    assert moved


def test_after_f_in_nimble_the_focus_stays_on_the_board(web):
    user = UserFactory(username="flipper")
    match = match_create(user=user, game="nimble", config={"mode": "turns"},
                         seats=[SeatSpec("me"), SeatSpec("bot", level=1)], rated=False)
    page = web.page_as(user)
    page.goto(f"/match/{match.id}")
    web.wait_for_turn_or_end(page)
    page.locator('#board button[data-action="flip"]').focus()
    web.act(page, lambda: page.keyboard.press("f"))
    focused = page.evaluate("() => document.activeElement.closest('#board') !== null")
    assert focused, page.evaluate("() => document.activeElement.outerHTML.slice(0, 80)")
    expect(page.locator("#move-log")).to_contain_text("flipped a")


def test_a_nimble_race_has_no_turns_on_the_status_line(web):
    user = UserFactory(username="racer")
    match = match_create(user=user, game="nimble", config={"mode": "race"},
                         seats=[SeatSpec("me"), SeatSpec("bot", level=1)], rated=False,
                         turn_seconds=3600)
    page = web.page_as(user)
    page.goto(f"/match/{match.id}")
    expect(page.locator("#match")).to_have_attribute("data-status", "active")
    line = page.locator("#status-line")
    expect(line).to_contain_text("Race")
    expect(line).not_to_contain_text("Your turn")
    expect(line).not_to_contain_text("Deadline")


def test_the_inbox_shows_one_your_turn_line_per_match(web):
    user = UserFactory(username="inboxer")
    match = match_create(user=user, game="nibble", config={"first_seat": 0},
                         seats=[SeatSpec("me"), SeatSpec("bot", level=1)], rated=False)
    page = web.page_as(user)
    page.goto(f"/match/{match.id}")
    for _ in range(3):
        web.wait_for_turn_or_end(page)
        web.nibble_turn(page)
    web.wait_for_turn_or_end(page)
    page.goto("/inbox")
    expect(page.locator("#h-activity")).to_be_visible()
    page.wait_for_timeout(500)
    lines = page.locator(".activity li", has_text="Your turn")
    assert lines.count() <= 1


def test_nimalia_take_back_is_not_offered_where_the_placement_reveals_at_once(web):
    user = UserFactory(username="placer")
    match = match_create(user=user, game="nimalia", config={"objectives": "first_game"},
                         seats=[SeatSpec("me"), SeatSpec("bot", level=1)], rated=False)
    page = web.page_as(user)
    page.goto(f"/match/{match.id}")
    web.wait_for_turn_or_end(page)
    expect(page.locator("#board .hint")).to_contain_text("cannot be taken back")
    page.locator("#board .hand-card").first.click()
    assert web.act(page, lambda: page.locator(
        '#board .reserve.live button[data-anchor="true"]').first.click()) == ""
    expect(page.locator("#nimalia-undo")).to_have_count(0)
    # The revealed cards are the last move, marked in the reserves; the log in words.
    expect(page.locator("#board .reserve .sq.last").first).to_be_visible()
    expect(page.locator("#move-log")).to_contain_text(
        re.compile(r"placed card #\d+, (not turned|turned)"))
    expect(page.locator("#move-log")).not_to_contain_text("row -")


def test_nibble_board_reading_coordinates_and_the_last_move(web):
    user = UserFactory(username="reader")
    match = match_create(user=user, game="nibble", config={"first_seat": 0},
                         seats=[SeatSpec("me"), SeatSpec("bot", level=1)], rated=False)
    page = web.page_as(user)
    page.goto(f"/match/{match.id}")
    web.wait_for_turn_or_end(page)
    coords = page.locator("#board .coords .coord")
    expect(coords.nth(1)).to_have_text("A")
    expect(coords.nth(9)).to_have_text("I")
    disc = page.locator('#board button[data-takeable="true"]').first
    r, c = int(disc.get_attribute("data-r")), int(disc.get_attribute("data-c"))
    name = f"{'ABCDEFGHI'[c]}{r + 1}"
    expect(disc).to_have_accessible_name(re.compile(rf"^{name} \w+, takeable$"))
    colour = disc.locator(".sr-only").text_content().split(" ")[1].rstrip(",")
    disc.click()
    assert web.act(page, lambda: page.click("#nibble-take")) == ""
    article = "an" if colour[0] in "aeiou" else "a"
    expect(page.locator("#move-log")).to_contain_text(
        f"reader: took {article} {colour} disc from {name}")
    web.wait_for_turn_or_end(page)
    # The bot's move is the last one: its cells are marked.
    expect(page.locator('#board button.cell.last').first).to_be_visible()
    # The server's picture numbers the seats from 1, as the page does.
    picture = page.evaluate(f"""async () => (await fetch('/api/matches/{match.id}/board.svg',
        {{headers: {{Authorization: 'Token ' + localStorage.getItem('boardpost.token')}}}}))
        .text()""")
    assert "(seat 1)" in picture and "(seat 0)" not in picture


def test_changing_the_game_in_the_lobby_keeps_the_seats_and_an_invitation(web):
    user = UserFactory(username="host")
    UserFactory(username="friend")
    page = web.page_as(user)
    page.goto("/lobby")
    page.select_option("#game", "nibble")
    page.select_option("#seat-1-kind", "user")
    page.fill("#seat-1-username", "friend")
    page.select_option("#game", "nimble")
    expect(page.locator("#seat-1-kind")).to_have_value("user")
    expect(page.locator("#seat-1-username")).to_have_value("friend")
