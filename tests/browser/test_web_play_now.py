"""Play at once and after a match, in a real browser: "Play a bot now" from the home page as
a guest, play to the end, the result in words, signing up keeping the match, a rematch; the
rating change and a rematch between two people; a visitor who is not signed in views a
finished match, a player and the leaderboards."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.models import Match
from games.services import match_create, match_join, match_rate, match_resign
from games.services.matches import SeatSpec
from tests.browser.matches import two_people_nibble
from tests.factories import UserFactory, token_for

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]


def sign_in_with_token(page, user: User) -> None:
    """Put a token of ``user`` where the client keeps its session."""
    page.goto("/leaderboards")
    page.evaluate("([token, name]) => { localStorage.setItem('boardpost.token', token);"
                  " localStorage.setItem('boardpost.username', name); }",
                  [token_for(user), user.username])


def test_play_a_bot_now_as_a_guest_sign_up_keeping_the_match_and_rematch(web):
    page = web.page()
    page.goto("/")
    expect(page.get_by_role("heading", name="Play a bot now")).to_be_visible()
    web.shot(page, "home-visitor")
    page.click("#play-now-nibble")
    page.wait_for_url(re.compile(r".*/match/[0-9a-f-]{36}$"))
    match_id = page.url.rsplit("/", 1)[1]
    expect(page.locator("#match")).to_have_attribute("data-status", "active")
    expect(page.locator("#nav")).to_contain_text("guest")
    guest = User.objects.get(seats__match_id=match_id, is_bot=False)
    assert guest.is_guest and not Match.objects.get(id=match_id).rated
    # The "first game" preset: the guest moves first and the match stops once it is settled.
    assert Match.objects.get(id=match_id).config == {"first_seat": 0, "early_finish": True}

    web.play_to_end(page, "nibble")
    after = page.locator("#after-match")
    expect(after).to_be_visible()
    expect(page.locator("#after-result")).to_have_text(re.compile(r"^(You won|.+ won; you came)"))
    expect(page.locator("#after-reason")).not_to_be_empty()
    expect(after).not_to_contain_text("(finished)")
    expect(page.locator("#after-rating")).to_contain_text("Casual match")
    web.shot(page, "after-match-guest")

    # Sign up: the same account, now with a name, keeps the match.
    page.locator("#nav").get_by_role("link", name=re.compile("Sign up")).click()
    page.fill("#signup-username", "newcomer")
    page.fill("#signup-password", "a long enough passphrase")
    page.click("#signup-form button[type=submit]")
    expect(page.get_by_role("heading", name="Inbox")).to_be_visible()
    expect(page.locator("#nav")).to_contain_text("newcomer")
    guest.refresh_from_db()
    assert guest.username == "newcomer" and not guest.is_guest
    page.goto(f"/match/{match_id}")
    expect(page.locator("#match .seat-chip.mine")).to_contain_text("newcomer")

    # Rematch: seats swapped, the bot sits down at once.
    page.click("#rematch")
    # (wait_for_url returns at once when the URL already matches, as the old match's does.)
    page.wait_for_url(lambda url: re.search(r"/match/[0-9a-f-]{36}$", url) is not None
                      and not url.endswith(match_id))
    expect(page.locator("#match")).to_have_attribute("data-status", re.compile("active|finished"))
    expect(page.locator("#match .seat-chip").first).to_contain_text("nibble-bot-1")
    expect(page.locator("#match .seat-chip.mine")).to_have_attribute("data-seat", "1")
    rematch = Match.objects.get(rematch_of_id=match_id)
    assert page.url.endswith(str(rematch.id))


def test_the_rating_change_and_a_rematch_between_two_people(web):
    match = two_people_nibble(resign="ada", rated=True)
    ada, bo = User.objects.get(username="ada"), User.objects.get(username="bo")
    match_rate(match_id=str(match.id))

    page = web.page()
    sign_in_with_token(page, ada)
    page.goto(f"/match/{match.id}")
    expect(page.locator("#after-result")).to_have_text("bo won; you came 2nd")
    expect(page.locator("#after-reason")).to_have_text("You resigned.")
    mine = page.locator("#after-rating .rating-change.mine")
    expect(mine).to_contain_text(re.compile(r"Your rating: \d+ → \d+ \(−\d+\)"))
    expect(page.locator("#after-rating .rating-change.up")).to_contain_text("bo")
    web.shot(page, "after-match-rated")
    page.click("#rematch")
    page.wait_for_url(lambda url: re.search(r"/match/[0-9a-f-]{36}$", url) is not None
                      and not url.endswith(str(match.id)))
    rematch_id = page.url.rsplit("/", 1)[1]
    expect(page.locator("#status-line")).to_contain_text("Waiting for players")

    other = web.page()
    sign_in_with_token(other, bo)
    other.goto(f"/match/{match.id}")
    expect(other.locator("#after-result")).to_have_text("You won")
    expect(other.locator("#rematch")).to_have_text("Go to the rematch")
    other.click("#rematch")  # accepts the invitation
    other.wait_for_url(f"**/match/{rematch_id}")
    expect(other.locator("#match")).to_have_attribute("data-status", "active")
    expect(other.locator("#match .seat-chip.mine")).to_have_attribute("data-seat", "0")


def test_a_visitor_views_a_finished_match_a_player_and_the_leaderboards(web):
    ada, bo = UserFactory(username="ada"), UserFactory(username="bo")
    match = match_create(user=ada, game="nibble", config={"first_seat": 0},
                         seats=[SeatSpec("me"), SeatSpec("user", username="bo")])
    match_join(user=bo, match_id=match.id)
    match_resign(user=bo, match_id=match.id)
    page = web.page()
    page.goto(f"/match/{match.id}")
    expect(page.locator("#match")).to_have_attribute("data-status", "finished")
    expect(page.locator("#after-result")).to_have_text("ada won")
    expect(page.locator("#after-reason")).to_have_text("bo resigned.")
    expect(page.locator("#rematch")).to_have_count(0)
    expect(page.locator("#replay-board")).to_have_attribute("data-seq", re.compile(r"\d+"))
    web.shot(page, "match-visitor")
    page.goto("/player/ada")
    expect(page.get_by_role("heading", name="ada")).to_be_visible()
    page.goto("/leaderboards")
    expect(page.locator("#leaderboard")).to_be_visible()
    assert "/signin" not in page.url
