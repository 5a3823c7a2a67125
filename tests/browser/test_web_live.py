"""The match page's live updates in a real browser: it follows the match's Server-Sent Events
stream, shows a reply that lands while the page's own move is still in flight, and long-polls
where streams do not get through. The opponent is a second player moving through the API, so
each test decides when the other move lands."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from games.models import Match
from games.services.matches import SeatSpec, match_create
from tests.browser.api import call_api
from tests.factories import UserFactory, token_for

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]

FAST_MS = 6_000  # well under the long-poll's 25 s wait: only a live message can be this quick


class Opponent:
    """Bea, who plays her seat of the match through the API."""

    def __init__(self, base_url: str, user: object, match_id: str) -> None:
        self.base_url = base_url
        self.path = f"/api/matches/{match_id}"
        self.token = token_for(user)

    def join(self) -> None:
        call_api(self.base_url, self.token, "POST", f"{self.path}/join")

    def move(self) -> None:
        detail = call_api(self.base_url, self.token, "GET", self.path)
        assert detail["is_your_turn"], detail["to_act"]
        cells = next(iter(detail["legal_moves"]["takeable"].values()))
        call_api(self.base_url, self.token, "POST", f"{self.path}/moves",
                 {"move": {"take": [cells[0]]}, "expected_version": detail["version"]})


def _match(web) -> tuple[object, Match, Opponent]:
    alice, bea = UserFactory(username="alice"), UserFactory(username="bea")
    match = match_create(user=alice, game="nibble", config={"first_seat": 0},
                         seats=[SeatSpec("me"), SeatSpec("user", username="bea")], rated=False)
    opponent = Opponent(web.base_url, bea, str(match.id))
    opponent.join()
    return alice, match, opponent


def _requested(page) -> list[str]:
    urls: list[str] = []
    page.on("request", lambda request: urls.append(request.url))
    return urls


def test_the_match_page_follows_its_stream(web):
    alice, match, bea = _match(web)
    page = web.page_as(alice)
    urls = _requested(page)
    page.goto(f"/match/{match.id}")
    for _ in range(2):
        web.wait_for_turn_or_end(page)
        web.nibble_turn(page)
        expect(page.locator("#status-line")).not_to_contain_text("Your turn")
        bea.move()
        expect(page.locator("#status-line")).to_contain_text("Your turn", timeout=FAST_MS)
    assert any(f"/api/matches/{match.id}/stream?" in url for url in urls), urls
    assert not any(f"/api/matches/{match.id}/events?" in url for url in urls), urls


def test_a_reply_that_lands_while_the_own_move_is_in_flight_shows(web):
    alice, match, bea = _match(web)
    # The test holds the move's answer back with page.route, which the offline worker's own
    # requests would pass by.
    page = web.page_as(alice, service_workers="block")
    page.goto(f"/match/{match.id}")
    web.wait_for_turn_or_end(page)

    def answer_after_the_reply(route):
        if route.request.method != "POST":
            route.continue_()
            return
        answer = route.fetch()  # alice's move is made; her page does not have the answer yet
        bea.move()
        time.sleep(0.5)  # the stream's messages of both moves reach the page first
        route.fulfill(response=answer)

    page.route(re.compile(rf".*/api/matches/{match.id}/moves$"), answer_after_the_reply)
    web.nibble_turn(page)
    match.refresh_from_db()
    assert match.version == 2
    expect(page.locator("#match")).to_have_attribute("data-version", "2", timeout=FAST_MS)
    expect(page.locator("#status-line")).to_contain_text("Your turn", timeout=FAST_MS)
    expect(page.locator("#move-log li")).to_have_count(2)


def test_where_streams_do_not_get_through_the_page_long_polls(web):
    alice, match, bea = _match(web)
    page = web.page_as(alice)
    urls = _requested(page)
    # A proxy that answers streams with a page of its own: after two such answers in a row the
    # page long-polls instead.
    page.route(re.compile(r".*/api/(matches/[^/]+|me)/stream\?.*"),
               lambda route: route.fulfill(status=200, content_type="text/html",
                                           body="<p>blocked</p>"))
    page.goto(f"/match/{match.id}")
    web.wait_for_turn_or_end(page)
    web.nibble_turn(page)
    bea.move()
    expect(page.locator("#status-line")).to_contain_text("Your turn", timeout=FAST_MS + 5_000)
    assert sum(f"/api/matches/{match.id}/stream?" in url for url in urls) == 2, urls
    assert any(f"/api/matches/{match.id}/events?" in url for url in urls), urls
