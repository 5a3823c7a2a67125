"""The web client in a real browser: sign up, play a level-1 bot to the end in each game
through the page, an illegal move shows its rule, a second browser sees a move without
reloading, replays, the player page and leaderboards."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.catalog import games
from games.models import Rating
from games.ratings import display_rating
from tests.factories import UserFactory

pytestmark = [
    pytest.mark.integration,
    # WhiteNoise hands Django's ASGI handler a synchronous file iterator for static files.
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]

# Options a game is played with here where its defaults will not do: a Nimble race is real
# time, and Nimalia's first-game objectives make a short match.
OPTIONS = {
    "nimble": {"mode": '"turns"'},
    "nimalia": {"objectives": '"first_game"'},
}


@pytest.mark.parametrize("game", sorted(games()))
def test_sign_up_and_beat_or_lose_to_a_level_one_bot_to_the_end(web, game):
    page = web.page()
    web.register(page, f"player-{game}")
    web.create_match(page, game, options=OPTIONS.get(game, {}),
                     screenshot="lobby" if game == "nibble" else None)
    expect(page.locator("#match")).to_have_attribute("data-game", game)

    moves = web.play_to_end(page, game, name=f"{game}-playing")
    assert moves > 0
    expect(page.locator("#match")).to_have_attribute("data-status", "finished")
    expect(page.locator("#status-line")).to_contain_text(
        re.compile(r"You (won|came|shared)|Finished"))
    web.shot(page, f"{game}-finished")

    # Replay move by move: the server's picture of each past position.
    replay = page.locator("#replay")
    expect(replay).to_be_visible()
    last = int(page.get_attribute("#match", "data-version"))
    expect(page.locator("#replay-board")).to_have_attribute("data-seq", str(last))
    replay.get_by_role("button", name="First", exact=True).click()
    expect(page.locator("#replay-board")).to_have_attribute("data-seq", "0")
    expect(page.locator("#replay-caption")).to_have_text("The starting position.")
    replay.get_by_role("button", name="Next", exact=True).click()
    expect(page.locator("#replay-board")).to_have_attribute("data-seq", "1")
    expect(page.locator("#replay-caption")).to_contain_text("1. ")
    page.keyboard.press("ArrowRight")  # keyboard: the focus is still in the replay
    expect(page.locator("#replay-board")).to_have_attribute("data-seq", "2")
    page.locator("#move-log li[data-seq='3'] button").click()
    expect(page.locator("#replay-board")).to_have_attribute("data-seq", "3")
    web.shot(page, f"{game}-replay")

    # The player page: the rated result reaches the ratings (the worker rates it).
    page.get_by_role("link", name=f"player-{game}").first.click()
    row = page.locator(f"#ratings tr[data-game='{game}']")
    for _ in range(20):
        # The page draws its table once the API has answered: count the rows only then.
        page.locator("#ratings").wait_for()
        if row.count():
            break
        page.wait_for_timeout(500)
        page.reload()
    expect(row).to_be_visible()
    expect(page.locator(f"section[data-game='{game}'] svg.chart")).to_be_visible()
    if game == "nibble":
        web.shot(page, "player")
        # Leaderboards list settled ratings only: seed a few.
        for rank, (name, mu) in enumerate([("ada", 31.0), ("bo", 28.5), ("cy", 26.0)]):
            Rating.objects.create(user=UserFactory(username=name), game="nimalia", mu=mu,
                                  sigma=4.0, display=display_rating(mu), games_played=12 - rank)
        page.get_by_role("link", name="Leaderboards").click()
        expect(page.locator("#leaderboard")).to_be_visible()
        page.get_by_role("link", name="Nimalia").click()
        expect(page.locator("#leaderboard caption")).to_contain_text("Nimalia")
        rows = page.locator("#leaderboard tbody tr")
        expect(rows).to_have_count(3)
        expect(rows.first).to_contain_text("ada")
        web.shot(page, "leaderboards")
        rows.first.get_by_role("link", name="ada").click()
        expect(page.locator("#ratings tr[data-game='nimalia']")).to_contain_text(
            str(display_rating(31.0)))


def test_an_illegal_move_shows_the_rule_the_server_gave(web):
    page = web.page()
    web.register(page, "rule-reader")
    web.create_match(page, "nibble", options={"first_seat": "0"}, rated=False)
    web.wait_for_turn_or_end(page)

    # The centre disc has no open side at the start. Keyboard only: into the board, arrows to
    # E5, Space to select it.
    page.locator('#board button[data-r="0"][data-c="0"]').focus()
    for key in ["ArrowDown"] * 4 + ["ArrowRight"] * 4 + ["Space"]:
        page.keyboard.press(key)
    expect(page.locator('#board button[data-r="4"][data-c="4"]')).to_have_attribute(
        "aria-pressed", "true")
    message = web.act(page, lambda: page.click("#nibble-take"))
    assert "Illegal move" in message
    expect(page.locator("#move-message")).to_have_attribute("data-rule", "nibble.not_exposed")
    # The rule in the server's words, once: the client adds no wording of its own.
    expect(page.locator("#move-message")).to_contain_text(
        "A disc needs two adjacent exposed sides to be taken.")
    expect(page.locator("#move-message")).not_to_contain_text("open sides")
    web.shot(page, "nibble-illegal-move")

    # Nothing was taken, and a legal move still goes through.
    expect(page.locator("#match")).to_have_attribute("data-version", "0")
    page.get_by_role("button", name="Clear selection").click()
    page.locator('#board button[data-takeable="true"]').first.click()
    assert web.act(page, lambda: page.keyboard.press("t")) == ""
    expect(page.locator("#match")).not_to_have_attribute("data-version", "0")


def test_a_second_browser_sees_the_first_ones_move_without_reloading(web):
    UserFactory(username="bea", password="a long enough passphrase")
    alice = web.page()
    web.register(alice, "alice")
    bea = web.page()
    web.sign_in(bea, "bea")
    bea.evaluate("() => { window.__sameDocument = true; }")

    # Bea's inbox hears of the invitation by itself (the event feed), and she accepts; Alice's
    # page turns active by itself.
    match_id = web.invite_and_accept(alice, bea, "bea", "nibble", options={"first_seat": "0"},
                                     rated=False, clock="d1", screenshot="inbox-invitation")
    web.wait_for_turn_or_end(alice)
    expect(alice.locator("#status-line")).to_contain_text("Your turn")
    expect(bea.locator("#status-line")).to_contain_text("Waiting for alice")
    corner = alice.locator('#board button[data-takeable="true"]').first
    row, col = corner.get_attribute("data-r"), corner.get_attribute("data-c")
    corner.click()
    assert web.act(alice, lambda: alice.click("#nibble-take")) == ""

    # Bea sees the disc gone and her turn, with no reload.
    expect(bea.locator(f'#board button[data-r="{row}"][data-c="{col}"]')).to_have_class(
        re.compile(r"\bempty\b"))
    expect(bea.locator("#status-line")).to_contain_text("Your turn")
    expect(bea.locator("#move-log")).to_contain_text("alice: took")
    assert bea.evaluate("() => window.__sameDocument === true"), "Bea's page reloaded"
    web.shot(bea, "nibble-second-browser")

    # And back: Alice sees Bea's move.
    web.wait_for_turn_or_end(bea)
    bea.locator('#board button[data-takeable="true"]').first.click()
    assert web.act(bea, lambda: bea.click("#nibble-take")) == ""
    expect(alice.locator("#status-line")).to_contain_text("Your turn")
    expect(alice.locator("#move-log")).to_contain_text("bea: took")

    # Alice's inbox: her turn first, with the deadline of the one-day clock.
    alice.locator("#nav").get_by_role("link", name="Inbox").click()
    row = alice.locator(f"tr[data-match='{match_id}']")
    expect(row).to_contain_text("Your turn")
    expect(row).to_contain_text(re.compile(r"Deadline in (1 d|23 h)"))
    web.shot(alice, "inbox")


def test_the_lobby_offers_banks_and_the_match_page_counts_the_clock_down(web):
    page = web.page()
    web.register(page, "clock-watcher")
    page.locator("#nav").get_by_role("link", name="New match").click()
    expect(page.locator("#weekend-pause")).to_be_disabled()
    page.select_option("#clock", label="3 d + 1 d a move, up to 7 d")
    expect(page.locator("#weekend-pause")).to_be_enabled()
    web.create_match(page, "nibble", options={"first_seat": "0"}, clock="h1",
                     weekend_pause=True)
    expect(page.locator("#match .facts")).to_contain_text("1 h per turn · weekends off")
    clock = page.locator("li.seat-chip[data-seat='0'] .clock")
    expect(clock).to_have_attribute("role", "timer")
    if clock.get_attribute("data-counting") == "true":  # not a Saturday or Sunday in UTC
        first = clock.inner_text()
        expect(clock).to_contain_text(re.compile(r"^5\d min \d+ s$"))
        expect(clock).not_to_have_text(first)  # it counts down by itself
    else:
        expect(clock).to_contain_text("paused for the weekend")
    expect(page.locator("li.seat-chip[data-seat='1'] .clock")).to_have_count(0)


def test_nimalia_open_seat_and_take_back_before_the_reveal(web):
    UserFactory(username="cleo", password="a long enough passphrase")
    dan = web.page()
    web.register(dan, "dan")
    cleo = web.page()
    web.sign_in(cleo, "cleo")
    web.open_and_join(dan, cleo, "nimalia", options={"objectives": '"first_game"'}, rated=False)
    web.wait_for_turn_or_end(dan)

    # Dan places a card: it is pending, drawn with a dashed outline, and Cleo only learns that
    # he has placed (no reload on her side).
    first = dan.locator("#board .hand-card").first
    card = first.get_attribute("data-card")
    first.click()
    assert web.act(dan, lambda: dan.locator(
        '#board .reserve.live button[data-anchor="true"]').first.click()) == ""
    expect(dan.locator("#board .overlay.pending")).to_be_visible()
    expect(dan.locator("#board .hand-card")).to_have_count(2)
    expect(cleo.locator("figure[data-seat='0']")).to_have_attribute("data-placed", "true")
    expect(cleo.locator("figure[data-seat='0']")).to_contain_text("placed ✓")
    web.shot(dan, "nimalia-pending")

    # He takes it back before Cleo places: the card is in his hand again, and Cleo sees him
    # choosing again.
    assert web.act(dan, lambda: dan.click("#nimalia-undo")) == ""
    expect(dan.locator("#board .overlay.pending")).to_have_count(0)
    expect(dan.locator(f"#board .hand-card[data-card='{card}']")).to_be_visible()
    expect(cleo.locator("figure[data-seat='0']")).to_have_attribute("data-placed", "false")
    expect(cleo.locator("#move-log")).to_contain_text("dan: took a card back")

    # He places again; Cleo places; the turn is revealed to both: Dan's reserve shows his card
    # to Cleo, and the hands have passed (two cards each).
    dan.locator("#board .hand-card").last.click()
    assert web.act(dan, lambda: dan.locator(
        '#board .reserve.live button[data-anchor="true"]').first.click()) == ""
    web.wait_for_turn_or_end(cleo)
    cleo.locator("#board .hand-card").first.click()
    assert web.act(cleo, lambda: cleo.locator(
        '#board .reserve.live button[data-anchor="true"]').first.click()) == ""
    for page in (dan, cleo):
        expect(page.locator("figure[data-seat='0']")).to_have_attribute("data-cards", "1")
        expect(page.locator("figure[data-seat='1']")).to_have_attribute("data-cards", "1")
        expect(page.locator("#board .hand-card")).to_have_count(2)
    expect(cleo.locator("#move-log")).to_contain_text(
        "everyone has placed: the cards of round 1, turn 1 are revealed")
    web.shot(cleo, "nimalia-revealed")
