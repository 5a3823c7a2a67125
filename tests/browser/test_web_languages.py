"""The web client in English, French, Brazilian Portuguese and Korean.

The match page of each game in each language, at a desktop's and two phones' widths: the page is
in that language (``<html lang>``, translated words on screen, no English left in the header and
the game's controls), nothing is wider than the screen, and Korean renders with a Hangul font.
The language menu switches the page (and a signed-in player's own choice), and a first visit
follows the browser's language. Screenshots go to test-artifacts/screenshots/.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.nimalia.objectives import OBJECTIVES
from games.services.matches import SeatSpec, match_create
from tests.browser.checks import overflow
from tests.browser.conftest import HANGUL_FONT_FAMILY, needs_hangul_font
from tests.factories import UserFactory, token_for

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]

GAMES = ("nibble", "nimble", "nimalia")
VIEWPORTS = {"desktop": {"width": 1280, "height": 900},
             "phone390": {"width": 390, "height": 844},
             "phone360": {"width": 360, "height": 780}}
CONFIG = {"nimble": {"mode": "turns"}, "nimalia": {"objectives": "first_game"}}

# Per language: the browser's locale (its Accept-Language), the page's <html lang>, words the
# page must show (the header's, the match page's and each game's), and English words that must
# not be left in the header or the game's controls.
LANGUAGES = {
    "en": {
        "locale": "en-US", "lang": "en",
        "nav": "Inbox", "moves": "Moves",
        "game": {"nibble": "Colour", "nimble": "Your piles", "nimalia": "Your hand"},
    },
    "fr": {
        "locale": "fr-FR", "lang": "fr",
        "nav": "Boîte de réception", "moves": "Coups",
        "game": {"nibble": "Couleur", "nimble": "Vos tas", "nimalia": "Votre main"},
    },
    "pt-br": {
        "locale": "pt-BR", "lang": "pt-br",
        "nav": "Caixa de entrada", "moves": "Jogadas",
        "game": {"nibble": "Cor", "nimble": "Suas pilhas", "nimalia": "Sua mão"},
    },
    "ko": {
        "locale": "ko-KR", "lang": "ko",
        "nav": "받은 편지함", "moves": "수순",
        "game": {"nibble": "색", "nimble": "내 더미", "nimalia": "내 손패"},
    },
}
# English words of the header and of each game's controls (whole words; none of them is also
# the translation of something in another language).
ENGLISH_HEADER = ["Inbox", "New match", "Leaderboards", "Rules", "Sign out"]
ENGLISH_CONTROLS = {
    "nibble": ["Take", "Clear selection", "Takeable", "discs left", "Colour"],
    "nimble": ["Your piles", "Flip", "Return", "Recycle", "End turn", "Stack", "Cards left"],
    "nimalia": ["Your hand", "Rotate left", "Rotate right", "Your reserve", "Objectives",
                "Round card"],
}
HANGUL_FONT = f'16px "{HANGUL_FONT_FAMILY}"'
RELOAD_MS = 30_000  # a reload fetches the page and its modules again (slow on a busy machine)


def _page(web, *, locale: str | None = None, viewport: dict | None = None, user=None):
    """A page in a fresh browser context with the given locale (Accept-Language), signed in as
    ``user`` if given; page errors fail the test like the other browser tests' pages."""
    viewport = viewport or VIEWPORTS["desktop"]
    if user is None:
        return web.page(viewport, locale=locale)
    return web.page_as(user, viewport, locale=locale)


def _choose(page, name: str, lang: str) -> None:
    """Pick ``name`` in the header's language menu; wait for the page to come back in ``lang``."""
    page.locator("#language-menu summary").click()
    with page.expect_navigation(wait_until="load", timeout=RELOAD_MS):
        page.locator("#language-menu").get_by_role("button", name=name).click()
    page.wait_for_function("lang => document.documentElement.lang === lang"
                           " && document.getElementById('language-menu')", arg=lang,
                           timeout=RELOAD_MS)


def _hangul_renders(page) -> bool:
    """Korean text has a real Hangul font: ``document.fonts.check`` says the font is ready
    (Chromium also says so for a font it does not have), and text measured in it differs from
    the fallback's while a font that does not exist measures as the fallback."""
    return page.evaluate("""font => {
        const context = document.createElement('canvas').getContext('2d');
        const width = (f) => {
            context.font = f;
            return context.measureText('Boardpost 한글').width;
        };
        return document.fonts.check(font, '한')
            && width('32px "Noto Sans CJK KR", monospace') !== width('32px monospace')
            && width('32px "No Such Font", monospace') === width('32px monospace');
    }""", HANGUL_FONT)


def _english_left(text: str, words: list[str]) -> list[str]:
    return [word for word in words if re.search(rf"(?<![\w]){re.escape(word)}(?![\w])", text)]


@pytest.mark.parametrize("language", [
    pytest.param(language, marks=[needs_hangul_font] if language == "ko" else [])
    for language in LANGUAGES])
@pytest.mark.parametrize("game", GAMES)
def test_the_match_page_in_each_language_fits_every_width(web, game, language):
    words = LANGUAGES[language]
    user = UserFactory(username=f"reader_{game}", password="a long enough passphrase")
    match = match_create(user=user, game=game, config=CONFIG.get(game),
                         seats=[SeatSpec("me"), SeatSpec("bot", level=1)], rated=False)
    for name, viewport in VIEWPORTS.items():
        page = _page(web, locale=words["locale"], viewport=viewport, user=user)
        page.goto(f"/match/{match.id}")
        web.wait_for_turn_or_end(page)
        page.wait_for_function("() => !document.querySelector('[aria-busy=\"true\"]')")
        assert page.get_attribute("html", "lang") == words["lang"]
        nav = page.locator("#nav")
        expect(nav).to_contain_text(words["nav"])
        expect(page.locator("#log-h")).to_have_text(words["moves"])
        expect(page.locator("#board")).to_contain_text(words["game"][game])
        if language != "en":
            header = page.locator("header.top").inner_text()
            controls = page.locator("#board").inner_text()
            assert _english_left(header, ENGLISH_HEADER) == [], (name, header)
            assert _english_left(controls, ENGLISH_CONTROLS[game]) == [], (name, controls)
        page.wait_for_timeout(200)
        assert overflow(page, viewport["width"]) <= 0, (name, overflow(page, viewport["width"]))
        header_box = page.locator("header.top").bounding_box()
        assert header_box["height"] <= 64, (name, header_box)
        if language == "ko":
            assert _hangul_renders(page)
            family = page.evaluate("() => getComputedStyle(document.body).fontFamily")
            assert "Noto Sans CJK KR" in family, family
        web.shot(page, f"language-{game}-{language}-{name}")


def test_a_french_nimalia_page_names_the_objectives_in_french(web):
    """The API sends the objectives in English (the same answer for every language); the page
    shows them in French, in the list, its texts and the badges' tooltips, and no English name."""
    user = UserFactory(username="lecteur_nimalia", password="a long enough passphrase")
    match = match_create(user=user, game="nimalia", config=CONFIG["nimalia"],
                         seats=[SeatSpec("me"), SeatSpec("bot", level=1)], rated=False)
    page = _page(web, locale="fr-FR", user=user)
    page.goto(f"/match/{match.id}")
    web.wait_for_turn_or_end(page)
    objectives = page.locator("#board .objectives")
    expect(objectives).to_contain_text("Les gorilles au bord du lac")
    expect(objectives).to_contain_text("2 par gorille à côté d’une case de lac.")
    expect(objectives).to_contain_text("Manchots solitaires")
    board = page.locator("#board").inner_text()
    english = [o.name for o in OBJECTIVES.values()] + [o.text for o in OBJECTIVES.values()]
    assert [text for text in english if text in board] == [], board
    tooltips = page.locator("#board .round-card .obj-badge").evaluate_all(
        "badges => badges.map((b) => b.title)")
    assert "La plus grande savane (bleu)" in tooltips, tooltips
    web.shot(page, "language-nimalia-fr-objectives")


def test_the_language_menu_switches_the_page_and_the_players_choice(web):
    user = UserFactory(username="polyglot", password="a long enough passphrase")
    page = _page(web, user=user)
    page.goto("/")
    expect(page.get_by_role("heading", name="Inbox")).to_be_visible()
    assert page.get_attribute("html", "lang") == "en"
    menu = page.locator("#language-menu")
    # Its name starts with the code it shows (label in name, WCAG 2.5.3).
    expect(menu.locator("summary")).to_have_accessible_name("EN Language: English")
    menu.locator("summary").click()
    expect(menu.get_by_role("button", name="Français")).to_be_visible()
    web.shot(page, "language-menu-open")
    menu.locator("summary").click()
    _choose(page, "Français", "fr")
    expect(page.get_by_role("heading", name="Boîte de réception")).to_be_visible(
        timeout=RELOAD_MS)
    assert page.get_attribute("html", "lang") == "fr"
    expect(page.locator("#language-menu summary")).to_have_accessible_name(
        "FR Langue\u00a0: Français")  # French: a no-break space before the colon
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    assert cookies.get("django_language") == "fr"
    user.refresh_from_db()
    assert user.language == "fr"
    me = page.evaluate("""async (token) => (await fetch('/api/me', {
        headers: {Authorization: `Token ${token}`}})).json()""", token_for(user))
    assert me["language"] == "fr"
    # The next page load stays in French; back to English the same way.
    page.goto("/leaderboards")
    expect(page.get_by_role("heading", name="Classements")).to_be_visible(timeout=RELOAD_MS)
    _choose(page, "English", "en")
    expect(page.get_by_role("heading", name="Leaderboards")).to_be_visible(timeout=RELOAD_MS)
    user.refresh_from_db()
    assert user.language == "en"


def test_a_visitor_switches_language_with_the_menu_alone(web):
    page = _page(web)
    page.goto("/")
    expect(page.get_by_role("heading", name="Welcome to Boardpost")).to_be_visible()
    _choose(page, "Português (Brasil)", "pt-br")
    expect(page.get_by_role("heading", name="Boas-vindas ao Boardpost")).to_be_visible(
        timeout=RELOAD_MS)
    assert {c["name"]: c["value"] for c in page.context.cookies()}["django_language"] == "pt-br"


@needs_hangul_font
def test_a_first_visit_follows_the_browsers_language(web):
    page = _page(web, locale="ko-KR")
    page.goto("/")
    assert page.get_attribute("html", "lang") == "ko"
    expect(page.get_by_role("heading", name="Boardpost에 오신 것을 환영합니다")).to_be_visible()
    expect(page.locator("#nav")).to_contain_text("로그인")
    assert _hangul_renders(page)
    web.shot(page, "language-first-visit-ko")
    # A browser that asks for no language Boardpost has, and one that asks for none: English.
    for locale in ("de-DE", None):
        other = _page(web, locale=locale)
        other.goto("/")
        assert other.get_attribute("html", "lang") == "en"
        expect(other.get_by_role("heading", name="Welcome to Boardpost")).to_be_visible()


def test_a_players_choice_made_elsewhere_is_followed_at_sign_in(web):
    user = UserFactory(username="traveller", password="a long enough passphrase",
                       language="fr")
    page = _page(web, user=user)
    page.goto("/")
    # The page loads in the browser's language, then follows the player's own choice: it reads
    # the player (beside the inbox's own reads), then loads again, modules and all.
    page.wait_for_function("() => document.documentElement.lang === 'fr'",
                           timeout=2 * RELOAD_MS)
    expect(page.get_by_role("heading", name="Boîte de réception")).to_be_visible(
        timeout=RELOAD_MS)
    assert page.get_attribute("html", "lang") == "fr"
