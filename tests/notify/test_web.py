"""The web client's pieces for notifications: the service worker at the site's root and the
settings page's route."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_the_service_worker_is_served_from_the_root(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["Service-Worker-Allowed"] == "/"
    body = answer.content.decode()
    assert "showNotification" in body and "notificationclick" in body


def test_the_notifications_page_is_a_client_route(client):
    answer = client.get("/notifications")
    assert answer.status_code == 200 and b"importmap" in answer.content
