"""Every page of the client, on a desktop and on phones 360 and 390 px wide: axe-core, every
rule of it enabled (the experimental ones too), finds no accessibility violation, nothing is
wider than the screen, the header stays compact, and screenshots of each game go to
test-artifacts/screenshots/.

The pages are every route of the client's router (app.js): a route no sample path below
reaches fails the coverage test, so a new page is checked as soon as it has a route.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.catalog import games
from games.services.matches import SeatSpec, match_create
from games.tournaments.services.entries import tournament_join
from tests.factories import UserFactory
from tests.tournaments.helpers import started, tournament_with

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]

APP = Path(__file__).resolve().parents[2] / "games/web/static/boardpost/app.js"
GAMES = sorted(games())
PHONES = ({"width": 360, "height": 780}, {"width": 390, "height": 844})
DESKTOP = {"width": 1280, "height": 900}
# Sample paths for the router's routes; {match:<game>}, {user} and {tournament} are filled in by
# the test.
PATHS = ["/", "/signin", "/inbox", "/lobby", "/leaderboards", "/leaderboards/nibble",
         "/player/{user}", "/rules", *(f"/rules/{g}" for g in GAMES),
         *(f"/tutorial/{g}" for g in GAMES), "/learn", "/notifications", "/friends", "/blocks",
         "/settings", "/welcome", "/play", "/home", "/guest", "/account", "/password/forgot",
         "/password/reset", *(f"/match/{{match:{g}}}" for g in GAMES),
         "/tournaments", "/tournaments/new", "/tournament/{tournament}"]


SAMPLE_ID = "0b7c5c3e-1111-2222-3333-444455556666"


def router_patterns() -> list[re.Pattern]:
    """The regular expressions of app.js's ROUTES, as Python patterns."""
    source = APP.read_text()
    table = source[source.index("const ROUTES"):]
    table = table[:table.index("];")]
    found = re.findall(r"\[\s*/(\^.*?\$)/\s*,", table)
    return [re.compile(js.replace("\\/", "/")) for js in found]


def sample_paths(user: str = "someone", matches: dict[str, str] | None = None,
                 tournament: str = SAMPLE_ID) -> list[str]:
    """The sample paths some route answers (a path no route takes is a 404 page: skipped)."""
    matches = matches or dict.fromkeys(GAMES, SAMPLE_ID)
    paths = [re.sub(r"\{match:(\w+)\}", lambda m: matches[m.group(1)],
                    p.replace("{user}", user).replace("{tournament}", tournament))
             for p in PATHS]
    return [p for p in paths if any(r.match(p) for r in router_patterns())]


def test_every_route_of_the_router_has_a_sample_path():
    patterns = router_patterns()
    assert len(patterns) >= 7
    missing = [r.pattern for r in patterns if not any(r.match(p) for p in sample_paths())]
    assert not missing, f"add a sample path to PATHS for {missing}"


def _axe(page, axe_source: str) -> list[dict]:
    """Every rule of axe-core, the experimental ones and those of level AAA included: what the
    rules on by default find (any impact), and what the others find of serious or critical
    impact."""
    if not page.evaluate("() => Boolean(window.axe)"):
        page.add_script_tag(content=axe_source)
    return page.evaluate("""async () => {
        const every = window.axe.getRules().map((rule) => rule.ruleId);
        const result = await window.axe.run(document, {
            runOnly: {type: 'rule', values: every}, resultTypes: ['violations']});
        const offByDefault = (tags) => tags.some((tag) => tag === 'experimental'
            || tag === 'deprecated' || tag.endsWith('aaa'));
        return result.violations
            .filter((v) => !offByDefault(v.tags) || ['serious', 'critical'].includes(v.impact))
            .map((v) => ({id: v.id, impact: v.impact,
                nodes: v.nodes.slice(0, 3)
                    .map((n) => n.target.join(' ') + ' :: ' + n.failureSummary)}));
    }""")


def _settled(page) -> None:
    page.wait_for_function("() => !document.querySelector('main p.muted')"
                           " || document.querySelector('main p.muted').textContent !== 'Loading…'")
    page.wait_for_function("() => !document.querySelector('[aria-busy=\"true\"]')")
    page.wait_for_timeout(300)


def _overflow(page) -> int:
    """How many pixels the page is wider than the viewport. Measured against the viewport's own
    width: on a phone (is_mobile) Chromium zooms a too-wide page out and its innerWidth grows
    with the page, so scrollWidth - innerWidth would always be 0."""
    return page.evaluate("""width => Math.max(document.documentElement.scrollWidth,
        window.innerWidth) - width""", page.viewport_size["width"])


@pytest.fixture
def matches_to_visit(web):
    """A signed-up player with a running match against a level-1 bot in every game."""
    user = UserFactory(username="visitor", password="a long enough passphrase")
    config = {"nimble": {"mode": "turns"}, "nimalia": {"objectives": "first_game"}}
    ids = {game: str(match_create(user=user, game=game, config=config.get(game),
                                  seats=[SeatSpec("me"), SeatSpec("bot", level=1)],
                                  rated=False).id) for game in GAMES}
    return user, ids


@pytest.fixture
def tournament_to_visit(matches_to_visit):
    """A running Swiss the visitor plays in against a level-1 bot."""
    user, _ = matches_to_visit
    tournament = tournament_with(user, [user], bots_allowed=True)
    tournament_join(user=user, tournament_id=tournament.id, bot_level=1)
    return str(started(tournament).id)


def test_no_page_has_an_accessibility_violation(web, matches_to_visit, tournament_to_visit,
                                                axe_source):
    user, ids = matches_to_visit
    page = web.page_as(user, bypass_csp=True)
    problems = {}
    for path in sample_paths(user.username, ids, tournament_to_visit):
        page.goto(path)
        _settled(page)
        if "/match/" in path:
            web.wait_for_turn_or_end(page)
        violations = _axe(page, axe_source)
        if violations:
            problems[path] = violations
    # A finished match: the result, the replay and its controls.
    page.goto(f"/match/{ids['nibble']}")
    web.wait_for_turn_or_end(page)
    web.nibble_turn(page)
    web.wait_for_turn_or_end(page)
    page.get_by_role("button", name="Resign").click()
    page.get_by_role("button", name="Yes, resign").click()
    expect(page.locator("#match")).to_have_attribute("data-status", "finished")
    expect(page.locator("#replay-board")).to_have_attribute("data-seq", re.compile(r"\d+"))
    violations = _axe(page, axe_source)
    if violations:
        problems["finished match"] = violations
    # Signed out: the pages a visitor sees.
    visitor = web.page(bypass_csp=True)
    for path in ("/", "/signin"):
        visitor.goto(path)
        _settled(visitor)
        violations = _axe(visitor, axe_source)
        if violations:
            problems[f"signed out {path}"] = violations
    if problems:  # the whole report, for a reader of CI's artifacts
        report = web.shot_path("axe-violations").with_suffix(".json")
        report.write_text(json.dumps(problems, indent=1))
    assert not problems, {path: [v["id"] for v in found] for path, found in problems.items()}


@pytest.mark.parametrize("viewport", PHONES, ids=lambda v: f"{v['width']}px")
def test_no_page_is_wider_than_a_phone(web, matches_to_visit, tournament_to_visit, viewport):
    user, ids = matches_to_visit
    page = web.page_as(user, viewport)
    wide = {}
    for path in sample_paths(user.username, ids, tournament_to_visit):
        page.goto(path)
        _settled(page)
        if "/match/" in path:
            web.wait_for_turn_or_end(page)
        if (extra := _overflow(page)) > 0:
            wide[path] = extra
    header = page.locator("header.top").bounding_box()
    assert not wide, f"wider than {viewport['width']} px by: {wide}"
    assert header["height"] <= 64, header


def test_screenshots_of_each_game_on_a_desktop_and_a_phone(web, matches_to_visit):
    user, ids = matches_to_visit
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONES[1])):
        page = web.page_as(user, viewport)
        for game in GAMES:
            page.goto(f"/match/{ids[game]}")
            web.wait_for_turn_or_end(page)
            _settled(page)
            assert _overflow(page) <= 0, (game, name)
            page.screenshot(path=str(web.shot_path(f"{game}-{name}")), full_page=False)
            if name == "phone":
                # The board and its controls on one screen: the game's main part fits the height.
                main = page.locator(f".{game}-main").bounding_box()
                top = page.locator("#board").bounding_box()["y"]
                assert main["y"] + main["height"] - top <= viewport["height"], (game, main)
            else:
                # The move list is in view without scrolling.
                log = page.locator("#move-log").bounding_box()
                assert log["y"] < viewport["height"] and log["x"] > 600, (game, log)


def test_touch_targets_are_at_least_44_px_on_a_phone(web, matches_to_visit):
    user, ids = matches_to_visit
    page = web.page_as(user, PHONES[1])
    small = {}
    for path in ("/lobby", *(f"/match/{ids[g]}" for g in GAMES)):
        page.goto(path)
        _settled(page)
        if "/match/" in path:
            web.wait_for_turn_or_end(page)
        found = page.evaluate("""() => [...document.querySelectorAll(
                'main button:not(.cell):not(.sq), main select, main input,'
                + ' header a, header button')]
            .filter((e) => e.offsetParent !== null)
            // A check box or radio is hit through its label as well.
            .map((e) => [e, ['checkbox', 'radio'].includes(e.type) && e.labels?.[0] || e])
            .map(([e, t]) => [e.id || e.textContent.trim().slice(0, 20) || e.tagName,
                              Math.round(t.getBoundingClientRect().height),
                              Math.round(t.getBoundingClientRect().width)])
            .filter(([, h, w]) => h < 44 && !(h >= 24 && w >= 44))""")
        if found:
            small[path] = found
    assert not small, small
