"""The notices of a player's own vacation (a day of the bank left; it ended by itself; it
started instead of a timeout) go out through the player's channels, in their language, and can
be switched off like any kind."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from games.clocks import vacation
from games.models import UserEvent, Vacation
from games.notify.kinds import message
from games.notify.preferences import preferences_update
from games.selectors.feeds import user_events_after
from games.services.deadlines import deadlines_sweep
from games.services.vacations import vacation_start, vacations_sweep
from tests.notify.helpers import registered_device, start, verified

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.fixture
def three_days(settings):
    settings.VACATION_STARTING_DAYS = 3


def test_the_warning_and_the_end_are_pushed_and_mailed(
        three_days, smtp, push_service, alice, django_capture_on_commit_callbacks):
    verified(alice)
    device = registered_device(push_service, alice)
    vacation_start(user=alice, now=T0)
    with django_capture_on_commit_callbacks(execute=True):
        vacations_sweep(now=T0 + timedelta(days=2))
    with django_capture_on_commit_callbacks(execute=True):
        vacations_sweep(now=T0 + timedelta(days=3))
    assert [m["Subject"] for m in smtp.messages] == ["Your vacation ends in a day",
                                                     "Your vacation is over"]
    pushed = push_service.for_device(device)
    assert [p["kind"] for p in pushed] == ["vacation_ending", "vacation_ended"]
    assert pushed[0]["url"] == "/notifications" and pushed[0]["match"] is None
    assert "2026-03-05 09:00 UTC" in pushed[0]["body"]


def test_the_notices_can_be_switched_off(three_days, smtp, alice,
                                         django_capture_on_commit_callbacks):
    verified(alice)
    preferences_update(user=alice, preferences={"vacation_ending": {"email": False},
                                                "vacation_ended": {"email": False}})
    vacation_start(user=alice, now=T0)
    with django_capture_on_commit_callbacks(execute=True):
        vacations_sweep(now=T0 + timedelta(days=4))
    assert smtp.messages == []
    assert UserEvent.objects.filter(user=alice, type="vacation_ended").count() == 1


@pytest.mark.parametrize(("language", "title"), [
    ("fr", "Vos vacances sont finies"),
    ("pt-br", "Suas férias acabaram"),
    ("ko", "휴가가 끝났습니다"),
])
def test_the_words_are_in_the_players_language(three_days, alice, language, title):
    from django.utils import translation

    vacation_start(user=alice, now=T0)
    vacations_sweep(now=T0 + timedelta(days=4))
    entries = user_events_after(user=alice)
    with translation.override(language):
        words = [message(entry) for entry in entries]
    assert [w.kind for w in words] == ["vacation_ended"]
    assert words[0].title == title


def _late(alice, bob):
    """A Nibble match of alice and bob in which alice's day to move has passed, swept."""
    match = start("nibble", [alice, bob], config={"first_seat": 0})
    deadlines_sweep(now=match.deadline + timedelta(seconds=30))
    return match


def test_an_auto_vacation_is_pushed_and_mailed_with_its_match(
        smtp, push_service, alice, bob, django_capture_on_commit_callbacks):
    verified(alice)
    device = registered_device(push_service, alice)
    with django_capture_on_commit_callbacks(execute=True):
        match = _late(alice, bob)
    pushed = [p for p in push_service.for_device(device) if p["kind"] == "auto_vacation_started"]
    assert len(pushed) == 1
    assert pushed[0]["url"] == f"/match/{match.id}" and pushed[0]["match"] == str(match.id)
    assert pushed[0]["title"] == "Nibble: your time ran out, your vacation started"
    bank = vacation.load_bank(Vacation.objects.get(user=alice).bank)
    assert bank.since == match.deadline.replace(microsecond=0)
    assert vacation.runs_out_at(bank).strftime("%Y-%m-%d %H:%M UTC") in pushed[0]["body"]
    assert [m["Subject"] for m in smtp.messages
            if "vacation" in m["Subject"]] == [pushed[0]["title"]]


def test_the_auto_vacation_notice_can_be_switched_off(smtp, alice, bob,
                                                      django_capture_on_commit_callbacks):
    verified(alice)
    preferences_update(user=alice, preferences={"auto_vacation_started": {"email": False}})
    with django_capture_on_commit_callbacks(execute=True):
        _late(alice, bob)
    assert not [m for m in smtp.messages if "vacation" in m["Subject"]]
    assert UserEvent.objects.filter(user=alice, type="auto_vacation_started").count() == 1


@pytest.mark.parametrize(("language", "title"), [
    ("fr", "Nibble : votre temps est écoulé, vos vacances ont commencé"),
    ("pt-br", "Nibble: seu tempo acabou, suas férias começaram"),
    ("ko", "니블: 시간이 다 되어 휴가가 시작되었습니다"),
])
def test_the_auto_vacation_words_are_in_the_players_language(alice, bob, language, title):
    from django.utils import translation

    _late(alice, bob)
    entries = [e for e in user_events_after(user=alice) if e["type"] == "auto_vacation_started"]
    with translation.override(language):
        words = [message(entry) for entry in entries]
    assert [w.kind for w in words] == ["auto_vacation_started"]
    assert words[0].title == title
