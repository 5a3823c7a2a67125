"""/api/me/vacation: read the bank, start (PUT) and end (DELETE) a vacation, turn
auto-vacation on or off (PATCH); every bad input a coded error that changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Vacation
from games.services.vacations import vacation_start

pytestmark = pytest.mark.django_db

DAY = 86400
URL = "/api/me/vacation"


def test_the_vacation_is_read_started_and_ended(alice, client_for):
    client = client_for(alice)
    answer = client.get(URL)
    assert answer.status_code == 200
    body = answer.json()
    assert body["on_vacation"] is False and body["since"] is None
    assert body["left_seconds"] == 20 * DAY and body["runs_out_at"] is None
    assert body["auto_vacation"] is True and body["cap_seconds"] == 30 * DAY
    assert body["accrual_seconds_per_day"] == 3 * 3600
    started = client.put(URL)
    assert started.status_code == 200
    body = started.json()
    assert body["on_vacation"] is True and body["since"] is not None
    assert body["left_seconds"] == 20 * DAY and body["runs_out_at"] is not None
    ended = client.delete(URL)
    assert ended.status_code == 200 and ended.json()["on_vacation"] is False
    assert client.put(URL, {}, format="json").status_code == 200


def test_starting_twice_ending_when_off_and_an_empty_bank_are_coded(alice, client_for,
                                                                      settings):
    client = client_for(alice)
    answer = client.delete(URL)
    assert answer.status_code == 409 and answer.json()["code"] == "not_on_vacation"
    assert not Vacation.objects.filter(user=alice).exists()
    client.put(URL)
    before = Vacation.objects.get(user=alice).bank
    answer = client.put(URL)
    assert answer.status_code == 409 and answer.json()["code"] == "already_on_vacation"
    assert Vacation.objects.get(user=alice).bank == before
    client.delete(URL)
    Vacation.objects.filter(user=alice).delete()
    settings.VACATION_STARTING_DAYS = 0
    settings.VACATION_ACCRUAL_HOURS_PER_DAY = 0
    answer = client.put(URL)
    assert answer.status_code == 409 and answer.json()["code"] == "vacation_bank_empty"
    assert not Vacation.objects.filter(user=alice).exists()


def test_auto_vacation_is_switched_with_patch(alice, client_for):
    client = client_for(alice)
    answer = client.patch(URL, {"auto_vacation": False}, format="json")
    assert answer.status_code == 200 and answer.json()["auto_vacation"] is False
    assert client.get(URL).json()["auto_vacation"] is False
    assert client.patch(URL, {"auto_vacation": True}, format="json").json()["auto_vacation"]


@pytest.mark.parametrize("body", [{}, {"auto_vacation": "no"}, {"auto_vacation": 0},
                                  {"auto_vacation": None}, {"auto_vacation": True, "x": 1},
                                  [], "on"])
def test_a_bad_patch_is_a_validation_error_and_changes_nothing(alice, client_for, body):
    client = client_for(alice)
    answer = client.patch(URL, body, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "validation_error", body
    assert not Vacation.objects.filter(user=alice).exists()


@pytest.mark.parametrize("method", ["put", "delete"])
@pytest.mark.parametrize("body", [{"auto_vacation": False}, [1], "now", 5])
def test_put_and_delete_take_no_body(alice, client_for, method, body):
    client = client_for(alice)
    vacation_start(user=alice) if method == "delete" else None
    before = list(Vacation.objects.filter(user=alice).values_list("bank", flat=True))
    answer = getattr(client, method)(URL, body, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "validation_error"
    assert list(Vacation.objects.filter(user=alice).values_list("bank", flat=True)) == before


def test_the_vacation_is_the_callers_own(api_client, alice, bob, client_for):
    assert api_client.get(URL).status_code == 401
    assert api_client.put(URL).status_code == 401
    client_for(alice).put(URL)
    assert client_for(bob).get(URL).json()["on_vacation"] is False


def test_a_vacation_that_ran_out_shows_as_ended_before_the_sweep(alice, client_for, settings):
    settings.VACATION_STARTING_DAYS = 1
    vacation_start(user=alice, now=timezone.now() - timedelta(days=2))
    body = client_for(alice).get(URL).json()
    assert body["on_vacation"] is False and body["runs_out_at"] is None
    assert 3 * 3600 - 60 <= body["left_seconds"] <= 3 * 3600  # a day earned since
