"""The match page's plan in Chromium, on the live server: a Nibble plan built by clicking on the
plan's board (the other player's take, then the reply), saved, then the other player moves
through the API and the page shows the reply played and marked "(by plan)" in the move log; a
plan made during one's own turn (its line starts with one's own take) kept through that move
and played the same way; at a phone's width, axe-core clean, in every language; no plan mode
in a match created in the lobby with plans turned off.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.models import Match
from games.services import match_create, match_join
from games.services.matches import SeatSpec
from tests.browser.api import call_api
from tests.browser.checks import PHONE, PHONE_390, axe_violations, overflow
from tests.browser.matches import two_people_nibble
from tests.factories import UserFactory, token_for

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]

# Per language: the browser's locale, the plan's heading and its button to start one.
LANGUAGES = {
    "fr": ("fr-FR", "Plan", "Faire un plan"),
    "pt-br": ("pt-BR", "Plano", "Fazer um plano"),
    "ko": ("ko-KR", "예약 수", "예약 만들기"),
}


def _add_take(page, expected_button: str) -> None:
    """Select the first takeable disc of the plan's board and add the take."""
    page.locator('#plan-board button[data-takeable="true"]').first.click()
    add = page.locator("#plan-add")
    expect(add).to_have_text(expected_button)
    add.click()


def _plan_of(base: str, token: str, match_id) -> dict:
    return call_api(base, token, "GET", f"/api/matches/{match_id}/plan")


def _move(base: str, token: str, match_id, move: dict, version: int) -> dict:
    return call_api(base, token, "POST", f"/api/matches/{match_id}/moves",
                    {"move": move, "expected_version": version})


def test_a_plan_built_by_clicking_plays_its_reply_when_the_opponent_moves(pages):
    match = two_people_nibble("ada", "bo")  # ada has moved; she waits for bo
    ada, bo = (seat.user for seat in match.seats.order_by("index"))
    page = pages.page_as(ada)
    page.goto(f"/match/{match.id}")
    plan = page.locator("#plan")
    expect(plan).to_be_visible()
    expect(page.locator("#plan-empty")).to_have_text("No plan.")

    page.click("#plan-edit")
    expect(page.locator(".plan-turn")).to_have_text("To move here: bo")
    _add_take(page, "Add their take")
    expect(page.locator(".plan-turn")).to_have_text("To move here: you")
    _add_take(page, "Add your take")
    expect(page.locator(".plan-turn")).to_have_text("To move here: bo")
    expect(page.locator("#plan-tree li")).to_have_count(1)
    expect(page.locator("#plan-tree li .plan-moves")).to_contain_text("bo: took")
    expect(page.locator("#plan-tree li .plan-moves")).to_contain_text("→ you: took")
    pages.shot(page, "plan-built")
    page.click("#plan-save")
    expect(page.locator("#plan-message")).to_have_text("Plan saved.")
    expect(page.locator("#plan-edit")).to_have_text("Change the plan")

    base, ada_token, bo_token = pages.base_url, token_for(ada), token_for(bo)
    saved = _plan_of(base, ada_token, match.id)
    branch = saved["plan"][0]
    assert saved["version"] == match.version and branch["reply"]
    _move(base, bo_token, match.id, branch["on"], match.version)
    played = page.locator('#move-log li[data-by-plan="true"]')
    expect(played).to_have_count(1)
    expect(played).to_contain_text("ada: took")
    expect(played).to_contain_text("(by plan)")
    expect(page.locator("#plan-empty")).to_have_text("No plan.")
    assert _plan_of(base, ada_token, match.id)["plan"] == []
    pages.shot(page, "plan-reply-played")


def test_a_plan_made_during_ones_turn_starts_with_ones_own_take(pages, axe_source):
    match = two_people_nibble("cy", "di")  # cy has moved: di's turn
    cy, di = (seat.user for seat in match.seats.order_by("index"))
    page = pages.page_as(di, PHONE, bypass_csp=True)
    page.goto(f"/match/{match.id}")
    expect(page.locator("#plan")).to_be_visible()
    page.click("#plan-edit")
    expect(page.locator(".plan-turn")).to_have_text("To move here: you")
    _add_take(page, "Add your take")
    _add_take(page, "Add their take")
    _add_take(page, "Add your take")
    assert overflow(page, PHONE["width"]) <= 0
    assert axe_violations(page, axe_source) == []
    pages.shot(page, "plan-own-turn-phone360")
    page.click("#plan-save")
    expect(page.locator("#plan-message")).to_have_text("Plan saved.")

    base, cy_token, di_token = pages.base_url, token_for(cy), token_for(di)
    opening = _plan_of(base, di_token, match.id)["plan"][0]
    (mine,) = opening["mine"]
    branch = opening["then"][0]
    _move(base, di_token, match.id, mine, match.version)
    # Her own take made, the plan is the line that started with it.
    assert _plan_of(base, di_token, match.id)["plan"] == opening["then"]
    _move(base, cy_token, match.id, branch["on"], match.version + 1)
    played = page.locator('#move-log li[data-by-plan="true"]')
    expect(played).to_have_count(1)
    expect(played).to_contain_text("di: took")
    assert overflow(page, PHONE["width"]) <= 0
    assert axe_violations(page, axe_source) == []


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_plan_in_every_language_at_a_phones_width(pages, axe_source, language):
    locale, heading, button = LANGUAGES[language]
    match = two_people_nibble(f"{language[:2]}a", f"{language[:2]}b")
    ada = match.seats.get(index=0).user
    page = pages.page_as(ada, PHONE_390, bypass_csp=True, locale=locale)
    page.goto(f"/match/{match.id}")
    expect(page.locator("#plan-h")).to_have_text(heading)
    page.locator("#plan-edit").click()
    expect(page.locator("#plan-save")).to_be_visible()
    page.locator('#plan-board button[data-takeable="true"]').first.click()
    page.locator("#plan-add").click()
    expect(page.locator("#plan-tree li")).to_have_count(1)
    assert overflow(page, PHONE_390["width"]) <= 0
    assert axe_violations(page, axe_source) == []
    page.locator("#plan-cancel").click()
    expect(page.locator("#plan-edit")).to_have_text(button)


def test_a_match_created_without_plans_in_the_lobby_shows_no_plan(pages):
    eve = UserFactory(username="eve")
    UserFactory(username="fay")
    page = pages.page_as(eve)
    page.goto("/inbox")
    match_id = pages.create_match(page, "nibble", plans=False, rated=False,
                                  seats=[{"kind": "me"}, {"kind": "user", "username": "fay"}])
    assert Match.objects.get(id=match_id).plans_allowed is False
    match_join(user=User.objects.get(username="fay"), match_id=match_id)
    page.reload()
    expect(page.locator("#match")).to_have_attribute("data-status", "active")
    expect(page.locator("#board .nibble-board")).to_be_visible()
    expect(page.locator("#plan")).to_be_hidden()


def test_a_nimble_plan_picked_from_the_lists_of_actions(pages):
    gil = UserFactory(username="gil")
    hal = UserFactory(username="hal")
    match = match_create(user=gil, game="nimble", config={"mode": "turns"}, rated=False,
                         seats=[SeatSpec("me"), SeatSpec("user", username="hal")])
    match_join(user=hal, match_id=match.id)
    match.refresh_from_db()
    mover = match.actors[0]
    planner, other = ((gil, hal), (hal, gil))[mover == 0]
    page = pages.page_as(planner, PHONE_390)
    page.goto(f"/match/{match.id}")
    page.click("#plan-edit")
    expect(page.locator("#plan-mine")).to_have_count(0)
    # Their discard is empty: the server refuses a plan where they return a card, with the
    # path at fault, and saves nothing; the change is undone.
    page.locator('#plan-theirs button[data-plan-action="return"]').click()
    page.click("#plan-save")
    expect(page.locator("#plan-message")).to_have_text(
        "The other player cannot make this move there. (0 › on)")
    expect(page.locator("#plan-message")).to_have_attribute("role", "alert")
    page.click("#plan-undo")
    expect(page.locator("#plan-empty")).to_have_text("The plan is empty.")
    expect(page.locator("#plan-message")).to_have_text("")
    page.locator('#plan-theirs button[data-plan-action="end_turn"]').click()
    page.locator('#plan-mine button[data-plan-action="end_turn"]').click()
    expect(page.locator("#plan-tree li .plan-moves")).to_have_text(
        f"{other.username}: End turn → you: End turn")
    # A flip of theirs is keyed by the card it would show.
    page.click("#plan-to-start")
    page.select_option("#plan-flip-frame", "green")
    expect(page.locator('#plan-flip-circle option[value="green"]')).to_have_count(0)
    page.select_option("#plan-flip-circle", "purple")
    page.locator('#plan-theirs button[data-plan-action="flip"]').click()
    expect(page.locator("#plan-tree > ul > li")).to_have_count(2)
    expect(page.locator("#plan-tree li").nth(1)).to_contain_text("flipped")
    assert overflow(page, PHONE_390["width"]) <= 0
    pages.shot(page, "plan-nimble-phone390")
    page.click("#plan-save")
    expect(page.locator("#plan-message")).to_have_text("Plan saved.")
    saved = _plan_of(pages.base_url, token_for(planner), match.id)["plan"]
    assert saved[1]["on"] == {"action": "flip",
                              "card": {"set": mover, "frame": "green", "circle": "purple"}}
    _move(pages.base_url, token_for(other), match.id, {"action": "end_turn"}, match.version)
    played = page.locator('#move-log li[data-by-plan="true"]')
    expect(played).to_have_count(1)
    expect(played).to_contain_text(f"{planner.username}: ended the turn (by plan)")
