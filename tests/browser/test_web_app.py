"""The client as an installed app, in Chromium: installable by Chromium's own check, opening
offline with what was kept, moves made offline delivered once when the network is back (a stale
one refused with its explanation), the app badge, sign-out deleting what the device kept, and
the "Add to Home Screen" guide on an iPhone. Screenshots for the README's install guide."""

from __future__ import annotations

import json
import time

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.catalog import get_engine
from games.models import Match, Move
from games.services import match_create, match_move_submit, match_resign
from games.services.matches import SeatSpec
from tests.browser.api import call_api
from tests.browser.conftest import Web, web_pages
from tests.browser.matches import two_people_nibble
from tests.factories import UserFactory, token_for
from tests.notify.conftest import vapid  # noqa: F401 - a fixture

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]

PHONE = {"width": 390, "height": 844}
IPHONE_SAFARI = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
                 "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1")
SAVED = "saved on this device"


@pytest.fixture
def pages(request, browser, server_url):
    """Pages on the live server, without a worker: these matches need no bot."""
    with web_pages(request, browser, server_url) as client:
        yield client


def _screen(page, name: str) -> None:
    """A screenshot of what the phone's screen shows (for the README's install guide)."""
    page.screenshot(path=str(Web.shot_path(name)))


def _controlled(page) -> None:
    """Wait until the service worker is active and controls the page."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def _kept(page) -> dict[str, str]:
    """What the worker keeps of the player: {path: body}."""
    return page.evaluate("""async () => {
        if (!(await caches.has('boardpost-data'))) return {};
        const cache = await caches.open('boardpost-data');
        const found = {};
        for (const request of await cache.keys()) {
            const url = new URL(request.url);
            found[url.pathname + url.search] = await (await cache.match(request)).text();
        }
        return found;
    }""")


def _eventually(page, script: str, arg=None, seconds: float = 30.0):
    """The first answer of ``script`` (an async function, awaited) that is neither null nor
    false, polled from here every 0.2 s: Playwright's ``wait_for_function`` takes an async
    function's promise itself for a truthy answer and returns at once."""
    deadline = time.monotonic() + seconds
    while True:
        answer = page.evaluate(script, arg)
        if answer is not None and answer is not False:
            return answer
        assert time.monotonic() < deadline, f"still {answer!r} after {seconds} s: {script}"
        page.wait_for_timeout(200)


def _wait_kept(page, path: str) -> str:
    """The body the worker keeps for ``path``, once it keeps one (read in the same turn that
    finds it: the worker replaces an entry when a newer answer comes)."""
    return _eventually(page, """async (path) => {
        const cache = await caches.open('boardpost-data');
        const kept = await cache.match(path);
        return kept ? await kept.text() : null;
    }""", path)


def _kept_moves(page) -> int:
    return page.evaluate("""() => new Promise((resolve) => {
        const opening = indexedDB.open('boardpost-outbox', 1);
        opening.onupgradeneeded = () => {
            opening.result.createObjectStore('moves', {keyPath: 'id', autoIncrement: true});
            opening.result.createObjectStore('refused', {keyPath: 'id', autoIncrement: true});
        };
        opening.onsuccess = () => {
            const db = opening.result;
            const asked = db.transaction('moves').objectStore('moves').count();
            asked.onsuccess = () => { db.close(); resolve(asked.result); };
        };
    })""")


# ------------------------------------------------------------------ installable

def test_chromium_finds_the_app_installable(pages):
    page = pages.page(PHONE)
    page.goto("/")
    expect(page.get_by_role("heading", name="Play a bot now")).to_be_visible()
    _controlled(page)
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [], manifest["errors"]
    assert manifest["url"].endswith("/manifest.webmanifest")
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == [], errors


def test_the_play_a_bot_shortcut_opens_on_play_now(pages):
    page = pages.page(PHONE)
    page.goto("/?play=bot")
    heading = page.get_by_role("heading", name="Play a bot now")
    expect(heading).to_be_focused()
    expect(heading).to_be_in_viewport()


# ------------------------------------------------------------------ offline

def test_the_app_opens_offline_with_the_inbox_and_a_match_as_the_player_saw_them(pages):
    match = two_people_nibble()
    bo = User.objects.get(username="bo")
    page = pages.page_as(bo, PHONE)
    page.goto("/")
    expect(page.locator(f"a[href='/match/{match.id}']").first).to_be_visible()
    _controlled(page)
    page.reload()  # the worker now answers the page's requests and keeps them
    expect(page.locator(f"a[href='/match/{match.id}']").first).to_be_visible()
    kept = json.loads(_wait_kept(page, f"/api/matches/{match.id}"))
    _wait_kept(page, f"/api/matches/{match.id}/moves?after=0&limit=500")

    # What is kept is the player's own answer, nothing more (no seed, the same view).
    own = call_api(pages.base_url, token_for(bo), "GET", f"/api/matches/{match.id}")
    assert kept["view"] == own["view"] and kept.get("seed") is None

    page.context.set_offline(True)
    page.reload()
    banner = page.locator("#offline-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("You are offline.")
    # The banner fits the phone: nothing wider than its screen.
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    expect(page.locator(f"a[href='/match/{match.id}']").first).to_be_visible()
    _screen(page, "app-offline-inbox")
    page.locator(f"a[href='/match/{match.id}']").first.click()
    expect(page.locator("#match")).to_have_attribute("data-your-turn", "true")
    expect(page.locator("#move-log li")).to_have_count(1)
    page.context.set_offline(False)
    expect(banner).to_be_hidden()


def _on_bos_turn(pages, locale: str | None = None):
    """Bo's page on a Nibble match where it is his turn, the service worker answering it."""
    match = two_people_nibble()
    bo = User.objects.get(username="bo")
    page = pages.page_as(bo, PHONE, locale=locale)
    page.goto(f"/match/{match.id}")
    _controlled(page)
    page.reload()
    expect(page.locator("#match")).to_have_attribute("data-your-turn", "true")
    return match, bo, page


def _send_kept(page) -> None:
    """Ask the worker to send the kept moves (as a reconnect or a Background Sync does)."""
    page.evaluate("""() => new Promise((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = resolve;
        navigator.serviceWorker.controller.postMessage({type: 'outbox-flush'}, [channel.port2]);
    })""")


def _take_one_disc(page) -> None:
    """A Nibble take of one takeable disc (never illegal), made while offline."""
    page.locator('#board button[data-takeable="true"]').first.click()
    page.click("#nibble-take")


def test_a_move_made_offline_is_delivered_once_when_the_network_is_back(pages):
    match, bo, page = _on_bos_turn(pages)
    before = Move.objects.filter(match=match).count()

    page.context.set_offline(True)
    _take_one_disc(page)
    expect(page.locator("#move-message")).to_contain_text(SAVED)
    expect(page.locator("#match")).to_have_attribute("data-your-turn", "false")
    assert _kept_moves(page) == 1
    _screen(page, "app-offline-move")
    # Kept across a reload of the page, still offline.
    page.reload()
    expect(page.locator("#move-message")).to_contain_text(SAVED)
    assert Move.objects.filter(match=match).count() == before

    page.context.set_offline(False)
    expect(page.locator("#move-message")).to_contain_text("Your move made offline was sent.")
    expect(page.locator("#match")).to_have_attribute("data-version", str(match.version + 1))
    # Asked to send again (another reconnect, a Background Sync): nothing more goes.
    _send_kept(page)
    assert _kept_moves(page) == 0
    assert Move.objects.filter(match=match).count() == before + 1
    assert Move.objects.filter(match=match).last().seat == 1


def test_a_move_that_went_stale_offline_is_refused_with_its_explanation(pages):
    match, bo, page = _on_bos_turn(pages, locale="fr-FR")

    page.context.set_offline(True)
    _take_one_disc(page)
    expect(page.locator("#move-message")).to_contain_text("enregistré sur cet appareil")
    # Meanwhile the same player moves from another device: the kept move is now stale.
    engine = get_engine("nibble")
    current = Match.objects.get(id=match.id)
    other = next(iter(engine.legal_moves(engine.load(current.state), 1)))
    match_move_submit(user=bo, match_id=match.id, move=engine.dump_move(other),
                      expected_version=current.version)
    count = Move.objects.filter(match=match).count()

    page.context.set_offline(False)
    message = page.locator("#move-message")
    expect(message).to_contain_text("Votre coup joué hors ligne n’a pas été joué")
    expect(page.locator("#match")).to_have_attribute("data-refused", "stale_version")
    # The match as it now is: the other device's move, and it is not this player's turn.
    expect(page.locator("#match")).to_have_attribute("data-version", str(current.version + 1))
    expect(page.locator("#match")).to_have_attribute("data-your-turn", "false")
    _screen(page, "app-offline-move-refused")
    assert Move.objects.filter(match=match).count() == count
    assert _kept_moves(page) == 0


def test_signing_out_deletes_what_the_device_kept(pages):
    match, bo, page = _on_bos_turn(pages)
    page.context.set_offline(True)
    _take_one_disc(page)
    expect(page.locator("#move-message")).to_contain_text(SAVED)
    _wait_kept(page, f"/api/matches/{match.id}")
    assert _kept_moves(page) == 1
    count = Move.objects.filter(match=match).count()

    # Signing out (still offline: the token's revocation waits for no network).
    page.locator("#nav-toggle").click()
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url("**/signin")
    _eventually(page, "async () => !(await caches.has('boardpost-data'))")
    assert _kept(page) == {}
    assert _kept_moves(page) == 0
    assert page.evaluate("() => localStorage.getItem('boardpost.token')") is None
    # Back online, the deleted move is never sent.
    page.context.set_offline(False)
    _send_kept(page)
    assert Move.objects.filter(match=match).count() == count


# ------------------------------------------------------------------ the badge

BADGE_STUB = """
window.__badges = [];
navigator.setAppBadge = (n) => { window.__badges.push(n); return Promise.resolve(); };
navigator.clearAppBadge = () => { window.__badges.push(0); return Promise.resolve(); };
"""


def test_the_app_badge_counts_the_matches_waiting_for_the_player(pages):
    match = two_people_nibble()  # bo's turn
    bo = User.objects.get(username="bo")
    cy = UserFactory(username="cy", password="a long enough passphrase")
    page = pages.page_as(bo, PHONE)
    page.context.add_init_script(BADGE_STUB)
    page.goto("/")
    page.wait_for_function("() => window.__badges.at(-1) === 1")
    # An invitation arrives (through the feed): two matches wait now.
    match_create(user=cy, game="nibble", rated=False,
                 seats=[SeatSpec("me"), SeatSpec("user", username="bo")])
    page.wait_for_function("() => window.__badges.at(-1) === 2")
    # Ada resigns the first match (the feed says it ended): one left.
    match_resign(user=User.objects.get(username="ada"), match_id=match.id)
    page.wait_for_function("() => window.__badges.at(-1) === 1")
    expect(page.locator("#turn-badge")).to_have_text("1")


# ------------------------------------------------------------------ iPhone

def test_on_an_iphone_asking_for_push_shows_the_add_to_home_screen_guide(
        pages, server_url, vapid):  # noqa: F811 - the fixture
    user = UserFactory(username="ivy", password="a long enough passphrase")
    context = pages.browser.new_context(viewport=PHONE, base_url=server_url, is_mobile=True,
                                        has_touch=True, user_agent=IPHONE_SAFARI)
    pages.contexts.append(context)
    context.add_init_script(
        f"localStorage.setItem('boardpost.token', {token_for(user)!r});"
        f"localStorage.setItem('boardpost.username', {user.username!r});")
    page = context.new_page()
    page.goto("/notifications")
    guide = page.locator("#install-guide")
    expect(guide).to_be_visible()
    expect(guide).to_contain_text("Add to Home Screen")
    expect(page.locator("#push-enable")).to_have_count(0)
    guide.scroll_into_view_if_needed()
    _screen(page, "app-ios-guide")

