"""The Notifications page and the service worker in Chromium, on the live server.

Everything is real except the browser's push service: headless Chromium cannot reach one (FCM)
from here, so the page's ``PushManager.prototype.subscribe`` and ``getSubscription`` (and, for
``pushsubscriptionchange``, the service worker's ``subscribe``) are stubbed to hand out a
subscription on the local push service of tests/notify (which checks the VAPID JWT and
decrypts each push with the keys this test generated). The service worker's push,
notificationclick and pushsubscriptionchange handlers run on synthetic events dispatched in
the worker (a real push cannot arrive without FCM; a system notification cannot be clicked
headless), with their real notifications, windows and fetches.
"""

from __future__ import annotations

import json

import pytest

from games.notify.models import NotificationSettings, PushSubscription
from games.notify.push import b64url_decode
from tests.browser.conftest import web_pages
from tests.factories import UserFactory
from tests.notify.conftest import push_service, vapid  # noqa: F401 - fixtures
from tests.notify.helpers import start

# Notifications need the full browser: Chromium's headless shell has none.
FULL_CHROMIUM = True

try:
    from playwright.sync_api import expect
except ImportError:  # pragma: no cover - the browser fixture skips
    expect = None

pytestmark = pytest.mark.django_db(transaction=True)

# The page's push manager hands out the test's subscription (kept in localStorage while
# "subscribed"), records what subscribe was asked, and counts permission requests (the real
# requestPermission still answers, from the permission granted to the context).
PAGE_STUB = """
(() => {
  const device = %s;
  const KEY = "test.push-subscribed";
  const made = () => ({
    endpoint: device.endpoint, expirationTime: null, options: { userVisibleOnly: true },
    toJSON: () => ({ endpoint: device.endpoint, expirationTime: null, keys: device.keys }),
    unsubscribe: async () => { localStorage.removeItem(KEY); return true; },
  });
  PushManager.prototype.subscribe = async function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    sessionStorage.setItem("test.subscribe", JSON.stringify({
      userVisibleOnly: options.userVisibleOnly, key: Array.from(key) }));
    localStorage.setItem(KEY, "1");
    return made();
  };
  PushManager.prototype.getSubscription = async function () {
    return localStorage.getItem(KEY) ? made() : null;
  };
  const ask = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = (...args) => {
    const asks = Number(sessionStorage.getItem("test.asks") || 0);
    sessionStorage.setItem("test.asks", String(asks + 1));
    return ask(...args);
  };
})();
"""

# Run ``body`` in the service worker as an async function of ``arg`` with ``dispatch``:
# dispatch a synthetic event; its waitUntil promises are collected and awaited, so the
# handler's whole work is done when ``dispatch`` returns.
DISPATCH = """async (arg) => {
  async function dispatch(event, extra = {}) {
    for (const [name, value] of Object.entries(extra)) {
      Object.defineProperty(event, name, { value });
    }
    const waits = [];
    Object.defineProperty(event, "waitUntil", { value: (promise) => waits.push(promise) });
    self.dispatchEvent(event);
    return Promise.all(waits);
  }
  return (%s)(arg);
}"""


def in_worker(worker, function: str, arg=None):
    return worker.evaluate(DISPATCH % function, arg)


@pytest.fixture
def nweb(request, browser, server_url, push_service, settings):  # noqa: F811 - imported fixture
    """Pages on the live server (no bots needed: no Celery worker). Without Redis presence:
    the page keeps the player's feed open, which would count as watching and hold back the
    pushes these tests look at."""
    settings.EVENTS_REDIS_URL = ""
    with web_pages(request, browser, server_url) as client:
        yield client


def _page(nweb, user, device, server_url):
    page = nweb.page_as(user)
    page.context.grant_permissions(["notifications"], origin=server_url)
    page.context.add_init_script(PAGE_STUB % json.dumps(device.as_json()))
    return page


def _asks(page) -> int:
    return int(page.evaluate("() => sessionStorage.getItem('test.asks') || 0"))


def _enable(page, name: str = "") -> None:
    if page.url.startswith("http"):
        _active(page)
    page.goto("/notifications")
    expect(page.locator("#push-enable")).to_be_visible()
    if name:
        page.fill("#device-name", name)
    with page.expect_response(lambda r: r.url.endswith("/api/me/push-subscriptions")
                              and r.request.method == "POST") as posted:
        page.click("#push-enable")
    assert posted.value.status == 201, posted.value.text()
    expect(page.locator("#push-disable")).to_be_visible()


def _active(page) -> None:
    """Wait until the site's service worker (registered on every page load) is active. A
    navigation that starts while it still installs (it fetches the whole app shell first) can
    end uncontrolled: ``clients.claim()`` need not take a navigation already in flight. So a
    test waits for this before it navigates again."""
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")


def _worker(page):
    """The page's service worker (Playwright's handle), once active and controlling it."""
    _active(page)
    try:
        page.wait_for_function("() => navigator.serviceWorker.controller !== null",
                               timeout=60_000)
    except Exception:
        states = page.evaluate("""async () => {
          const reg = await navigator.serviceWorker.getRegistration("/");
          const state = (w) => w ? w.state : null;
          return reg && [state(reg.installing), state(reg.waiting), state(reg.active)];
        }""")
        raise AssertionError(f"the service worker does not control {page.url}: installing, "
                             f"waiting, active = {states}") from None
    workers = page.context.service_workers
    if not workers:
        workers = [page.context.wait_for_event("serviceworker")]
    [worker] = workers
    assert worker.url.endswith("/sw.js")
    return worker


def test_the_page_asks_on_click_registers_lists_removes_and_edits(nweb, server_url,
                                                                  push_service):  # noqa: F811
    alice = UserFactory()
    device = push_service.device()
    page = _page(nweb, alice, device, server_url)
    page.goto("/notifications")
    expect(page.locator("#push-enable")).to_be_visible()
    expect(page.locator("#notification-settings")).to_contain_text(
        "No device receives push notifications yet.")
    # Nothing asked, nothing subscribed, nothing registered until the player chooses. (The
    # service worker itself is registered on every page load: it keeps the app for offline use.)
    assert _asks(page) == 0
    assert page.evaluate("() => sessionStorage.getItem('test.subscribe')") is None
    assert not PushSubscription.objects.filter(user=alice).exists()
    _enable(page, "Test laptop")
    nweb.shot(page, "notifications-enabled")
    assert _asks(page) == 1
    asked = json.loads(page.evaluate("() => sessionStorage.getItem('test.subscribe')"))
    assert asked["userVisibleOnly"] is True
    assert bytes(asked["key"]) == b64url_decode(push_service.public_key)
    [sub] = PushSubscription.objects.filter(user=alice)
    assert (sub.endpoint, sub.name) == (device.endpoint, "Test laptop")
    assert sub.p256dh == device.p256dh and "Chrome" in sub.user_agent
    devices = page.locator("ul.devices li")
    expect(devices).to_have_count(1)
    expect(devices.first).to_contain_text(f"Test laptop (127.0.0.1:{push_service.port})")
    # The service worker is registered for the whole site and kept the subscription's record.
    worker = _worker(page)
    assert worker.evaluate("() => self.registration.scope") == f"{server_url}/"
    record = page.evaluate("""async () => {
        const found = await (await caches.open('boardpost-push')).match('/push-subscription');
        return found ? found.json() : null; }""")
    assert record == {"endpoint": device.endpoint,
                      "keys": {"auth": device.as_json()["keys"]["auth"]}}

    # Preferences: each change is saved at once.
    def saved(action) -> None:
        with page.expect_response(lambda r: r.url.endswith("/api/me/notifications")
                                  and r.request.method == "PATCH") as answer:
            action()
        assert answer.value.status == 200, answer.value.text()

    saved(lambda: page.uncheck("input[data-kind=invited][data-channel=push]"))
    saved(lambda: page.check("input[data-kind=match_finished][data-channel=email]"))
    saved(lambda: page.check("#email-digest"))
    saved(lambda: page.select_option("#digest-hour", "19"))
    saved(lambda: page.select_option("#time-zone", "Europe/Paris"))
    prefs = NotificationSettings.objects.get(user=alice)
    assert prefs.preferences["invited"] == {"push": False, "email": True}
    assert prefs.preferences["match_finished"] == {"push": True, "email": True}
    assert (prefs.email_digest, prefs.digest_hour, prefs.time_zone) == (True, 19, "Europe/Paris")
    page.reload()
    expect(page.locator("input[data-kind=invited][data-channel=push]")).not_to_be_checked()
    expect(page.locator("#digest-hour")).to_have_value("19")
    expect(page.locator("#time-zone")).to_have_value("Europe/Paris")
    assert _asks(page) == 1  # a reload asks nothing

    # Remove the device from the list.
    with page.expect_response(lambda r: r.request.method == "DELETE") as removed:
        devices.first.get_by_role("button", name="Remove").click()
    assert removed.value.status == 204
    expect(page.locator("#notification-settings")).to_contain_text(
        "No device receives push notifications yet.")
    assert not PushSubscription.objects.filter(user=alice).exists()


def test_the_service_worker_shows_a_push_and_opens_its_match(nweb, server_url,
                                                             push_service):  # noqa: F811
    alice, bob = UserFactory(), UserFactory()
    device = push_service.device()
    page = _page(nweb, alice, device, server_url)
    _enable(page)
    worker = _worker(page)
    # A real notification from the server: bob invites alice. The local push service checked
    # its VAPID signature and decrypted it with the device's key: this is what the device got.
    match = start("nibble", [bob, alice])
    [payload, *_] = push_service.for_device(device)
    assert payload["kind"] == "invited" and payload["url"] == f"/match/{match.id}"
    assert payload["waiting"] == 1  # the invitation waits for alice

    shown = in_worker(worker, """async (payload) => {
        self.badges = [];
        self.navigator.setAppBadge = async (n) => { self.badges.push(n); };
        self.navigator.clearAppBadge = async () => { self.badges.push(0); };
        await dispatch(new PushEvent("push", { data: JSON.stringify(payload) }));
        return (await self.registration.getNotifications()).map((n) => ({
            title: n.title, body: n.body, tag: n.tag, data: n.data }));
    }""", payload)
    # The app badge: the count the push carried.
    assert worker.evaluate("() => self.badges") == [1]
    assert shown == [{"title": "Invitation to Nibble",
                      "body": f"{bob.username} invites you to a match.",
                      "tag": f"invited:{match.id}", "data": {"url": f"/match/{match.id}"}}]

    # A push with a foreign or missing link opens the site's root, never another site.
    odd = in_worker(worker, """async () => {
        await dispatch(new PushEvent("push", { data: JSON.stringify(
            { title: "x", url: "https://evil.example/", tag: "odd" }) }));
        const [n] = await self.registration.getNotifications({ tag: "odd" });
        n.close();
        return n.data.url;
    }""")
    assert odd == "/"

    # Clicking the notification: the site's window is focused and goes to the match.
    page.goto("/inbox")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    opened = in_worker(worker, """async () => {
        const [notification] = await self.registration.getNotifications();
        await dispatch(new NotificationEvent("notificationclick", { notification }));
        return { left: (await self.registration.getNotifications()).length };
    }""")
    assert opened == {"left": 0}  # closed on click
    page.wait_for_url(f"**/match/{match.id}")
    expect(page.locator("#match")).to_have_attribute("data-status", "active")

    # With no window of the site open (the page is on another origin now), the click opens
    # one on the match. (A synthetic event carries no user gesture, so the browser would
    # refuse to open a window: the worker's clients.openWindow is observed here instead.)
    page.goto(server_url.replace("127.0.0.1", "localhost") + "/signin")
    url = in_worker(worker, """async (path) => {
        await self.registration.showNotification("t", { data: { url: path } });
        const [notification] = await self.registration.getNotifications();
        let opened = null;
        self.clients.openWindow = async (href) => { opened = href; return null; };
        await dispatch(new NotificationEvent("notificationclick", { notification }));
        return opened;
    }""", f"/match/{match.id}")
    assert url == f"{server_url}/match/{match.id}"


def test_the_service_worker_follows_a_replaced_subscription(nweb, server_url,
                                                            push_service):  # noqa: F811
    alice, bob = UserFactory(), UserFactory()
    old, new = push_service.device(), push_service.device()
    page = _page(nweb, alice, old, server_url)
    _enable(page, "phone")
    worker = _worker(page)
    [before] = PushSubscription.objects.filter(user=alice)
    # The push service dropped the subscription; the browser did not make a new one (no
    # newSubscription), so the worker subscribes again with the server's VAPID key (its
    # subscribe stubbed to the new device) and moves the registration to it, proving which
    # device it is with the old subscription's endpoint and secret that the page recorded.
    result = in_worker(worker, """async (device) => {
        let asked = null;
        PushManager.prototype.subscribe = async function (options) {
            asked = { userVisibleOnly: options.userVisibleOnly,
                      key: Array.from(new Uint8Array(options.applicationServerKey)) };
            return { endpoint: device.endpoint, expirationTime: null,
                     toJSON: () => ({ endpoint: device.endpoint, expirationTime: null,
                                      keys: device.keys }) };
        };
        const Change = self.PushSubscriptionChangeEvent || ExtendableEvent;
        await dispatch(new Change("pushsubscriptionchange"),
                       { oldSubscription: null, newSubscription: null });
        const found = await (await caches.open("boardpost-push")).match("/push-subscription");
        return { asked, record: await found.json() };
    }""", new.as_json())
    assert result["asked"]["userVisibleOnly"] is True
    assert bytes(result["asked"]["key"]) == b64url_decode(push_service.public_key)
    assert result["record"]["endpoint"] == new.endpoint
    [after] = PushSubscription.objects.filter(user=alice)
    assert (after.id, after.endpoint, after.name) == (before.id, new.endpoint, "phone")
    assert after.p256dh == new.p256dh
    # Pushes now reach the new subscription, not the old one.
    start("nibble", [bob, alice])
    assert push_service.for_device(old) == []
    assert push_service.for_device(new)[0]["kind"] == "invited"

    # The browser's own new subscription (newSubscription given) is registered as it is.
    third = push_service.device()
    in_worker(worker, """async ([old, device]) => {
        const subscription = (d) => ({ endpoint: d.endpoint, expirationTime: null,
                                        toJSON: () => ({ endpoint: d.endpoint,
                                                         expirationTime: null, keys: d.keys }) });
        const Change = self.PushSubscriptionChangeEvent || ExtendableEvent;
        await dispatch(new Change("pushsubscriptionchange"),
                       { oldSubscription: subscription(old),
                         newSubscription: subscription(device) });
    }""", [new.as_json(), third.as_json()])
    assert list(PushSubscription.objects.filter(user=alice).values_list("endpoint", flat=True)) \
        == [third.endpoint]
