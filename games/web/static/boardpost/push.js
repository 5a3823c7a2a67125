// @ts-check
// Web Push for this browser: register the service worker, ask for permission (only when the
// player clicks a button), subscribe with the server's VAPID key and register the
// subscription with the API; or remove it again. The registered subscription's endpoint and
// auth secret are kept in Cache Storage for the service worker, which needs them to move the
// registration to a new subscription when the push service replaces it (sw.js).

import { api } from "./api.js";
import { gettext } from "./i18n.js";

export function supported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** Whether this is an iPhone or iPad browser tab rather than the installed app: iOS and iPadOS
 * deliver web push only to a web app added to the Home Screen (iPadOS reports itself as a Mac
 * with a touch screen). */
export function needsHomeScreen() {
  const agent = navigator.userAgent;
  const ios = /iPhone|iPad|iPod/.test(agent)
    || (agent.includes("Macintosh") && navigator.maxTouchPoints > 1);
  const installed = /** @type {Navigator & {standalone?: boolean}} */ (navigator).standalone
    === true || matchMedia("(display-mode: standalone)").matches;
  return ios && !installed;
}

/** @param {string} base64url */
function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/")
    + "=".repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

const STORE = "boardpost-push";
const RECORD = "/push-subscription";

/** @param {PushSubscription} subscription */
async function remember(subscription) {
  const { endpoint, keys } = subscription.toJSON();
  await (await caches.open(STORE)).put(RECORD, new Response(JSON.stringify({
    endpoint, keys: { auth: /** @type {Record<string, string>} */ (keys).auth },
  }), { headers: { "Content-Type": "application/json" } }));
}

async function forget() {
  await caches.delete(STORE);
}

async function registration() {
  await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  return navigator.serviceWorker.ready;
}

/** This browser's current subscription, if any (no permission prompt). */
export async function currentSubscription() {
  if (!supported() || Notification.permission !== "granted") return null;
  const reg = await navigator.serviceWorker.getRegistration("/");
  return reg ? reg.pushManager.getSubscription() : null;
}

/** Ask for permission, subscribe and register this device; the API's record of it.
 * @param {string} name */
export async function enable(name) {
  const { public_key: key } = await api.get("/api/push/public-key");
  const permission = await Notification.requestPermission();
  if (permission !== "granted") {
    throw new Error(gettext(
      "Notifications are blocked for this site; allow them in the browser's settings."));
  }
  const reg = await registration();
  let subscription = await reg.pushManager.getSubscription();
  if (!subscription) {
    subscription = await reg.pushManager.subscribe({
      userVisibleOnly: true, applicationServerKey: keyBytes(key),
    });
  }
  const registered = await api.post("/api/me/push-subscriptions", { ...subscription.toJSON(), name });
  await remember(subscription);
  return registered;
}

/** Stop this browser's subscription (the server forgets it at its next push, or now).
 * @param {number | string | null | undefined} deviceId */
export async function disable(deviceId) {
  const subscription = await currentSubscription();
  if (subscription) await subscription.unsubscribe();
  await forget();
  if (deviceId != null) await api.del(`/api/me/push-subscriptions/${deviceId}`);
}
