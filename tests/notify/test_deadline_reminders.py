"""Reminders before a deadline as the players read them: by the channels they chose, saying
about how long is left in their language whatever the offset; and the daily digest's list of
the turns with less than a day left. Time is moved with time-machine; nothing sleeps."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.utils import translation

from games.models import Match, UserEvent
from games.notify import kinds
from games.notify.digest import digest_send
from games.notify.models import NotificationSettings
from games.notify.preferences import preferences_update
from games.services import SeatSpec, match_create, match_join
from games.services.deadlines import deadlines_sweep
from games.services.notifications import notify
from tests.notify.conftest import parts
from tests.notify.helpers import entries, play, registered_device, verified

pytestmark = pytest.mark.django_db

HOUR, DAY = 3600, 86400
# A Wednesday noon in UTC: past the default digest hour (08:00 UTC).
WEDNESDAY = datetime(2031, 1, 8, 12, 0, tzinfo=UTC)


def started(users, *, at: datetime, turn_seconds: int = DAY) -> Match:
    """A Nibble match of ``users`` begun at ``at``, seat 0 to move."""
    with time_machine.travel(at, tick=False):
        match = match_create(user=users[0], game="nibble", config={"first_seat": 0},
                             turn_seconds=turn_seconds,
                             seats=[SeatSpec("me")] + [SeatSpec("user", username=u.username)
                                                       for u in users[1:]])
        for user in users[1:]:
            match_join(user=user, match_id=match.id)
    return Match.objects.get(id=match.id)


def reminder_words(left_seconds: int, language: str) -> tuple[str, str]:
    entry = {"id": 1, "type": UserEvent.Type.DEADLINE_SOON, "match": None, "game": "nibble",
             "data": {"deadline": "2031-01-08T17:00:00+00:00", "offset": left_seconds,
                      "left_seconds": left_seconds}}
    with translation.override(language):
        message = kinds.message(entry)
    return message.title, message.body


@pytest.mark.parametrize(("left", "words"), [
    (15 * 60, {"en": "about 15 minutes left", "fr": "environ 15 minutes pour jouer",
               "pt-br": "cerca de 15 minutos para jogar", "ko": "약 15분 남았습니다"}),
    (HOUR - 20, {"en": "about 1 hour left", "fr": "environ 1 heure pour jouer",
                 "pt-br": "cerca de 1 hora para jogar", "ko": "약 1시간 남았습니다"}),
    (4 * HOUR, {"en": "about 4 hours left", "fr": "environ 4 heures pour jouer",
                "pt-br": "cerca de 4 horas para jogar", "ko": "약 4시간 남았습니다"}),
    (DAY, {"en": "about 24 hours left", "fr": "environ 24 heures pour jouer",
           "pt-br": "cerca de 24 horas para jogar", "ko": "약 24시간 남았습니다"}),
    (7 * DAY, {"en": "about 7 days left", "fr": "environ 7 jours pour jouer",
               "pt-br": "cerca de 7 dias para jogar", "ko": "약 7일 남았습니다"}),
])
def test_a_reminder_says_about_how_long_is_left_in_every_language(left, words):
    for language, expected in words.items():
        title, body = reminder_words(left, language)
        assert expected in title, (language, title)
        game = "니블" if language == "ko" else "Nibble"
        assert title.startswith(game) and "2031-01-08 17:00 UTC" in body, (language, body)


def test_reminders_reach_the_player_by_the_channels_they_chose(
        smtp, push_service, alice, bob, django_capture_on_commit_callbacks):
    verified(alice)
    device = registered_device(push_service, alice)
    alice.language = "fr"
    alice.save(update_fields=["language"])
    preferences_update(user=alice, reminder_offsets=[2 * DAY, 4 * HOUR])
    match = started([alice, bob], at=WEDNESDAY, turn_seconds=3 * DAY)
    for hours_left in (48, 4):
        at = match.deadline - timedelta(hours=hours_left)
        with time_machine.travel(at, tick=False), \
                django_capture_on_commit_callbacks(execute=True):
            assert deadlines_sweep(now=at)["reminded"] == 1
    said = ["Nibble : environ 2 jours pour jouer", "Nibble : environ 4 heures pour jouer"]
    assert [m["Subject"].strip() for m in smtp.messages] == said
    assert [p["title"] for p in push_service.for_device(device)] == said
    # A player who turns the kind off by mail keeps it by push.
    preferences_update(user=alice, preferences={"deadline_soon": {"email": False}})
    rematch = started([alice, bob], at=WEDNESDAY + timedelta(hours=1), turn_seconds=3 * DAY)
    at = rematch.deadline - timedelta(hours=4)
    with time_machine.travel(at, tick=False), django_capture_on_commit_callbacks(execute=True):
        deadlines_sweep(now=at)
    assert len(smtp.messages) == 2 and len(push_service.for_device(device)) == 3


def _digest_user(user, language: str = "") -> None:
    verified(user)
    NotificationSettings.objects.filter(user=user).update(email_digest=True)
    user.language = language
    user.save(update_fields=["language"])


def test_the_digest_lists_the_turns_with_less_than_a_day_left_in_the_players_language(
        smtp, alice, bob, carol):
    _digest_user(alice, "fr")
    # Alice's turn, her deadline at 17:00 today: listed.
    near = started([alice, bob], at=WEDNESDAY - timedelta(hours=19))
    # Bob's turn (seat 0), nearly out of time: not Alice's to play.
    theirs = started([bob, alice], at=WEDNESDAY - timedelta(hours=20))
    # Alice's turn, her deadline in two days: not listed.
    far = started([alice, carol], at=WEDNESDAY, turn_seconds=2 * DAY)
    assert {near.deadline, theirs.deadline, far.deadline} == {
        WEDNESDAY + timedelta(hours=5), WEDNESDAY + timedelta(hours=4),
        WEDNESDAY + timedelta(days=2)}

    assert digest_send(now=WEDNESDAY) == {"mails": 1, "items": 0}, \
        "worth sending with only that section"
    [mail] = smtp.messages
    assert mail["Subject"].strip() == \
        "Boardpost : 1 partie où il vous reste moins d’un jour pour jouer"
    text, html = parts(mail)
    line = "Nibble contre bob : il reste environ 5 heures, jusqu’au 2031-01-08 17:00 UTC"
    assert "Moins d’un jour pour jouer" in text and line in text
    assert f"http://testserver/match/{near.id}" in text
    assert "Moins d’un jour pour jouer" in html and f'href="http://testserver/match/{near.id}"' \
        in html
    assert str(theirs.id) not in text and str(far.id) not in text and "carol" not in text
    # Once a day.
    assert digest_send(now=WEDNESDAY + timedelta(hours=2)) == {"mails": 0, "items": 0}


def test_the_section_comes_with_the_days_notifications(smtp, alice, bob, carol,
                                                       django_capture_on_commit_callbacks):
    _digest_user(alice)
    with time_machine.travel(WEDNESDAY - timedelta(hours=23), tick=False):
        match = match_create(user=alice, game="nimble", config={"mode": "turns"},
                             turn_seconds=DAY, seats=[SeatSpec("me"), SeatSpec(
                                 "user", username="bob"), SeatSpec("user", username="carol")])
        match_join(user=bob, match_id=match.id)
        match_join(user=carol, match_id=match.id)
    match.refresh_from_db()
    while 0 not in match.actors:
        with time_machine.travel(WEDNESDAY - timedelta(hours=23), tick=False):
            play(match, [alice, bob, carol])
    with time_machine.travel(WEDNESDAY - timedelta(hours=5), tick=False), \
            django_capture_on_commit_callbacks(execute=True):
        notify(user_ids=[alice.id], type=UserEvent.Type.INVITED, game="nimble", by="carol")
    assert digest_send(now=WEDNESDAY) == {"mails": 1, "items": 1}
    [mail] = smtp.messages
    assert mail["Subject"] == "Boardpost: 1 update from your matches"
    text, _ = parts(mail)
    assert "Invitation to Nimble" in text
    assert ("Nimble against bob, carol: about 1 hour left, until 2031-01-08 13:00 UTC"
            in text), text
    assert f"/match/{match.id}" in text


def test_no_section_for_those_who_keep_no_deadline_mails_or_no_digest(smtp, alice, bob, carol):
    _digest_user(alice)
    preferences_update(user=alice, preferences={"deadline_soon": {"email": False}})
    verified(carol)  # mails one by one, no digest
    started([alice, bob], at=WEDNESDAY - timedelta(hours=19))
    started([carol, bob], at=WEDNESDAY - timedelta(hours=19))
    assert digest_send(now=WEDNESDAY) == {"mails": 0, "items": 0}
    assert smtp.messages == []


def test_a_turn_that_moved_on_is_not_listed(smtp, alice, bob):
    _digest_user(alice)
    match = started([alice, bob], at=WEDNESDAY - timedelta(hours=19))
    with time_machine.travel(WEDNESDAY - timedelta(hours=1), tick=False):
        play(match, [alice, bob], 0)
    assert digest_send(now=WEDNESDAY) == {"mails": 0, "items": 0}
    assert entries(alice, UserEvent.Type.DEADLINE_SOON) == []
