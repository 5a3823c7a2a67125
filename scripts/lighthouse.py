"""`make lighthouse`: Lighthouse (from npm, games/web/node_modules) driving Debian's Chromium
under its mobile emulation (a mid-range phone, a slow 4G network and a 4x slower CPU, all
simulated) on the home page, a match page of each game and the inbox, each loaded cold: no
service worker, no Cache Storage, no HTTP cache.

It serves the client as `make run` does (uvicorn, hashed and compressed static files, DEBUG
off) on a PostgreSQL database of its own (LIGHTHOUSE_DATABASE_URL; the Makefile makes
boardpost_lighthouse afresh), with one player and a match against a bot in each game. It
prints performance and accessibility per page, keeps the reports in test-artifacts/lighthouse/,
and fails when a page scores below 90 in performance or below 100 in accessibility. The browser
tests (tests/browser/test_budgets.py) use the same run for what does not depend on the
machine's speed: accessibility 100. Without the performance category nothing is timed, so the
signed-in pages are audited at the same time, each in a tab of its own (see ``audit``).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIGHTHOUSE = ROOT / "games" / "web" / "node_modules" / "lighthouse" / "cli" / "index.js"
REPORTS = ROOT / "test-artifacts" / "lighthouse"
CHROMIUM = os.environ.get("BOARDPOST_CHROMIUM", "/usr/bin/chromium")
BUDGET = {"performance": 90, "accessibility": 100}
DATABASE_URL = "postgres://postgres@127.0.0.1:5432/boardpost_lighthouse"

# The player's matches: created by the Django shell, printed as JSON (token and ids).
SET_UP = """
import json
from games.catalog import games
from games.services.matches import SeatSpec, match_create
from accounts.models import User
from accounts.services import token_create
user = User.objects.create_user(username="lighthouse", password="a long enough passphrase")
config = {"nibble": {"first_seat": 0}, "nimble": {"mode": "turns"},
          "nimalia": {"objectives": "first_game"}}
ids = {}
for game in sorted(games()):
    ids[game] = str(match_create(user=user, game=game, config=config.get(game), rated=False,
                                 seats=[SeatSpec("me"), SeatSpec("bot", level=1)]).id)
print(json.dumps({"token": token_create(user, "lighthouse").key, "username": user.username,
                  "matches": ids}))
"""


def free_port() -> int:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        return listener.getsockname()[1]


def lighthouse_started(url: str, port: int, categories: list[str],
                       name: str) -> tuple[subprocess.Popen, Path]:
    """Lighthouse started on ``url`` in the Chromium listening on ``port`` (mobile emulation,
    its default), in a tab of its own; the process and the JSON report it writes
    (REPORTS/name)."""
    REPORTS.mkdir(parents=True, exist_ok=True)
    report = REPORTS / f"{name}.json"
    # Without the performance category nothing is timed: no throttling, no screenshots (the
    # full-page screenshot is taken by a gatherer of its own, which --skip-audits leaves on).
    timing = [] if "performance" in categories else [
        "--throttling-method=provided", "--disable-full-page-screenshot",
        "--skip-audits=screenshot-thumbnails,final-screenshot,full-page-screenshot"]
    process = subprocess.Popen(
        ["node", str(LIGHTHOUSE), url, f"--port={port}", "--disable-storage-reset",
         f"--only-categories={','.join(categories)}", "--output=json",
         # A signed-in page keeps its live updates open: the network never falls quiet, so
         # Lighthouse waits this long (15 s) after the load event, then takes the page as it is.
         f"--output-path={report}", "--quiet", "--max-wait-for-load=15000", *timing],
        cwd=ROOT)
    return process, report


def lighthouse_scores(process: subprocess.Popen, report: Path, url: str,
                      categories: list[str]) -> dict[str, int]:
    """The scores (0-100) of ``categories`` in the report of a Lighthouse run, once it ends."""
    if process.wait() != 0:
        raise subprocess.CalledProcessError(process.returncode, process.args)
    found = json.loads(report.read_text())
    if found.get("runtimeError"):
        raise RuntimeError(f"{url}: {found['runtimeError']}")
    return {category: round(found["categories"][category]["score"] * 100)
            for category in categories}


def lighthouse(url: str, port: int, categories: list[str], name: str) -> dict[str, int]:
    """Run Lighthouse on ``url`` in the Chromium listening on ``port``; the scores (0-100) of
    ``categories``. The JSON report goes to REPORTS/name."""
    return lighthouse_scores(*lighthouse_started(url, port, categories, name), url, categories)


@contextmanager
def debuggable_chromium(browser_type=None) -> Iterator[tuple[object, int]]:
    """Debian's Chromium (headless) with a DevTools port for Lighthouse, and a Playwright page
    in its default profile: what the page stores (the token) is what Lighthouse's tabs see.
    ``browser_type``: Playwright's Chromium of a caller that runs Playwright already."""
    from playwright.sync_api import sync_playwright

    port = free_port()
    with tempfile.TemporaryDirectory() as profile, ExitStack() as stack:
        if browser_type is None:
            browser_type = stack.enter_context(sync_playwright()).chromium
        context = browser_type.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True,
            args=["--headless=new", f"--remote-debugging-port={port}", "--no-sandbox",
                  "--disable-gpu", "--disable-background-networking", "--no-first-run"])
        try:
            yield context.pages[0] if context.pages else context.new_page(), port
        finally:
            context.close()


def cold(page) -> None:
    """Leave the origin as a first visit finds it but for localStorage (the signed-in token):
    no service worker, no Cache Storage, no HTTP cache."""
    page.evaluate("""async () => {
        for (const registration of await navigator.serviceWorker.getRegistrations()) {
            await registration.unregister();
        }
        for (const name of await caches.keys()) await caches.delete(name);
    }""")
    session = page.context.new_cdp_session(page)
    session.send("Network.clearBrowserCache")
    session.detach()


def audit(base: str, token: str, username: str, matches: dict[str, str],
          categories: list[str], browser_type=None) -> dict[str, dict[str, int]]:
    """Scores per page: the home page as a visitor, then signed in each match and the inbox.

    With the performance category the pages are loaded one after the other, each cold. Without
    it nothing is timed, and the signed-in pages, on which Lighthouse waits out its limit (their
    live updates keep the network busy), are audited at the same time, each in a tab of its
    own, loaded cold together: a page's accessibility does not depend on what another tab
    loads meanwhile."""
    signed_in = {**{f"match ({game})": (f"/match/{match_id}", f"match-{game}")
                    for game, match_id in matches.items()},
                 "inbox": ("/inbox", "inbox")}
    scores = {}
    with debuggable_chromium(browser_type) as (page, port):
        page.goto(base + "/signin")
        cold(page)
        scores["home"] = lighthouse(base + "/", port, categories, "home")
        page.evaluate("([token, name]) => { localStorage.setItem('boardpost.token', token);"
                      " localStorage.setItem('boardpost.username', name); }", [token, username])
        if "performance" in categories:
            for title, (path, name) in signed_in.items():
                cold(page)
                scores[title] = lighthouse(base + path, port, categories, name)
            return scores
        cold(page)
        runs = {title: (*lighthouse_started(base + path, port, categories, name), base + path)
                for title, (path, name) in signed_in.items()}
        try:
            for title, (process, report, url) in runs.items():
                scores[title] = lighthouse_scores(process, report, url, categories)
        finally:
            for process, _, _ in runs.values():
                if process.poll() is None:
                    process.kill()
                    process.wait()
    return scores


def failures(scores: dict[str, dict[str, int]]) -> list[str]:
    return [f"{page}: {category} {score} < {BUDGET[category]}"
            for page, found in scores.items() for category, score in found.items()
            if score < BUDGET[category]]


def serve(env: dict[str, str]) -> Iterator[str]:
    """Migrate, collect the static files, set the player up and serve; yields the base URL
    and the set-up's JSON."""
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], check=True, cwd=ROOT, env=env)
    subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], check=True, cwd=ROOT, env=env)
    subprocess.run([*manage, "seed_bots"], check=True, cwd=ROOT, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    made = subprocess.run([*manage, "shell", "-c", SET_UP], check=True, cwd=ROOT, env=env,
                          capture_output=True, text=True).stdout.strip().splitlines()[-1]
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
         "--port", str(port), "--no-access-log", "--log-level=warning"], cwd=ROOT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/health/live", timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        yield base
        yield made
    finally:
        server.terminate()
        server.wait(timeout=15)


def main() -> int:
    if not LIGHTHOUSE.is_file():
        print("make lighthouse: run `cd games/web && npm ci` first", file=sys.stderr)
        return 2
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.local",
           "DATABASE_URL": os.environ.get("LIGHTHOUSE_DATABASE_URL", DATABASE_URL),
           "DJANGO_DEBUG": "false"}
    for folder in ("var/celery/queue", "var/celery/processed"):
        (ROOT / folder).mkdir(parents=True, exist_ok=True)
    steps = serve(env)
    base = next(steps)
    made = json.loads(next(steps))
    try:
        load = os.getloadavg()
        scores = audit(base, made["token"], made["username"], made["matches"],
                       ["performance", "accessibility"])
    finally:
        steps.close()
    version = json.loads((LIGHTHOUSE.parents[1] / "package.json").read_text())["version"]
    print(f"\nLighthouse {version}, mobile emulation; load average at the start "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    print(f"{'page':<20} {'performance':>12} {'accessibility':>14}")
    for page, found in scores.items():
        print(f"{page:<20} {found['performance']:>12} {found['accessibility']:>14}")
    (REPORTS / "summary.json").write_text(json.dumps(
        {"scores": scores, "load_average": load}, indent=1))
    problems = failures(scores)
    for problem in problems:
        print(f"below the budget: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
