// @ts-check
// The page's side of working offline (the service worker, /sw.js, does the keeping): it
// registers the worker on every page load, shows a banner while the network is gone, asks the
// worker to send the moves kept on the device when the network is back (where the browser has
// no Background Sync, that is the only way they leave), hands the worker's news about kept moves
// to the match page, keeps the app badge (the count of matches waiting for the player), and
// deletes what the device keeps of the player on sign-out.

import { h } from "./dom.js";
import { gettext } from "./i18n.js";

// The names the worker keeps things under (games/web/offline-worker.js).
const DATA_CACHE = "boardpost-data";
const OUTBOX_DB = "boardpost-outbox";

/**
 * The worker's news about a kept move: sent, or refused by the server.
 * @typedef {{type: "outbox-sent", match: string}
 *   | {type: "outbox-refused", refusal: Refusal}} OutboxNews
 * @typedef {{match: string, code: string, message: string, rule: string | null, at: number}}
 *   Refusal
 */

/** @type {Set<(news: OutboxNews) => void>} */
const listeners = new Set();

function supported() {
  return "serviceWorker" in navigator;
}

/** Ask the controlling worker something; its answer, or `fallback` without a worker.
 * @template T @param {object} message @param {T} fallback @returns {Promise<T>} */
async function askWorker(message, fallback) {
  const worker = supported() ? navigator.serviceWorker.controller : null;
  if (!worker) return fallback;
  const channel = new MessageChannel();
  const answer = new Promise((resolve) => {
    channel.port1.onmessage = (event) => resolve(event.data);
    setTimeout(() => resolve(fallback), 10000);
  });
  worker.postMessage(message, [channel.port2]);
  return /** @type {Promise<T>} */ (answer);
}

/** Send the moves kept on the device now (the network is back, or the page just opened).
 * The browser may say it is online a moment before requests get through: a send that finds
 * no network is tried again a few times, 3 s apart, while the page still thinks it is online.
 * @param {number} [tries] */
export async function sendKeptMoves(tries = 5) {
  for (let left = tries; left > 0 && navigator.onLine; left -= 1) {
    const { ok } = await askWorker({ type: "outbox-flush" }, { ok: true });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 3000));
  }
}

/** What the device keeps for match `id`: moves not sent yet, refusals not told yet.
 * @param {string} id @returns {Promise<{queued: number, refused: Refusal[]}>} */
export function keptFor(id) {
  return askWorker({ type: "outbox-status", match: id }, { queued: 0, refused: [] });
}

/** Hear the worker's news about kept moves; returns the function that stops listening.
 * @param {(news: OutboxNews) => void} listener */
export function onOutbox(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function showBanner() {
  let banner = document.getElementById("offline-banner");
  if (!banner) {
    banner = h("div", { id: "offline-banner", class: "offline-banner", role: "status" },
      h("p", null, h("strong", null, gettext("You are offline.")), " ",
        gettext("This is what was saved on this device; moves you make are kept and sent "
          + "when the connection is back.")));
    document.querySelector("header.top")?.after(banner);
  }
  banner.hidden = navigator.onLine;
}

/** The app badge: how many matches wait for the player (0 clears it), where the browser
 * shows one (an installed app).
 * @param {number} count */
export function setAppBadge(count) {
  const nav = /** @type {Navigator & {setAppBadge?: (n?: number) => Promise<void>,
   * clearAppBadge?: () => Promise<void>}} */ (navigator);
  if (count > 0) nav.setAppBadge?.(count).catch(() => {});
  else nav.clearAppBadge?.().catch(() => {});
}

/** Delete what this device keeps of the player: the kept answers and the moves not sent. */
export async function forgetPlayer() {
  await askWorker({ type: "sign-out" }, { ok: false });
  if ("caches" in window) await caches.delete(DATA_CACHE).catch(() => false);
  if ("indexedDB" in window) {
    await new Promise((resolve) => {
      const deleting = indexedDB.deleteDatabase(OUTBOX_DB);
      deleting.onsuccess = deleting.onerror = deleting.onblocked = () => resolve(null);
    });
  }
  setAppBadge(0);
}

/** Register the worker, follow the network's state, pass the worker's news on. */
export function startOffline() {
  window.addEventListener("online", () => {
    showBanner();
    sendKeptMoves();
  });
  window.addEventListener("offline", showBanner);
  if (!navigator.onLine) showBanner();
  if (!supported()) return;
  navigator.serviceWorker.addEventListener("message", (event) => {
    const news = event.data;
    if (news && (news.type === "outbox-sent" || news.type === "outbox-refused")) {
      for (const listener of listeners) listener(news);
    }
  });
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(() => sendKeptMoves(1))
    .catch(() => {
    /* no worker: the page works online as before */
  });
}
