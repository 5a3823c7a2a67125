"""The account page and the forgotten-password pages in Chromium, on the live server, at a
phone's widths (360 and 390 px), axe-core clean, no console error: changing the password,
asking for one's data and downloading it, disabling the account (and opening it again by
signing in), asking for deletion with the grace period said; asking for a reset mail and
choosing a new password from its link; the pages in every language."""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.models import DataExport, User
from tests.browser.checks import axe_violations, overflow
from tests.browser.conftest import web_pages
from tests.factories import UserFactory
from tests.notify.conftest import smtp  # noqa: F401 - the SMTP receiver of the reset mail

try:
    from playwright.sync_api import expect
except ImportError:  # pragma: no cover - the browser fixture skips
    expect = None

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous"),
]

PASSWORD = "a long enough passphrase"
NEW = "another long passphrase"
PHONES = [{"width": 360, "height": 780}, {"width": 390, "height": 844}]


@pytest.fixture
def pages(request, browser, server_url):
    with web_pages(request, browser, server_url) as client:
        yield client


@pytest.mark.parametrize("viewport", PHONES, ids=["phone360", "phone390"])
def test_password_data_and_disabling_on_a_phone(pages, axe_source, viewport):
    user = UserFactory(username=f"keeper{viewport['width']}", password=PASSWORD)
    page = pages.page_as(user, viewport, bypass_csp=True)
    page.goto("/account")
    expect(page.get_by_role("heading", level=1)).to_have_text("Your account")
    days = settings.ACCOUNT_DELETION_GRACE_DAYS
    expect(page.locator("#close-delete-hint")).to_contain_text(f"Deleted {days} days from now")
    assert overflow(page, viewport["width"]) <= 0
    assert axe_violations(page, axe_source) == []

    page.fill("#current-password", PASSWORD)
    page.fill("#new-password", NEW)
    page.click("#password-form button[type=submit]")
    expect(page.locator("#notice")).to_contain_text("Your password is changed")
    user.refresh_from_db()
    assert user.check_password(NEW)

    page.click("#export-ask")
    item = page.locator("#export-list li")
    expect(item).to_have_count(1)
    expect(item).to_contain_text("Ready")
    with page.expect_download() as caught:
        item.get_by_role("button", name="Download").click()
    data = json.loads(open(caught.value.path(), encoding="utf-8").read())
    assert data["username"] == user.username and "matches" in data["sections"]
    assert DataExport.objects.filter(user=user, status="ready").count() == 1
    assert overflow(page, viewport["width"]) <= 0
    assert axe_violations(page, axe_source) == []
    pages.shot(page, f"account-phone{viewport['width']}")

    page.fill("#close-password", NEW)
    page.click("#close-form button[type=submit]")
    expect(page).to_have_url(re.compile(r"/signin$"))
    expect(page.locator("#notice")).to_contain_text("Your account is disabled")
    user.refresh_from_db()
    assert (user.is_active, user.closure) == (False, "disabled")
    page.fill("#signin-username", user.username)
    page.fill("#signin-password", NEW)
    page.click("#signin-form button[type=submit]")
    expect(page.get_by_role("heading", name="Inbox")).to_be_visible()
    user.refresh_from_db()
    assert (user.is_active, user.closure) == (True, "")


def test_asking_for_deletion_says_when(pages):
    user = UserFactory(username="leaver", password=PASSWORD)
    page = pages.page_as(user, PHONES[0])
    page.goto("/account")
    page.check("input[name=close-kind][value=delete]")
    page.fill("#close-password", PASSWORD)
    page.click("#close-form button[type=submit]")
    expect(page.locator("#notice")).to_contain_text("Your account will be deleted on")
    user.refresh_from_db()
    assert user.closure == "deleting" and user.deletion_due_at is not None


def test_a_forgotten_password_on_a_phone(pages, axe_source, smtp):  # noqa: F811
    user = UserFactory(username="forgetful", password=PASSWORD, email="forgetful@example.org")
    viewport = PHONES[1]
    page = pages.page(viewport, bypass_csp=True)
    page.goto("/signin")
    page.get_by_role("link", name="Forgot your password?").click()
    expect(page).to_have_url(re.compile(r"/password/forgot$"))
    page.fill("#forgot-email", "forgetful@example.org")
    page.click("#forgot-form button[type=submit]")
    expect(page.locator("#forgot-done")).to_contain_text("If an account has this address")
    assert [m["To"] for m in smtp.messages] == ["forgetful@example.org"]
    assert overflow(page, viewport["width"]) <= 0
    assert axe_violations(page, axe_source) == []

    uid = urlsafe_base64_encode(force_bytes(user.pk))
    page.goto(f"/password/reset?uid={uid}&token={default_token_generator.make_token(user)}")
    page.fill("#reset-password", NEW)
    assert overflow(page, viewport["width"]) <= 0
    assert axe_violations(page, axe_source) == []
    page.click("#reset-form button[type=submit]")
    expect(page).to_have_url(re.compile(r"/signin$"))
    assert User.objects.get(pk=user.pk).check_password(NEW)


# Per language: the browser's locale, the page's heading and the password section's button.
LANGUAGES = {
    "fr": ("fr-FR", "Votre compte", "Changer le mot de passe"),
    "pt-br": ("pt-BR", "Sua conta", "Trocar a senha"),
    "ko": ("ko-KR", "내 계정", "비밀번호 바꾸기"),
}


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_page_in_every_language(pages, language):
    locale, heading, button = LANGUAGES[language]
    user = UserFactory(username=f"acct_{language.replace('-', '_')}", password=PASSWORD)
    page = pages.page_as(user, PHONES[0], locale=locale)
    page.goto("/account")
    expect(page.get_by_role("heading", level=1)).to_have_text(heading)
    expect(page.locator("#password-form button[type=submit]")).to_have_text(button)
    text = page.locator("main").inner_text()
    for english in ("Your data", "Close your account", "Ask for my data", "Disable my account"):
        assert english not in text, (language, english)
    assert overflow(page, PHONES[0]["width"]) <= 0
    pages.shot(page, f"account-{language}-phone360")
