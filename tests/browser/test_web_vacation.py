"""The vacation section of the settings page in Chromium, on the live server: going on and
coming back from vacation with the bank shown in days and hours, the auto-vacation switch and
the reminder offsets, at a phone's width, in every language, axe-core clean, no console error.
And what the others see: an "on vacation" badge after the player's name on the match page, in
the inbox's lists and invitations, in the lobby's open seats and on the player's page, at a
phone's width (375 px), in every language; and a match page's log telling when a player's
clock stopped for a vacation and ran again.
"""

from __future__ import annotations

import re

import pytest

from games.models import Vacation
from games.notify.models import NotificationSettings
from games.services import match_create, match_join
from games.services.matches import SeatSpec
from games.services.vacations import vacation_end, vacation_start
from tests.browser.checks import PHONE, axe_violations, overflow
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

PHONE_375 = {"width": 375, "height": 812}
# Per language: the browser's locale, the section's heading, the button that starts a
# vacation, and the bank of a new account (20 days) as the page writes it.
LANGUAGES = {
    "en": ("en-US", "Vacation", "Go on vacation", "20 days"),
    "fr": ("fr-FR", "Vacances", "Partir en vacances", "20 jours"),
    "pt-br": ("pt-BR", "Férias", "Sair de férias", "20 dias"),
    "ko": ("ko-KR", "휴가", "휴가 시작", "20일"),
}


def _page(web, user, *, locale: str = "en-US", viewport: dict | None = None):
    """A signed-in page with the browser's locale (a phone unless told otherwise); its errors
    fail the test."""
    return web.page_as(user, viewport or PHONE, bypass_csp=True, locale=locale)


def _overflow(page, viewport: dict = PHONE) -> int:
    return overflow(page, viewport["width"])


def test_going_on_vacation_and_back_with_auto_vacation_and_reminders(pages, axe_source):
    user = UserFactory(username="traveller", password="a long enough passphrase")
    page = _page(pages, user)
    page.goto("/notifications")
    status = page.locator("#vacation-status")
    expect(status).to_have_text("Vacation time in your bank: 20 days.")
    toggle = page.locator("#vacation-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert _overflow(page) <= 0
    assert axe_violations(page, axe_source) == []

    toggle.click()
    expect(status).to_contain_text("You are on vacation")
    expect(status).to_contain_text("20 days left")
    expect(toggle).to_have_text("End my vacation")
    assert Vacation.objects.get(user=user).runs_out_at is not None
    pages.shot(page, "vacation-on-phone360")
    toggle.click()
    expect(toggle).to_have_text("Go on vacation")
    # The seconds spent on vacation are gone from the bank: the page rounds down.
    expect(status).to_have_text(
        re.compile(r"Vacation time in your bank: (20 days|19 days 23 hours)\."))
    assert Vacation.objects.get(user=user).runs_out_at is None

    auto = page.locator("#auto-vacation")
    expect(auto).to_be_checked()
    with page.expect_response(lambda r: r.url.endswith("/api/me/vacation")
                              and r.request.method == "PATCH"):
        auto.uncheck()
    assert Vacation.objects.get(user=user).auto_vacation is False
    page.reload()
    expect(page.locator("#auto-vacation")).not_to_be_checked()

    offsets = page.locator("#reminder-offsets")
    for seconds in ("86400", "14400", "3600"):
        expect(offsets.locator(f"[data-offset='{seconds}']")).to_be_checked()
    with page.expect_response(lambda r: r.url.endswith("/api/me/notifications")
                              and r.request.method == "PATCH"):
        offsets.locator("[data-offset='900']").check()
    assert NotificationSettings.objects.get(user=user).reminder_offsets == [
        86400, 14400, 3600, 900]
    with page.expect_response(lambda r: r.url.endswith("/api/me/notifications")
                              and r.request.method == "PATCH"):
        offsets.locator("[data-offset='1800']").check()
    # A sixth is refused on the page, with the server's limit said, and nothing saved.
    offsets.locator("[data-offset='7200']").click()
    expect(page.locator("#notice")).to_contain_text("at most 5")
    expect(offsets.locator("[data-offset='7200']")).not_to_be_checked()
    assert len(NotificationSettings.objects.get(user=user).reminder_offsets) == 5
    assert _overflow(page) <= 0


@pytest.mark.parametrize("language", ["fr", "pt-br", "ko"])
def test_the_section_in_every_language(pages, language):
    locale, heading, start, bank = LANGUAGES[language]
    user = UserFactory(username=f"away_{language.replace('-', '_')}",
                       password="a long enough passphrase")
    page = _page(pages, user, locale=locale)
    page.goto("/notifications")
    expect(page.locator("#vacation-heading")).to_have_text(heading)
    expect(page.locator("#vacation-toggle")).to_have_text(start)
    expect(page.locator("#vacation-status")).to_contain_text(bank)
    text = page.locator("#vacation").inner_text()
    for english in ("Vacation time", "Go on vacation", "Auto-vacation", "Remind me"):
        assert english not in text, (language, english)
    assert _overflow(page) <= 0
    pages.shot(page, f"vacation-{language}-phone360")


# The badge in each language.
AWAY = {"en": "on vacation", "fr": "en vacances", "pt-br": "de férias", "ko": "휴가 중"}


def test_others_see_the_badge_wherever_the_player_is_named(pages, axe_source):
    """In French, on a phone 375 px wide: the match page, the inbox (a running match, an
    invitation), the lobby's open seats and the player's page mark basile, and nobody else;
    each page fits the screen and axe-core finds nothing. Back from vacation, the mark is gone."""
    match = two_people_nibble("anne", "basile")
    anne, basile = (seat.user for seat in match.seats.order_by("index"))
    match_create(user=basile, game="nimble", seats=[SeatSpec("me"),
                                                    SeatSpec("user", username="anne")])
    match_create(user=basile, game="nimble", seats=[SeatSpec("me"), SeatSpec("open")])
    vacation_start(user=basile)
    page = _page(pages, anne, locale="fr-FR", viewport=PHONE_375)

    page.goto(f"/match/{match.id}")
    badge = page.locator(".seat-chip[data-seat='1'] [data-away]")
    expect(badge).to_have_text(AWAY["fr"])
    expect(page.locator(".seat-chip[data-seat='0'] [data-away]")).to_have_count(0)
    assert _overflow(page, PHONE_375) <= 0
    assert axe_violations(page, axe_source) == []
    pages.shot(page, "away-match-fr-phone375")

    page.goto("/")
    row = page.locator(f"#match-list tr[data-match='{match.id}']")
    expect(row.locator("[data-away]")).to_have_text(AWAY["fr"])
    expect(page.locator(".invitation [data-away]")).to_have_text(AWAY["fr"])
    assert _overflow(page, PHONE_375) <= 0
    assert axe_violations(page, axe_source) == []
    pages.shot(page, "away-inbox-fr-phone375")

    page.goto("/lobby")
    expect(page.locator(".open-list [data-away]")).to_have_text(AWAY["fr"])
    assert _overflow(page, PHONE_375) <= 0
    assert axe_violations(page, axe_source) == []

    page.goto("/player/basile")
    expect(page.locator("h1 [data-away]")).to_have_text(AWAY["fr"])
    assert _overflow(page, PHONE_375) <= 0
    assert axe_violations(page, axe_source) == []
    pages.shot(page, "away-player-fr-phone375")
    page.goto("/player/anne")
    expect(page.get_by_role("heading", level=1)).to_have_text("anne")
    expect(page.locator("[data-away]")).to_have_count(0)

    vacation_end(user=basile)
    page.goto(f"/match/{match.id}")
    expect(page.locator(".seat-chip[data-seat='1']")).to_contain_text("basile")
    expect(page.locator("[data-away]")).to_have_count(0)


@pytest.mark.parametrize("language", ["en", "pt-br", "ko"])
def test_the_badge_in_every_language(pages, language):
    first, second = (f"{name}_{language.replace('-', '_')}" for name in ("host", "away"))
    match = two_people_nibble(first, second)
    host = match.seats.get(index=0).user
    vacation_start(user=match.seats.get(index=1).user)
    page = _page(pages, host, locale=LANGUAGES[language][0], viewport=PHONE_375)
    page.goto(f"/match/{match.id}")
    expect(page.locator(".seat-chip[data-seat='1'] [data-away]")).to_have_text(AWAY[language])
    assert _overflow(page, PHONE_375) <= 0
    pages.shot(page, f"away-match-{language}-phone375")


def test_the_match_log_tells_of_a_players_vacation(pages):
    ada = UserFactory(username="ada", password="a long enough passphrase")
    bo = UserFactory(username="bo", password="a long enough passphrase")
    match = match_create(user=ada, game="nibble", config={"first_seat": 0},
                         time_control={"kind": "per_move", "turn_seconds": 86400},
                         seats=[SeatSpec("me"), SeatSpec("user", username="bo")])
    match_join(user=bo, match_id=match.id)
    vacation_start(user=ada)
    page = _page(pages, bo, viewport={"width": 1280, "height": 900})
    page.goto(f"/match/{match.id}")
    log = page.locator("#move-log")
    expect(log).to_contain_text("server: ada is on vacation: their clock stopped")
    vacation_end(user=ada)
    page.reload()
    expect(page.locator("#move-log")).to_contain_text(
        "server: ada is back from vacation: their clock runs again")
    mine = _page(pages, ada, viewport={"width": 1280, "height": 900}, locale="fr-FR")
    mine.goto(f"/match/{match.id}")
    expect(mine.locator("#move-log")).to_contain_text("est en vacances : son temps est arrêté")
