"""The admin can look at matches but never change one: writes go through the services."""

import pytest
from django.urls import reverse

from games.services import SeatSpec, match_create
from tests.factories import UserFactory


@pytest.fixture
def staff_client(client, db):
    staff = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(staff)
    return client


def test_a_match_is_shown_but_cannot_be_changed_or_deleted(staff_client):
    host = UserFactory()
    match = match_create(user=host, game="nibble", seats=[SeatSpec("me"), SeatSpec("open")])
    change_url = reverse("admin:games_match_change", args=[match.id])
    page = staff_client.get(change_url)
    assert page.status_code == 200
    assert b'name="_save"' not in page.content
    assert staff_client.post(change_url, {"status": "aborted"}).status_code == 403
    delete_url = reverse("admin:games_match_delete", args=[match.id])
    assert staff_client.post(delete_url, {"post": "yes"}).status_code == 403
    match.refresh_from_db()
    assert match.status == "open"
    assert staff_client.get(reverse("admin:games_match_add")).status_code == 403
