"""The people pages in Chromium, on the live server: the friends page (who may invite me,
follow a player, the lists), the blocks page, follow, block and report on a player's page, and
the chat of the match page (the seats' room live between two pages, a report of a line, the
spectators' tab once the match is over). At phones' widths (360 and 390 px) with nothing wider
than the screen, axe-core clean, in every language, no console error."""

from __future__ import annotations

import pytest

from accounts.models import Follow
from games.people.models import ChatLine, Report
from games.services import match_resign
from tests.browser.checks import PHONE, PHONE_390, axe_violations, overflow
from tests.browser.conftest import web_pages
from tests.browser.matches import two_people_nibble
from tests.factories import UserFactory

try:
    from playwright.sync_api import expect
except ImportError:  # pragma: no cover - the browser fixture skips
    expect = None

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]

PHONES = (PHONE, PHONE_390)
# Per language: the browser's locale and the friends page's heading.
LANGUAGES = {"en": ("en-US", "Friends"), "fr": ("fr-FR", "Amis"),
             "pt-br": ("pt-BR", "Amigos"), "ko": ("ko-KR", "친구")}


@pytest.fixture
def pages(request, browser, server_url):
    with web_pages(request, browser, server_url) as client:
        yield client


def _checked(page, viewport: dict, axe_source: str) -> None:
    assert overflow(page, viewport["width"]) <= 0
    assert axe_violations(page, axe_source) == []


def test_friends_and_blocks_pages(pages, axe_source):
    ada = UserFactory(username="ada")
    UserFactory(username="bo")
    page = pages.page_as(ada, PHONES[0], bypass_csp=True)
    page.goto("/friends")
    expect(page.get_by_role("heading", name="Friends", exact=True, level=1)).to_be_visible()
    page.select_option("#invitations", "friends")
    expect(page.locator("#invitations-status")).to_have_text("Saved.")
    page.fill("#follow-name", "bo")
    page.get_by_role("button", name="Follow", exact=True).click()
    expect(page.locator("#follow-status")).to_have_text("You follow bo.")
    expect(page.locator("#following")).to_contain_text("bo")
    assert Follow.objects.filter(follower=ada, followed__username="bo").exists()
    ada.refresh_from_db()
    assert ada.invitations == "friends"
    _checked(page, PHONES[0], axe_source)
    page.get_by_role("button", name="Unfollow bo").first.click()
    expect(page.locator("#following")).to_contain_text("Nobody yet.")
    page.get_by_role("link", name="Blocked players").click()
    page.fill("#block-name", "bo")
    page.uncheck("#block-chat")
    page.get_by_role("button", name="Block", exact=True).click()
    expect(page.locator("#blocks-list")).to_contain_text("bo (games)")
    _checked(page, PHONES[0], axe_source)
    page.get_by_role("button", name="Unblock bo").click()
    expect(page.locator("#blocks-list")).to_contain_text("Nobody is blocked.")


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_people_pages_in_every_language_at_390(pages, axe_source, language):
    locale, heading = LANGUAGES[language]
    user = UserFactory()
    page = pages.page_as(user, PHONES[1], bypass_csp=True, locale=locale)
    for path in ("/friends", "/blocks"):
        page.goto(path)
        page.wait_for_selector("#people-lists .card, #blocks-list .card")
        _checked(page, PHONES[1], axe_source)
    page.goto("/friends")
    expect(page.locator("h1")).to_have_text(heading)


def test_follow_block_and_report_on_a_players_page(pages, axe_source):
    ada = UserFactory(username="ada")
    UserFactory(username="bo")
    page = pages.page_as(ada, PHONES[0], bypass_csp=True)
    page.goto("/player/bo")
    page.locator("#follow-toggle").click()
    expect(page.locator("#follow-toggle")).to_have_attribute("aria-pressed", "true")
    page.locator("#block-toggle").click()
    expect(page.locator("#player-people-status")).to_have_text("bo is blocked.")
    page.locator("#player-people").get_by_role("button", name="Report").click()
    dialog = page.get_by_role("dialog", name="Report bo")
    expect(dialog).to_be_visible()
    _checked(page, PHONES[0], axe_source)
    dialog.get_by_label("Reason").select_option("cheating")
    dialog.get_by_label("What happened (optional)").fill("too strong")
    dialog.get_by_role("button", name="Send the report").click()
    expect(dialog).to_have_count(0)
    report = Report.objects.get()
    assert (report.player.username, report.reason, report.note) == ("bo", "cheating",
                                                                    "too strong")


def test_the_chat_of_the_match_page(pages, axe_source):
    match = two_people_nibble("ada", "bo")
    ada, bo = (seat.user for seat in match.seats.order_by("index"))
    one = pages.page_as(ada, PHONES[0], bypass_csp=True)
    two = pages.page_as(bo, PHONES[1], bypass_csp=True)
    for page in (one, two):
        page.goto(f"/match/{match.id}")
        expect(page.locator("#chat-lines")).to_contain_text("Nothing said yet.")
    expect(one.get_by_label("Say something to the players")).to_be_visible()
    one.fill("#chat-input", "good luck")
    one.locator("#chat form button[type=submit]").click()
    expect(one.locator("#chat-lines")).to_contain_text("good luck")
    expect(two.locator("#chat-lines")).to_contain_text("good luck")  # live
    for page, viewport in ((one, PHONES[0]), (two, PHONES[1])):
        _checked(page, viewport, axe_source)
    two.locator("#chat-lines").get_by_role("button", name="Report").click()
    dialog = two.get_by_role("dialog", name="Report this line by ada")
    dialog.get_by_role("button", name="Send the report").click()
    expect(dialog).to_have_count(0)
    assert Report.objects.get().line_id == ChatLine.objects.get().pk
    # Once over, both rooms show as tabs.
    ChatLine.objects.create(match=match, author=UserFactory(username="cy"), room="spectators",
                            body="nice match")
    match_resign(user=bo, match_id=match.id)
    expect(one.get_by_role("tab", name="Spectators")).to_be_visible()
    one.get_by_role("tab", name="Spectators").click()
    expect(one.locator("#chat-lines")).to_contain_text("nice match")
    _checked(one, PHONES[0], axe_source)
