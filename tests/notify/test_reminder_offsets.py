"""The offsets before a deadline at which a player is reminded: 24 h, 4 h and 1 h by default;
at most five distinct offsets from 15 minutes to 7 days, anything else a coded error that
changes nothing."""

from __future__ import annotations

import pytest

from games.notify.exceptions import InvalidReminderOffsets
from games.notify.models import NotificationSettings
from games.notify.preferences import reminder_offsets_checked, reminder_offsets_of

pytestmark = pytest.mark.django_db

URL = "/api/me/notifications"
HOUR = 3600


def test_the_defaults_and_a_choice(alice, bob, client_for):
    client = client_for(alice)
    assert client.get(URL).json()["reminder_offsets"] == [24 * HOUR, 4 * HOUR, HOUR]
    answer = client.patch(URL, {"reminder_offsets": [900, 7 * 24 * HOUR, 2 * HOUR]},
                          format="json")
    assert answer.status_code == 200
    assert answer.json()["reminder_offsets"] == [7 * 24 * HOUR, 2 * HOUR, 900]
    assert reminder_offsets_of([alice.id, bob.id]) == {
        alice.id: [7 * 24 * HOUR, 2 * HOUR, 900], bob.id: [24 * HOUR, 4 * HOUR, HOUR]}
    answer = client.patch(URL, {"reminder_offsets": []}, format="json")
    assert answer.status_code == 200 and answer.json()["reminder_offsets"] == []


@pytest.mark.parametrize(("offsets", "offset"), [
    ([HOUR, 2 * HOUR, 3 * HOUR, 4 * HOUR, 5 * HOUR, 6 * HOUR], None),
    ([899], 899),
    ([7 * 24 * HOUR + 1], 7 * 24 * HOUR + 1),
    ([HOUR, HOUR], HOUR),
    ([0], 0),
    ([-HOUR], -HOUR),
])
def test_bad_offsets_are_coded_and_change_nothing(alice, client_for, offsets, offset):
    client = client_for(alice)
    client.patch(URL, {"reminder_offsets": [2 * HOUR]}, format="json")
    answer = client.patch(URL, {"reminder_offsets": offsets, "digest_hour": 5}, format="json")
    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] == "invalid_reminder_offsets"
    assert body["extra"]["limit"] == 5 and body["extra"]["minimum"] == 900
    assert body["extra"]["maximum"] == 7 * 24 * HOUR
    assert body["extra"].get("offset") == offset
    prefs = NotificationSettings.objects.get(user=alice)
    assert prefs.reminder_offsets == [2 * HOUR] and prefs.digest_hour != 5


@pytest.mark.parametrize("offsets", [3600, "3600", ["3600"], [3600.0], [True], [None],
                                     {"a": 3600}, None])
def test_offsets_of_the_wrong_type_are_validation_errors(alice, client_for, offsets):
    answer = client_for(alice).patch(URL, {"reminder_offsets": offsets}, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "validation_error", offsets
    assert answer.json()["extra"]["fields"]["reminder_offsets"]
    assert not NotificationSettings.objects.filter(user=alice).exists()


def test_the_check_sorts_and_refuses_what_is_not_a_whole_number():
    assert reminder_offsets_checked([HOUR, 900, 2 * HOUR]) == [2 * HOUR, HOUR, 900]
    for bad in ([True], [1.5], ["x"]):
        with pytest.raises(InvalidReminderOffsets):
            reminder_offsets_checked(bad)
