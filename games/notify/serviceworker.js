// @ts-check
// The push part of Boardpost's service worker (served at /sw.js, scope "/", after the offline
// part: games/web/worker.py): shows each Web Push message as a notification and sets the app
// badge, opens the match it is about when the player clicks it (focusing a window already on
// the site), and follows the push service when it replaces this browser's subscription. The
// message is the server's JSON: {title, body, url, tag, kind, match, event, waiting}; it says
// what the player's own feed says, nothing more.

// The subscription this browser registered with the server ({endpoint, keys: {auth}}), kept
// by the page (push.js) in Cache Storage: a service worker cannot read the page's
// localStorage, and on `pushsubscriptionchange` the old subscription may be gone already.
const STORE = "boardpost-push";
const RECORD = "/push-subscription";

/** This script runs as a service worker: `self` is its global scope. */
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

worker.addEventListener("install", () => worker.skipWaiting());
worker.addEventListener("activate", (event) => event.waitUntil(worker.clients.claim()));

/** The notification for one push message, and the app badge: how many matches wait for the
 * player now (the message's `waiting`; 0 clears it), where the browser shows one.
 * @param {{title?: unknown, body?: unknown, url?: unknown, tag?: unknown, waiting?: unknown}}
 *   data */
async function showPush(data) {
  if (typeof data.waiting === "number") {
    const badge = /** @type {WorkerNavigator & {setAppBadge?: (n?: number) => Promise<void>,
     * clearAppBadge?: () => Promise<void>}} */ (worker.navigator);
    const set = data.waiting > 0 ? badge.setAppBadge?.(data.waiting) : badge.clearAppBadge?.();
    await set?.catch(() => {});
  }
  const title = typeof data.title === "string" ? data.title : "Boardpost";
  const url = typeof data.url === "string" && data.url.startsWith("/") ? data.url : "/";
  await worker.registration.showNotification(title, {
    body: typeof data.body === "string" ? data.body : "",
    // One notification per match and kind: a newer one replaces the older.
    tag: typeof data.tag === "string" ? data.tag : undefined,
    data: { url },
  });
}

/** Open the notification's match: in a window of this site if there is one, else a new one.
 * @param {Notification} notification */
async function openMatch(notification) {
  notification.close();
  const target = new URL(notification.data?.url || "/", worker.location.origin);
  if (target.origin !== worker.location.origin) return null;
  const windows = await worker.clients.matchAll({ type: "window", includeUncontrolled: true });
  for (const client of windows) {
    if (new URL(client.url).origin !== target.origin) continue;
    /** @type {WindowClient} */
    let shown = client;
    if ("navigate" in client && client.url !== target.href) {
      // Only a window this worker controls can be navigated; another one is focused as it is.
      shown = (await client.navigate(target.href).catch(() => null)) || client;
    }
    if ("focus" in shown) await shown.focus().catch(() => {});
    return shown;
  }
  return worker.clients.openWindow(target.href);
}

/** @param {string} base64url */
function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/")
    + "=".repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/** @returns {Promise<PushSubscriptionJSON | null>} */
async function recorded() {
  const found = await (await caches.open(STORE)).match(RECORD);
  return found ? found.json() : null;
}

/** @param {PushSubscriptionJSON} subscription */
async function record(subscription) {
  const { endpoint, keys } = subscription;
  await (await caches.open(STORE)).put(RECORD, new Response(JSON.stringify({
    endpoint, keys: { auth: /** @type {Record<string, string>} */ (keys).auth },
  }), { headers: { "Content-Type": "application/json" } }));
}

/**
 * The push service replaced this browser's subscription (or dropped it): subscribe again
 * with the server's VAPID key when the browser did not already, and tell the server, which
 * puts the new subscription in the old one's place. The service worker has no API token; the
 * old subscription's endpoint and auth secret prove which device it is.
 * @param {PushSubscription | null} oldSubscription
 * @param {PushSubscription | null} newSubscription
 */
async function renewSubscription(oldSubscription, newSubscription) {
  const old = oldSubscription ? oldSubscription.toJSON() : await recorded();
  let fresh = newSubscription;
  if (!fresh) {
    const answer = await fetch("/api/push/public-key", { credentials: "omit" });
    if (!answer.ok) return null; // the server sends no push any more
    const { public_key: key } = await answer.json();
    fresh = await worker.registration.pushManager.subscribe({
      userVisibleOnly: true, applicationServerKey: keyBytes(key),
    });
  }
  const next = fresh.toJSON();
  const nextKeys = /** @type {Record<string, string>} */ (next.keys);
  if (!old || !old.endpoint || !old.keys?.auth) return null; // the page registers it next time
  const answer = await fetch("/api/push-subscriptions/renew", {
    method: "POST",
    credentials: "omit",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({
      old_endpoint: old.endpoint,
      old_auth: old.keys.auth,
      subscription: { endpoint: next.endpoint, expirationTime: next.expirationTime ?? null,
        keys: { p256dh: nextKeys.p256dh, auth: nextKeys.auth } },
    }),
  });
  if (!answer.ok) return null;
  await record(next);
  return next;
}

worker.addEventListener("push", (event) => {
  let data;
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(showPush(data));
});

worker.addEventListener("notificationclick", (event) => {
  event.waitUntil(openMatch(event.notification));
});

worker.addEventListener("pushsubscriptionchange", (event) => {
  event.waitUntil(renewSubscription(event.oldSubscription, event.newSubscription));
});
