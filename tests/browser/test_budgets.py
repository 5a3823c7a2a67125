"""What CI checks of the phone budgets, none of which depends on the machine's speed: Lighthouse's
accessibility score of 100 on the home page, the inbox and a match page of each game (the same
run as `make lighthouse`, scripts/lighthouse.py, accessibility only), and the JavaScript a match
page is sent, within the budget the README states."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.catalog import games
from games.services.matches import SeatSpec, match_create
from scripts import lighthouse
from tests.browser.conftest import npm_packages
from tests.factories import UserFactory, token_for

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
GAMES = sorted(games())
CONFIG = {"nibble": {"first_seat": 0}, "nimble": {"mode": "turns"},
          "nimalia": {"objectives": "first_game"}}


def js_budget() -> int:
    """The budget the README states, in bytes: "... sent at most **N kB** of JavaScript"."""
    found = re.search(r"at most \*\*(\d+) kB\*\* of JavaScript", README.read_text())
    assert found, "the README states the match page's JavaScript budget"
    return int(found.group(1)) * 1000


@pytest.fixture
def player_with_matches(transactional_db):
    user = UserFactory(username="measured", password="a long enough passphrase")
    ids = {game: str(match_create(user=user, game=game, config=CONFIG.get(game), rated=False,
                                  seats=[SeatSpec("me"), SeatSpec("bot", level=1)]).id)
           for game in GAMES}
    return user, ids


@pytest.mark.parametrize("game", GAMES)
def test_a_match_page_is_sent_no_more_javascript_than_the_budget(web, player_with_matches,
                                                                   game):
    user, ids = player_with_matches
    page = web.page_as(user, {"width": 390, "height": 844})
    sent = {}

    def count(response):
        if response.request.resource_type == "script" or response.url.endswith(".js"):
            sent[response.url] = response.request.sizes()["responseBodySize"]

    page.on("response", count)
    page.goto(f"/match/{ids[game]}")
    web.wait_for_turn_or_end(page)
    page.wait_for_timeout(500)  # the live updates keep the network busy: no "idle"
    total = sum(sent.values())
    print(f"{game}: {len(sent)} scripts, {total} bytes")
    assert total <= js_budget(), (total, sorted(sent.items(), key=lambda item: -item[1])[:5])
    # Compressed as the browser accepts: Brotli or gzip, not the plain files.
    assert all(size < 40_000 for size in sent.values()), sent


def test_lighthouse_finds_every_page_accessible(web, player_with_matches, server_url):
    user, ids = player_with_matches
    # make lint reinstalls games/web's packages under the same lock (the Makefile's
    # WEB_NPM_LOCK): none of them vanishes while Lighthouse runs.
    with npm_packages(ROOT / "games" / "web", lighthouse.LIGHTHOUSE, "web-npm.lock",
                      "the Lighthouse checks"):
        scores = lighthouse.audit(server_url, token_for(user), user.username, ids,
                                  ["accessibility"], web.browser.browser_type)
    assert set(scores) == {"home", "inbox", *(f"match ({game})" for game in GAMES)}
    assert lighthouse.failures(scores) == [], scores
