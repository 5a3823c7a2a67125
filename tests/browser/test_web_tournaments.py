"""The tournament pages in Chromium, on the live server with a worker playing the bots: a Swiss
created through the form with bots, joined, its standings and crosstable after a round, and a
withdrawal; a ladder challenge from the ladder's page; the list's filters; the player page's
tournament history. At phones' widths (360 and 390 px) with nothing wider than the screen,
axe-core clean, in every language, no console error."""

from __future__ import annotations

import re

import pytest

from games.services import match_resign
from games.tournaments.models import Entry, Pairing, Tournament
from games.tournaments.services.due import tournament_advance
from games.tournaments.services.ladder import ladder_order
from tests.browser.test_web_social import PHONES, _checked
from tests.factories import UserFactory
from tests.tournaments.helpers import running_pairings, started, tournament_with

try:
    from playwright.sync_api import expect
except ImportError:  # pragma: no cover - the browser fixture skips
    expect = None

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]

# Per language: the browser's locale and the list page's heading.
LANGUAGES = {"en": ("en-US", "Tournaments"), "fr": ("fr-FR", "Tournois"),
             "pt-br": ("pt-BR", "Torneios"), "ko": ("ko-KR", "토너먼트")}


def test_a_swiss_with_bots_created_joined_played_a_round_and_left(web, axe_source):
    ada = UserFactory(username="ada")
    page = web.page_as(ada, PHONES[0], bypass_csp=True)
    page.goto("/tournaments")
    expect(page.get_by_role("heading", name="Tournaments", exact=True)).to_be_visible()
    page.get_by_role("link", name="Create a tournament").click()
    page.fill("#t-name", "Winter Swiss")
    page.select_option("#t-game", "nibble")
    page.select_option("#t-format", "swiss")
    page.fill("#t-rounds", "2")
    page.check("#t-bots")
    page.uncheck("#t-plans")
    _checked(page, PHONES[0], axe_source)
    page.get_by_role("button", name="Create tournament").click()
    expect(page.get_by_role("heading", name="Winter Swiss")).to_be_visible()
    tournament = Tournament.objects.get(name="Winter Swiss")
    assert (tournament.rounds, tournament.bots_allowed, tournament.plans_allowed) == (2, True,
                                                                                     False)
    page.get_by_role("button", name="Join", exact=True).click()
    expect(page.locator("#my-state")).to_have_text("You have entered.")
    page.get_by_role("button", name="Enter a bot").click()
    expect(page.locator("#standings tbody tr")).to_have_count(2)
    _checked(page, PHONES[0], axe_source)

    started(tournament)
    (pairing,) = running_pairings(tournament)
    page.reload()
    expect(page.get_by_role("link", name="Your next match")).to_have_attribute(
        "href", f"/match/{pairing.match_id}")
    match_resign(user=ada, match_id=pairing.match_id)
    tournament_advance(tournament_id=tournament.id)
    page.reload()
    bot = page.locator("#standings tbody tr").first
    expect(bot).not_to_have_attribute("data-player", "ada")
    expect(bot.locator("td").nth(1)).to_have_text("1")
    expect(page.locator("dl.tie-breaks")).to_contain_text("Buchholz")
    expect(page.locator("#crosstable")).to_contain_text("0 against")
    expect(page.locator("#rounds details[data-round='2']")).to_have_attribute("open", "")
    _checked(page, PHONES[0], axe_source)

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Withdraw").click()
    expect(page.locator("#my-state")).to_have_text("You are out: withdrew.")
    assert Entry.objects.get(tournament=tournament, user=ada).withdrawal == "withdrew"
    page.goto("/player/ada")
    expect(page.locator("#tournament-history")).to_contain_text("Winter Swiss")
    # The inbox's activity (in a fresh tab: the feed from its start) names the tournament's
    # entries and links to them.
    page.evaluate("sessionStorage.clear()")
    page.goto("/")
    expect(page.get_by_role("link", name="Winter Swiss: your match of round 2")).to_have_attribute(
        "href", re.compile(r"^/match/"))
    expect(page.get_by_role("link", name="Winter Swiss: withdrew")).to_have_attribute(
        "href", f"/tournament/{tournament.id}")


def test_a_ladder_challenge_from_the_ladder_page(web, axe_source):
    creator = UserFactory()
    bo, cy, ada = (UserFactory(username=name) for name in ("bo", "cy", "ada"))
    tournament = started(tournament_with(creator, [bo, cy, ada], format="ladder", rounds=None,
                                         name="Club ladder"))
    assert ladder_order(tournament) == [bo.id, cy.id, ada.id]
    page = web.page_as(ada, PHONES[1], bypass_csp=True)
    page.goto(f"/tournament/{tournament.id}")
    expect(page.get_by_role("heading", name="The ladder")).to_be_visible()
    expect(page.get_by_role("button", name="Challenge bo")).to_be_visible()
    _checked(page, PHONES[1], axe_source)
    page.get_by_role("button", name="Challenge cy").click()
    expect(page.locator("#challenges")).to_contain_text("ada – cy")
    expect(page.get_by_role("button", name="Challenge bo")).to_have_count(0)
    pairing = Pairing.objects.get(tournament=tournament)
    assert pairing.players == [ada.id, cy.id]
    expect(page.get_by_role("link", name="Your next match")).to_have_attribute(
        "href", f"/match/{pairing.match_id}")
    _checked(page, PHONES[1], axe_source)


def test_the_list_filters(web):
    ada = UserFactory(username="ada")
    creator = UserFactory()
    tournament_with(creator, [ada], name="Mine")
    tournament_with(creator, [], name="Ladder for all", format="ladder", rounds=None)
    page = web.page_as(ada, PHONES[0])
    page.goto("/tournaments")
    expect(page.locator("#tournament-list > li")).to_have_count(2)
    page.check("#filter-mine")
    expect(page.locator("#tournament-list > li")).to_have_count(1)
    expect(page.locator("#tournament-list")).to_contain_text("Mine")
    assert "mine=true" in page.url
    page.uncheck("#filter-mine")
    page.select_option("#filter-status", "finished")
    expect(page.locator("#tournament-list")).to_contain_text(
        "No tournament matches these filters.")


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_tournament_pages_in_every_language_at_390(web, axe_source, language):
    locale, heading = LANGUAGES[language]
    user = UserFactory()
    tournament = started(tournament_with(UserFactory(), [user, UserFactory()],
                                         name="Nibble Swiss"))
    page = web.page_as(user, PHONES[1], bypass_csp=True, locale=locale)
    for path in ("/tournaments", "/tournaments/new", f"/tournament/{tournament.id}"):
        page.goto(path)
        page.wait_for_selector("#tournament-list > li, #tournament-form, #standings")
        _checked(page, PHONES[1], axe_source)
    page.goto("/tournaments")
    expect(page.locator("h1")).to_have_text(heading)
