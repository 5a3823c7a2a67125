"""The inbox's lists in the web client: what they show (running matches, my turn, finished), by
game and in the order chosen (time left, last move, game, date ended), the choice kept in the
page's URL so a reload keeps it; finished matches under a heading per day they ended, paged on
with "More"; in every language, at a phone's width, with no accessibility violation and no
console error (``web_pages`` fails a test on any).
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import UserEvent
from games.services.notifications import notify
from tests.factories import UserFactory
from tests.games.listed import listed_match

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]

PHONE = {"width": 360, "height": 780}
# Per language: the browser's locale, and the words of the list's form and day headings.
LANGUAGES = {
    "en": ("en-US", {"show": "Show", "sort": "Sort by", "time_left": "Time left",
                     "today": "Today", "yesterday": "Yesterday"}),
    "fr": ("fr-FR", {"show": "Afficher", "sort": "Trier par", "time_left": "Temps restant",
                     "today": "Aujourd'hui", "yesterday": "Hier"}),
    "pt-br": ("pt-BR", {"show": "Mostrar", "sort": "Ordenar por",
                        "time_left": "Tempo restante", "today": "Hoje", "yesterday": "Ontem"}),
    "ko": ("ko-KR", {"show": "보기", "sort": "정렬", "time_left": "남은 시간",
                     "today": "오늘", "yesterday": "어제"}),
}


@pytest.fixture
def players():
    return (UserFactory(username="ada", password="a long enough passphrase"),
            UserFactory(username="bo", password="a long enough passphrase"))


@pytest.fixture
def running(players):
    """Ada's running matches: three where she must act (two with deadlines, one casual), one
    where Bo must (with the soonest deadline of all), and a Nimble one of hers."""
    ada, bo = players
    now = timezone.now()
    return {
        "late": listed_match(ada, bo, my_turn=True, deadline=now + timedelta(hours=20),
                             moved=now - timedelta(minutes=5)),
        "soon": listed_match(ada, bo, my_turn=True, deadline=now + timedelta(hours=2),
                             moved=now - timedelta(hours=6)),
        "casual": listed_match(ada, bo, my_turn=True, moved=now - timedelta(hours=1)),
        "theirs": listed_match(ada, bo, deadline=now + timedelta(hours=1),
                               moved=now - timedelta(hours=2)),
        "nimble": listed_match(ada, bo, game="nimble", my_turn=True,
                               deadline=now + timedelta(hours=30),
                               moved=now - timedelta(hours=3)),
    }


def _finished(players, ago: timedelta, game: str = "nibble"):
    ada, bo = players
    return listed_match(ada, bo, game=game, status="finished", finished=timezone.now() - ago,
                        moved=timezone.now() - ago)


def _rows(page, where: str = "#match-list") -> list[str]:
    return page.locator(f"{where} tbody tr").evaluate_all(
        "rows => rows.map((row) => row.dataset.match)")


def _names(ids: list[str], matches: dict) -> list[str]:
    by_id = {str(match.id): name for name, match in matches.items()}
    return [by_id[match_id] for match_id in ids]


def _wait_rows(page, count: int, where: str = "#match-list") -> None:
    expect(page.locator(f"{where} tbody tr")).to_have_count(count)


def test_the_inbox_sorts_and_filters_and_a_reload_keeps_the_choice(pages, players, running):
    ada, _ = players
    page = pages.page_as(ada)
    page.goto("/")
    # By default: the matches where Ada must act first, each part soonest deadline first.
    _wait_rows(page, 5)
    assert _names(_rows(page), running) == ["soon", "late", "nimble", "casual", "theirs"]
    expect(page.locator("#list-sort")).to_have_value("time_left")
    pages.shot(page, "inbox-lists-time-left")

    page.select_option("#list-sort", "last_move")
    expect(page).to_have_url(re.compile(r"/\?sort=last_move$"))
    expect(page.locator("#match-list tbody tr").first).to_have_attribute(
        "data-match", str(running["late"].id))
    assert _names(_rows(page), running) == ["late", "casual", "theirs", "nimble", "soon"]

    page.select_option("#list-show", "my_turn")
    expect(page).to_have_url(re.compile(r"/\?show=my_turn$"))  # back to the view's default
    expect(page.locator("#list-sort")).to_have_value("time_left")
    _wait_rows(page, 4)
    assert _names(_rows(page), running) == ["soon", "late", "nimble", "casual"]

    page.select_option("#list-game", "nimble")
    expect(page).to_have_url(re.compile(r"/\?show=my_turn&game=nimble$"))
    _wait_rows(page, 1)
    assert _names(_rows(page), running) == ["nimble"]

    page.reload()
    expect(page.locator("#list-show")).to_have_value("my_turn")
    expect(page.locator("#list-game")).to_have_value("nimble")
    _wait_rows(page, 1)
    assert _names(_rows(page), running) == ["nimble"]
    # The page's own URL, taken as a link, opens on the same choice.
    page.goto("/inbox?show=running&sort=game")
    expect(page.locator("#list-sort")).to_have_value("game")
    _wait_rows(page, 5)
    assert _names(_rows(page), running)[-1] == "nimble"


def test_an_unknown_choice_in_the_url_falls_back_to_the_defaults(pages, players, running):
    ada, _ = players
    page = pages.page_as(ada)
    page.goto("/?show=everything&game=chess&sort=ended")
    expect(page.locator("#list-show")).to_have_value("running")
    expect(page.locator("#list-game")).to_have_value("")
    expect(page.locator("#list-sort")).to_have_value("time_left")
    _wait_rows(page, 5)


def test_finished_matches_come_under_a_heading_per_day_they_ended(pages, players):
    ada, _ = players
    today = [_finished(players, timedelta(seconds=30 + n)) for n in range(2)]
    yesterday = _finished(players, timedelta(days=1))
    older = [_finished(players, timedelta(days=4, minutes=n), game="nimble") for n in range(22)]
    page = pages.page_as(ada)
    page.goto("/")
    # The inbox's recent results: the last ten, by day.
    recent = page.locator("section[aria-labelledby='h-done']")
    expect(recent.locator("tbody tr")).to_have_count(10)
    expect(recent.locator("h3.day")).to_have_count(3)
    expect(recent.locator("h3.day").nth(0)).to_have_text("Today")
    expect(recent.locator("h3.day").nth(1)).to_have_text("Yesterday")
    recent.get_by_role("link", name="All finished matches").click()

    # Every finished match, twenty a page, newest end first, one heading per day.
    expect(page).to_have_url(re.compile(r"\?show=finished$"))
    expect(page.locator("#list-sort")).to_have_value("ended")
    _wait_rows(page, 20)
    assert _rows(page)[:3] == [str(today[0].id), str(today[1].id), str(yesterday.id)]
    expect(page.locator("#match-list h3.day")).to_have_count(3)
    page.click("#list-more")
    _wait_rows(page, 25)
    # The second page went on in the day the first one ended on: no second heading for it.
    expect(page.locator("#match-list h3.day")).to_have_count(3)
    expect(page.locator("#list-more")).to_be_hidden()
    assert len(set(_rows(page))) == 25
    assert _rows(page)[3:] == [str(m.id) for m in older]
    day = page.locator("#match-list h3.day").nth(2)
    expect(day).to_contain_text(str((timezone.now() - timedelta(days=4)).year))
    pages.shot(page, "inbox-finished-by-day")

    # By game: no day headings, one table.
    page.select_option("#list-sort", "game")
    expect(page.locator("#match-list h3.day")).to_have_count(0)
    _wait_rows(page, 20)
    expect(page.locator("#match-list table")).to_have_count(1)
    assert _rows(page)[:3] == [str(today[0].id), str(today[1].id), str(yesterday.id)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_lists_at_a_phone_width_in_every_language(pages, players, running, language):
    ada, _ = players
    _finished(players, timedelta(minutes=1))
    _finished(players, timedelta(days=1))
    locale, words = LANGUAGES[language]
    page = pages.page_as(ada, PHONE)
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": pages.base_url}])
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("label[for='list-show']")).to_have_text(words["show"])
    expect(page.locator("label[for='list-sort']")).to_have_text(words["sort"])
    expect(page.locator("#list-sort option[value='time_left']")).to_have_text(words["time_left"])
    days = page.locator("section[aria-labelledby='h-done'] h3.day")
    expect(days).to_have_count(2)
    expect(days.nth(0)).to_have_text(words["today"])
    expect(days.nth(1)).to_have_text(words["yesterday"])
    _wait_rows(page, 5)
    wide = page.evaluate("width => Math.max(document.documentElement.scrollWidth,"
                         " window.innerWidth) - width", PHONE["width"])
    assert wide <= 0, wide
    for select in ("#list-show", "#list-game", "#list-sort"):
        box = page.locator(select).bounding_box()
        assert box["height"] >= 44 and box["x"] + box["width"] <= PHONE["width"], (select, box)
    pages.shot(page, f"inbox-lists-phone-{language}")


@pytest.mark.parametrize(("language", "said"), [
    ("en", ["Nibble: about 4 h left to move", "Nibble: about 2 d left to move"]),
    # The game's name as the web client has it then (its catalogue may still be loading).
    ("ko", [re.compile("(Nibble|니블): 둘 시간이 약 4시간 남았습니다"),
            re.compile("(Nibble|니블): 둘 시간이 약 2일 남았습니다")]),
])
def test_the_activity_says_about_how_long_a_reminder_said_was_left(pages, players, running,
                                                                   language, said):
    ada, _ = players
    deadline = timezone.now() + timedelta(hours=4)
    for left in (2 * 86400, 4 * 3600 - 25):
        notify(user_ids=[ada.id], type=UserEvent.Type.DEADLINE_SOON,
               match=running["late"], game="nibble", deadline=deadline, offset=left,
               left_seconds=left)
    page = pages.page_as(ada)
    page.context.add_cookies([{"name": "django_language", "value": language,
                               "url": pages.base_url}])
    page.goto("/")
    activity = page.locator("section[aria-labelledby='h-activity']")
    for text in said:
        expect(activity).to_contain_text(text)


def test_the_lists_have_no_accessibility_violation(pages, players, running, axe_source):
    ada, _ = players
    _finished(players, timedelta(minutes=1))
    page = pages.page_as(ada, bypass_csp=True)
    problems = {}
    for path in ("/", "/?show=finished", "/?show=my_turn&sort=last_move"):
        page.goto(path)
        expect(page.locator("#match-list table, #match-list p").first).to_be_visible()
        page.add_script_tag(content=axe_source)
        found = page.evaluate("""async () => (await window.axe.run(document,
            {resultTypes: ['violations']})).violations.map((v) => v.id + ': '
            + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', '))""")
        if found:
            problems[path] = found
    assert not problems, problems
