"""Browser tests of the web client: Debian's Chromium driven by Playwright (no browser download)
against a live server on the test database, with a real Celery worker on Redis playing the bots.

The server is, by default, uvicorn serving ``config.asgi`` in this process: what ``make run``
serves, and where the long-poll endpoints are meant to run (docs/longpoll.md). Set
``BOARDPOST_BROWSER_SERVER=wsgi`` to use pytest-django's ``live_server`` (Django's threaded WSGI
server) instead.

They skip when Playwright or Chromium is missing, and (through ``session_worker``) when the
database is not PostgreSQL or the broker is not Redis. Screenshots go to
test-artifacts/screenshots/ for review.
"""

from __future__ import annotations

import os
import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.core.cache import cache

from games.catalog import games
from games.services.bots import bot_accounts_ensure

# The worker fixtures live with the other integration tests; importing them here shares them.
from tests.integration.conftest import (  # noqa: F401
    server_database,
    session_worker,
    shared_worker,
)

try:
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import Page, expect, sync_playwright
except ImportError:  # pragma: no cover - playwright is in the test extras
    sync_playwright = None

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-artifacts" / "screenshots"
# Debian's chromium-headless-shell where installed: the headless build without the browser's
# own interface, which costs the suite less CPU than the full browser in its new headless mode
# (the same Blink, V8 and version). It has no notifications: a module that needs the full
# browser says so with ``FULL_CHROMIUM = True``. BOARDPOST_CHROMIUM names another binary.
FULL = "/usr/bin/chromium"
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


def chromium_for(full: bool) -> tuple[str, list[str]]:
    """The Chromium binary a module runs and its arguments."""
    binary = os.environ.get("BOARDPOST_CHROMIUM") or (
        HEADLESS_SHELL if not full and os.access(HEADLESS_SHELL, os.X_OK) else FULL)
    if binary.endswith("headless-shell"):
        return binary, CHROMIUM_ARGS
    return binary, ["--headless=new", *CHROMIUM_ARGS]


PASSWORD = "a long enough passphrase"
VIEWPORT = {"width": 1280, "height": 900}
MOVE_TIMEOUT_MS = 30_000
HANGUL_FONT_FAMILY = "Noto Sans CJK KR"


def hangul_font_installed() -> bool:
    """Whether fontconfig knows the Hangul font the Korean pages are checked with (Debian's
    fonts-noto-cjk; scripts/system-packages.sh installs it)."""
    import shutil
    import subprocess

    if shutil.which("fc-list") is None:
        return False
    listed = subprocess.run(["fc-list", ":lang=ko", "family"], capture_output=True, text=True,
                            check=False).stdout
    return HANGUL_FONT_FAMILY in listed


# For the tests that look at Korean text: without the font Chromium draws boxes.
needs_hangul_font = pytest.mark.skipif(
    not hangul_font_installed(),
    reason=f"needs fonts-noto-cjk ({HANGUL_FONT_FAMILY}: fc-list :lang=ko lists no such font; "
           "make system-packages)")


@pytest.fixture(scope="module")
def browser(request):
    """One headless Chromium per test module."""
    if sync_playwright is None:
        pytest.skip("the browser tests need playwright (pip install -e '.[test]')")
    binary, args = chromium_for(getattr(request.module, "FULL_CHROMIUM", False))
    if not os.access(binary, os.X_OK):
        pytest.skip(f"the browser tests need Chromium at {binary} "
                    "(apt-get install chromium chromium-headless-shell; make system-packages)")
    # Playwright's sync API keeps an event loop on this thread; Django refuses ORM calls from a
    # thread with a running loop unless told it is safe (it is: nothing here is async).
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        playwright = sync_playwright().start()
        try:
            chromium = playwright.chromium.launch(executable_path=binary, args=args)
        except PlaywrightError as error:
            playwright.stop()
            pytest.skip(f"Chromium did not start: {error}")
        try:
            yield chromium
        finally:
            chromium.close()
            playwright.stop()


class Web:
    """Browser pages on the live server, and the steps the tests share."""

    def __init__(self, browser, base_url: str) -> None:
        self.browser = browser
        self.base_url = base_url
        self.contexts = []
        self.errors: list[str] = []

    # ------------------------------------------------------------ pages

    def page(self, viewport: dict | None = None, *, bypass_csp: bool = False,
             locale: str | None = None, service_workers: str = "allow") -> Page:
        """A page in a fresh browser context (its own storage: a separate player).
        ``bypass_csp``: the page may run a script the test injects (axe-core); ``locale``: the
        browser's language (Accept-Language and navigator.language), else Chromium's own;
        ``service_workers="block"``: no service worker, so ``page.route`` sees every request
        (a worker's own fetches pass it by)."""
        phone = viewport is not None and viewport["width"] < 600
        context = self.browser.new_context(viewport=viewport or VIEWPORT, base_url=self.base_url,
                                           is_mobile=phone, has_touch=phone,
                                           bypass_csp=bypass_csp, locale=locale,
                                           service_workers=service_workers)
        context.set_default_timeout(MOVE_TIMEOUT_MS)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        page.on("console", lambda message: message.type == "error"
                and not _expected_console_error(message.text)
                and self.errors.append(f"console: {message.text}"))
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()

    @staticmethod
    def shot_path(name: str) -> Path:
        SHOTS.mkdir(parents=True, exist_ok=True)
        return SHOTS / f"{name}.png"

    @staticmethod
    def shot(page: Page, name: str) -> Path:
        path = Web.shot_path(name)
        page.screenshot(path=str(path), full_page=True)
        return path

    # ------------------------------------------------------------ accounts

    def register(self, page: Page, username: str) -> None:
        page.goto("/")
        page.fill("#register-username", username)
        page.fill("#register-password", PASSWORD)
        page.click("#register-form button[type=submit]")
        expect(page.get_by_role("heading", name="Inbox")).to_be_visible()

    def page_as(self, user, viewport: dict | None = None, *, bypass_csp: bool = False,
                locale: str | None = None, service_workers: str = "allow") -> Page:
        """A page signed in as ``user`` with an API token, as the sign-in form would leave it."""
        from tests.factories import token_for

        page = self.page(viewport, bypass_csp=bypass_csp, locale=locale,
                         service_workers=service_workers)
        page.context.add_init_script(
            f"localStorage.setItem('boardpost.token', {token_for(user)!r});"
            f"localStorage.setItem('boardpost.username', {user.username!r});")
        return page

    def sign_in(self, page: Page, username: str) -> None:
        page.goto("/signin")
        page.fill("#signin-username", username)
        page.fill("#signin-password", PASSWORD)
        page.click("#signin-form button[type=submit]")
        expect(page.get_by_role("heading", name="Inbox")).to_be_visible()

    # ------------------------------------------------------------ the lobby

    def create_match(self, page: Page, game: str, *, seats: list[dict] | None = None,
                     options: dict[str, str] | None = None, rated: bool = True,
                     clock: str = "", weekend_pause: bool = False, plans: bool = True,
                     screenshot: str | None = None) -> str:
        """Create a match through the lobby form; returns its id (the page is on it)."""
        page.locator("#nav").get_by_role("link", name="New match").click()
        page.select_option("#game", game)
        expect(page.locator("#create-form legend", has_text="options")).to_contain_text(
            games()[game].name)
        seats = seats or [{"kind": "me"}, {"kind": "bot", "level": "1"}]
        page.select_option("#players", str(len(seats)))
        for index, seat in enumerate(seats):
            page.select_option(f"#seat-{index}-kind", seat["kind"])
            if seat["kind"] == "bot":
                page.select_option(f"#seat-{index}-level", seat["level"])
            if seat["kind"] == "user":
                page.fill(f"#seat-{index}-username", seat["username"])
        if options:  # the raw options are folded away below the presets
            page.locator("#raw-options").evaluate("details => { details.open = true; }")
        for name, value in (options or {}).items():
            field = page.locator(f"#opt-{name}")
            if field.evaluate("node => node.tagName") == "SELECT":
                field.select_option(value)
            else:
                field.fill(value)
        if not rated:
            page.uncheck("#rated")
        if not plans:
            page.uncheck("#plans")
        # "" (none), "h<hours>" or "d<days>" per move, "b<initial>-<increment>-<maximum>" a bank
        page.select_option("#clock", clock)
        if weekend_pause:
            page.check("#weekend-pause")
        if screenshot:
            self.shot(page, screenshot)
        page.click("#create-form button[type=submit]")
        page.wait_for_url(re.compile(r"/match/[0-9a-f-]{36}$"))
        page.wait_for_selector("#match[data-status]")
        return page.url.rsplit("/", 1)[-1]

    def invite_and_accept(self, host: Page, guest: Page, guest_name: str, game: str, *,
                          screenshot: str | None = None, **create) -> str:
        """The host invites the guest through the lobby; the guest accepts from the inbox
        (which hears of the invitation by itself). Both pages end on the running match."""
        match_id = self.create_match(
            host, game, seats=[{"kind": "me"}, {"kind": "user", "username": guest_name}],
            **create)
        expect(host.locator("#status-line")).to_contain_text("Waiting for players")
        invitation = guest.locator(f"li.invitation[data-match='{match_id}']")
        expect(invitation).to_be_visible()
        if screenshot:
            self.shot(guest, screenshot)
        invitation.get_by_role("button", name="Accept").click()
        guest.wait_for_url(f"**/match/{match_id}")
        for page in (host, guest):
            expect(page.locator("#match")).to_have_attribute("data-status", "active")
        return match_id

    def open_and_join(self, host: Page, guest: Page, game: str, **create) -> str:
        """The host leaves the second seat open; the guest joins it from the lobby's list."""
        match_id = self.create_match(host, game, seats=[{"kind": "me"}, {"kind": "open"}],
                                     **create)
        expect(host.locator("#status-line")).to_contain_text("1 open seat")
        guest.locator("#nav").get_by_role("link", name="New match").click()
        guest.locator(f".open-list li[data-match='{match_id}']").get_by_role(
            "button", name="Join").click()
        guest.wait_for_url(f"**/match/{match_id}")
        for page in (host, guest):
            expect(page.locator("#match")).to_have_attribute("data-status", "active")
        return match_id

    # ------------------------------------------------------------ playing

    @staticmethod
    def wait_for_turn_or_end(page: Page, timeout: float = MOVE_TIMEOUT_MS) -> str:
        page.wait_for_selector(
            '#match[data-status="finished"], #match[data-status="aborted"], '
            '#match[data-your-turn="true"][data-busy="false"]', timeout=timeout)
        return page.get_attribute("#match", "data-status")

    @staticmethod
    def act(page: Page, click) -> str:
        """Click something that sends a move; wait for the answer. Returns the move message
        (empty when the move was accepted)."""
        version = page.get_attribute("#match", "data-version")
        page.evaluate("() => { const m = document.getElementById('move-message');"
                      " m.textContent = ''; delete m.dataset.rule; }")
        click()
        page.wait_for_function(
            """version => {
                const match = document.getElementById('match');
                const message = document.getElementById('move-message').textContent;
                return match.dataset.busy === 'false'
                    && (match.dataset.version !== version || message !== '');
            }""", arg=version, timeout=MOVE_TIMEOUT_MS)
        return page.text_content("#move-message") or ""

    def nibble_turn(self, page: Page) -> None:
        """Take every takeable disc of the most plentiful colour; if that would split the
        board, take a single one (a takeable disc alone never does)."""
        page.locator("[data-select-colour]").first.click()
        message = self.act(page, lambda: page.click("#nibble-take"))
        if message:
            assert "nibble.splits_board" in message, message
            # The refused selection stays on the board: clicking one of its discs would only
            # take that disc out of it.
            page.get_by_role("button", name="Clear selection").click()
            page.locator('#board button[data-takeable="true"]').first.click()
            message = self.act(page, lambda: page.click("#nibble-take"))
        assert not message, message

    def nimble_turn(self, page: Page) -> None:
        """Place when a stack fits, else flip, else recycle, else end the turn."""
        for action in ("place", "flip", "recycle", "end_turn"):
            button = page.locator(f'#board button[data-action="{action}"][data-legal="true"]')
            if button.count():
                message = self.act(page, lambda button=button: button.first.click())
                assert not message, message
                return
        raise AssertionError("no legal Nimble action on the page")

    def nimalia_turn(self, page: Page) -> None:
        """Pick the first card, turn it once, click the first legal square."""
        if page.locator("#nimalia-undo").count():
            time.sleep(0.1)  # placed already; the others are still choosing
            return
        page.locator("#board .hand-card").first.click()
        page.click("#nimalia-rotate")
        message = self.act(page, lambda: page.locator(
            '#board .reserve.live button[data-anchor="true"]').first.click())
        assert not message, message

    def play_to_end(self, page: Page, game: str, *, screenshot_at: int = 5,
                    name: str | None = None, limit: float = 150.0) -> int:
        """Play the match on the page to its end by clicking; returns the number of moves."""
        turn = {"nibble": self.nibble_turn, "nimble": self.nimble_turn,
                "nimalia": self.nimalia_turn}[game]
        deadline = time.monotonic() + limit
        moves = 0
        while time.monotonic() < deadline:
            if self.wait_for_turn_or_end(page) != "active":
                return moves
            if moves == screenshot_at and name:
                self.shot(page, name)
            turn(page)
            moves += 1
        raise AssertionError(f"the {game} match did not end within {limit} s ({moves} moves)")


def _expected_console_error(text: str) -> bool:
    # Chromium logs every 4xx answer as a console error; an illegal move is one on purpose.
    # A test that takes the network away (context.set_offline) makes every request fail.
    return "status of 4" in text or "net::ERR_INTERNET_DISCONNECTED" in text


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


AXE_DIR = Path(__file__).resolve().parent / "axe"


@contextmanager
def npm_packages(folder: Path, needed: Path, lock_name: str, what: str) -> Iterator[None]:
    """The npm packages of ``folder`` (its package-lock.json), installed with npm ci when
    ``needed`` is missing, the lock ``var/<lock_name>`` held meanwhile and inside the block:
    test processes running at once (make test's) install them once, one after the other, and
    whoever reinstalls them under the same lock waits. Skips without npm (fails in CI)."""
    import fcntl
    import shutil
    import subprocess

    if shutil.which("npm") is None or shutil.which("node") is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{what} need node and npm in CI")
        pytest.skip(f"{what} need node and npm")
    (ROOT / "var").mkdir(exist_ok=True)
    with (ROOT / "var" / lock_name).open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not needed.is_file():
            subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                           cwd=folder, check=True, stdout=subprocess.DEVNULL)
        yield


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core's browser script, from npm (tests/browser/axe: package.json + package-lock.json,
    installed here with npm ci when missing; never served by the site)."""
    script = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
    if not script.is_file():
        with npm_packages(AXE_DIR, script, "axe-install.lock", "the accessibility checks"):
            pass
    return script.read_text()


@pytest.fixture(scope="session")
def collected_static():
    """collectstatic into STATIC_ROOT (config.settings.test), once for all the processes of a
    run that share it: from here on the page names hashed, compressed files, as under make run
    and in production."""
    import fcntl

    from django.conf import settings
    from django.contrib.staticfiles.storage import staticfiles_storage
    from django.core.management import call_command

    from games.web import views

    root = Path(settings.STATIC_ROOT)
    root.mkdir(parents=True, exist_ok=True)
    with (root.parent / f"{root.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = root / ".collected"
        if not done.exists():
            call_command("collectstatic", "--noinput", verbosity=0)
            done.touch()
    # What another process collected: this process's storage read an empty manifest earlier.
    staticfiles_storage.hashed_files, staticfiles_storage.manifest_hash = (
        staticfiles_storage.load_manifest())
    views._cached_import_map.cache_clear()
    views._cached_preloads.cache_clear()
    views._cached_game_styles.cache_clear()
    return Path(settings.STATIC_ROOT)


@pytest.fixture(scope="session")
def asgi_server(django_db_setup, django_db_blocker, collected_static):
    """uvicorn serving config.asgi on the test database, in a thread of this process."""
    import uvicorn

    from config.asgi import application

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(application, log_level="warning", lifespan="off",
                                           access_log=False))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]},
                              name="browser-tests-uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start for the browser tests")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=15)
    listener.close()


@pytest.fixture
def server_url(request, transactional_db) -> str:
    """The base URL of a server on the test database, for this test (transactional).

    ``transactional_db`` is asked for here, not looked up inside: looked up, it let a module
    whose tests ask for no database by name run against DATABASE_URL's own database."""
    if os.environ.get("BOARDPOST_BROWSER_SERVER", "asgi") == "wsgi":
        request.getfixturevalue("collected_static")
        return request.getfixturevalue("live_server").url
    return request.getfixturevalue("asgi_server")


@contextmanager
def web_pages(request, browser, server_url: str) -> Iterator[Web]:
    """A :class:`Web` on the live server for one test: throttle budgets reset, every bot
    account seeded (a lobby may seat a bot); on failure a screenshot of every page; at the end
    no page may have logged an error."""
    cache.clear()  # throttle counters (registrations) from earlier tests
    bot_accounts_ensure()
    client = Web(browser, server_url)
    try:
        yield client
    finally:
        report = getattr(request.node, "report_call", None)
        if report is not None and report.failed:
            for index, context in enumerate(client.contexts):
                for number, page in enumerate(context.pages):
                    client.shot(page, f"FAILED-{request.node.name}-{index}-{number}")
        client.close()
    assert not client.errors, client.errors


@pytest.fixture
def pages(request, browser, server_url):
    """Pages on the live server, without a worker: for tests whose matches need no bot."""
    with web_pages(request, browser, server_url) as client:
        yield client


@pytest.fixture
def web(request, browser, server_url, shared_worker):  # noqa: F811 - imported
    """Pages on the live server, bot accounts seeded, a real worker (the process's) running the
    bots."""
    with web_pages(request, browser, server_url) as client:
        yield client
