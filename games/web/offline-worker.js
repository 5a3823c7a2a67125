// @ts-check
// The offline part of Boardpost's service worker (/sw.js, see games/web/worker.py).
//
// - The app shell: every static file of the client (self.BOARDPOST_SHELL, put before this
//   script by the server: hashed names, so a file never changes under its name) is kept at
//   install; the page (the same HTML for every route) is kept from the last navigation that
//   reached the server. Offline, a navigation gets the kept page.
// - The last answers of the inbox and of the player's matches (and the games, the player, the
//   page's texts): answered from the network, kept, and given back from here when the network
//   is gone. What is kept is only what the API answered this player: their own view, hidden
//   information as the API already hides it from them. When the inbox is kept, each running
//   match of it whose version changed is read and kept too, so any of them opens offline.
// - Moves made without a network: a move (POST /api/matches/{id}/moves) that cannot reach the
//   server is kept in IndexedDB as it was sent (its Idempotency-Key, its expected_version, its
//   token) and answered 202 {"queued": true}. It is sent again on Background Sync where the
//   browser has it, and when a page says the network is back ({type: "outbox-flush"}), in the
//   order made, one at a time. The server's Idempotency-Key makes a move sent twice count once.
//   A move the server refuses (stale, illegal, the match over) is dropped; its answer is kept
//   for the match page, which tells the player why.
// - Sign-out ({type: "sign-out"}): the kept answers and the moves not sent are deleted.

/** This script runs as a service worker: `self` is its global scope. */
const offlineScope = /** @type {ServiceWorkerGlobalScope & {BOARDPOST_SHELL?: {version: string,
 * urls: string[]}}} */ (/** @type {unknown} */ (self));

const SHELL = offlineScope.BOARDPOST_SHELL || { version: "none", urls: [] };
const SHELL_PREFIX = "boardpost-shell-";
const SHELL_CACHE = `${SHELL_PREFIX}${SHELL.version}`;
const DATA_CACHE = "boardpost-data";
const PAGE_KEY = "/";
const SYNC_TAG = "boardpost-outbox";
const OUTBOX_DB = "boardpost-outbox";

// The API answers kept for offline use: the inbox, the player's lists of matches, a match, its
// move log, the games, the player, the invitations.
const KEPT = [
  /^\/api\/me\/inbox$/,
  /^\/api\/matches$/,
  /^\/api\/me\/invitations$/,
  /^\/api\/me$/,
  /^\/api\/games$/,
  /^\/api\/matches\/[0-9a-f-]{36}$/,
  /^\/api\/matches\/[0-9a-f-]{36}\/moves$/,
  /^\/jsi18n\.json$/,
];
const MOVES = /^\/api\/matches\/([0-9a-f-]{36})\/moves$/;

offlineScope.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL_CACHE);
    // One file that cannot be fetched leaves the rest kept (and push working).
    await Promise.all(SHELL.urls.map((url) => cache.add(url).catch(() => {})));
    const page = await fetch(PAGE_KEY).catch(() => null);
    if (page && page.ok) await cache.put(PAGE_KEY, page);
  })());
});

offlineScope.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(SHELL_PREFIX) && name !== SHELL_CACHE) await caches.delete(name);
    }
  })());
});

// ------------------------------------------------------------------ answers

/** @param {Request} request */
async function navigation(request) {
  try {
    const answer = await fetch(request);
    const type = answer.headers.get("Content-Type") || "";
    if (answer.ok && type.startsWith("text/html")) {
      await (await caches.open(SHELL_CACHE)).put(PAGE_KEY, answer.clone());
    }
    return answer;
  } catch (error) {
    const kept = await caches.match(PAGE_KEY, { cacheName: SHELL_CACHE });
    if (kept) return kept;
    throw error;
  }
}

/** @param {Request} request */
async function staticFile(request) {
  const kept = await caches.match(request, { cacheName: SHELL_CACHE });
  if (kept) return kept;
  const answer = await fetch(request);
  if (answer.ok) await (await caches.open(SHELL_CACHE)).put(request, answer.clone());
  return answer;
}

/** The key an answer is kept under: its URL without the headers that vary.
 * @param {URL} url */
function dataKey(url) {
  return url.pathname + url.search;
}

/** @param {FetchEvent} event @param {URL} url */
async function keptAnswer(event, url) {
  const { request } = event;
  try {
    const answer = await fetch(request);
    // The network answers again: moves kept meanwhile leave now (the page's "online" event
    // can come before the network reaches this worker).
    if (movesWaiting) event.waitUntil(flushOutbox().catch(() => {}));
    if (answer.status === 200) {
      const copy = answer.clone();
      await (await caches.open(DATA_CACHE)).put(dataKey(url), copy.clone());
      if (url.pathname === "/api/me/inbox") {
        event.waitUntil(copy.json().then((inbox) => keepMatches(request, inbox)).catch(() => {}));
      }
    }
    return answer;
  } catch (error) {
    const kept = await (await caches.open(DATA_CACHE)).match(dataKey(url));
    if (!kept) throw error;
    const headers = new Headers(kept.headers);
    headers.set("Boardpost-Offline", "kept");
    return new Response(kept.body, { status: 200, headers });
  }
}

/** Read and keep each running match of the inbox whose kept answer is missing or older, and
 * the first page of its move log (what the match page reads when it opens).
 * @param {Request} request the inbox's request (its Authorization) @param {any} inbox */
async function keepMatches(request, inbox) {
  if (!Array.isArray(inbox)) return;
  const cache = await caches.open(DATA_CACHE);
  /** @type {Object<string, string>} */
  const headers = { Accept: "application/json" };
  const token = request.headers.get("Authorization");
  if (token) headers.Authorization = token;
  for (const match of inbox) {
    if (!match || typeof match.id !== "string" || !/^[0-9a-f-]{36}$/.test(match.id)) continue;
    const key = `/api/matches/${match.id}`;
    const kept = await cache.match(key);
    if (kept && (await kept.clone().json()).version === match.version) continue;
    for (const path of [key, `${key}/moves?after=0&limit=500`]) {
      const answer = await fetch(path, { headers, credentials: "omit" }).catch(() => null);
      if (answer && answer.status === 200) await cache.put(path, answer);
    }
  }
}

offlineScope.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (url.origin !== offlineScope.location.origin) return;
  if (request.method === "POST" && MOVES.test(url.pathname)) {
    event.respondWith(sendOrKeep(request, url));
    return;
  }
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    event.respondWith(navigation(request));
  } else if (SHELL.urls.includes(url.pathname) || url.pathname.startsWith("/static/")) {
    event.respondWith(staticFile(request));
  } else if (KEPT.some((pattern) => pattern.test(url.pathname))) {
    event.respondWith(keptAnswer(event, url));
  }
});

// ------------------------------------------------------------------ moves kept on the device

/**
 * A move kept on the device, as it was sent.
 * @typedef {{id?: number, match: string, url: string, body: string,
 *   headers: Object<string, string>, at: number}} KeptMove
 * A kept move the server refused: its error envelope, for the match page.
 * @typedef {{id?: number, match: string, code: string, message: string, rule: string | null,
 *   at: number}} Refusal
 */

/** @returns {Promise<IDBDatabase>} */
function openOutbox() {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(OUTBOX_DB, 1);
    opening.onupgradeneeded = () => {
      opening.result.createObjectStore("moves", { keyPath: "id", autoIncrement: true });
      opening.result.createObjectStore("refused", { keyPath: "id", autoIncrement: true });
    };
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
  });
}

/** Run `work` on a store in one transaction, the database closed afterwards (a page's
 * deleteDatabase on sign-out is then never blocked).
 * @template T
 * @param {"moves" | "refused"} name @param {IDBTransactionMode} mode
 * @param {(store: IDBObjectStore) => IDBRequest<T>} work @returns {Promise<T>} */
async function inStore(name, mode, work) {
  const db = await openOutbox();
  try {
    return await new Promise((resolve, reject) => {
      const transaction = db.transaction(name, mode);
      const asked = work(transaction.objectStore(name));
      transaction.oncomplete = () => resolve(asked.result);
      transaction.onerror = () => reject(transaction.error);
    });
  } finally {
    db.close();
  }
}

/** @param {unknown} data */
async function tellPages(data) {
  for (const client of await offlineScope.clients.matchAll({ type: "window" })) {
    client.postMessage(data);
  }
}

/** Send a move, or keep it when the network is gone.
 * @param {Request} request @param {URL} url */
async function sendOrKeep(request, url) {
  const body = await request.clone().text();
  try {
    return await fetch(request);
  } catch {
    /** @type {Object<string, string>} */
    const headers = {};
    for (const name of ["Authorization", "Idempotency-Key", "Content-Type", "Accept",
      "Accept-Language"]) {
      const value = request.headers.get(name);
      if (value) headers[name] = value;
    }
    const match = /** @type {RegExpExecArray} */ (MOVES.exec(url.pathname))[1];
    /** @type {KeptMove} */
    const kept = { match, url: url.pathname, body, headers, at: Date.now() };
    await inStore("moves", "readwrite", (store) => store.add(kept));
    movesWaiting = true;
    const sync = /** @type {any} */ (offlineScope.registration).sync;
    if (sync) await sync.register(SYNC_TAG).catch(() => {});
    return new Response(JSON.stringify({ queued: true, match }), {
      status: 202, headers: { "Content-Type": "application/json" },
    });
  }
}

/** @type {Promise<void> | null} */
let flushing = null;
// Whether moves may be waiting in the outbox: true when this worker starts (it may have been
// stopped with moves kept) and when one is kept or fails to leave; false after a flush that
// sent them all.
let movesWaiting = true;

/** Send the kept moves, oldest first, one at a time; one flush at a time (a second request
 * waits for the first and then looks again). */
function flushOutbox() {
  const previous = flushing || Promise.resolve();
  const next = previous.then(sendKept, sendKept);
  flushing = next.finally(() => {
    if (flushing === next) flushing = null;
  });
  return next;
}

async function sendKept() {
  movesWaiting = false;
  const moves = /** @type {KeptMove[]} */ (await inStore("moves", "readonly",
    (store) => store.getAll()));
  for (const move of moves) {
    let answer;
    try {
      answer = await fetch(move.url, {
        method: "POST", headers: move.headers, body: move.body, credentials: "omit",
      });
    } catch {
      movesWaiting = true;
      throw new Error("offline"); // still no network: Background Sync tries again later
    }
    if (answer.status >= 500 || answer.status === 429) {
      movesWaiting = true;
      throw new Error(`HTTP ${answer.status}`);
    }
    await inStore("moves", "readwrite", (store) => store.delete(/** @type {number} */ (move.id)));
    if (answer.ok) {
      await tellPages({ type: "outbox-sent", match: move.match });
      continue;
    }
    const envelope = await answer.json().catch(() => ({}));
    /** @type {Refusal} */
    const refusal = {
      match: move.match, code: String(envelope.code || `http_${answer.status}`),
      message: String(envelope.message || ""), rule: envelope.extra?.rule || null,
      at: move.at,
    };
    refusal.id = /** @type {number} */ (await inStore("refused", "readwrite",
      (store) => store.add(refusal)));
    await tellPages({ type: "outbox-refused", refusal });
  }
}

/** What the device keeps for a match: the moves not sent yet, and the refusals not told yet
 * (told now: they are deleted).
 * @param {string} match */
async function outboxFor(match) {
  const moves = /** @type {KeptMove[]} */ (await inStore("moves", "readonly",
    (store) => store.getAll())).filter((move) => move.match === match);
  const refused = /** @type {Refusal[]} */ (await inStore("refused", "readonly",
    (store) => store.getAll())).filter((refusal) => refusal.match === match);
  for (const refusal of refused) {
    await inStore("refused", "readwrite", (store) => store.delete(/** @type {number} */ (
      refusal.id)));
  }
  return { queued: moves.length, refused };
}

async function forgetPlayer() {
  await caches.delete(DATA_CACHE);
  await inStore("moves", "readwrite", (store) => store.clear());
  await inStore("refused", "readwrite", (store) => store.clear());
}

offlineScope.addEventListener("sync", (event) => {
  const sync = /** @type {ExtendableEvent & {tag: string}} */ (event);
  if (sync.tag === SYNC_TAG) sync.waitUntil(flushOutbox());
});

offlineScope.addEventListener("message", (event) => {
  const data = event.data || {};
  const port = event.ports[0];
  const reply = (/** @type {unknown} */ value) => port?.postMessage(value);
  let work;
  if (data.type === "outbox-flush") {
    work = flushOutbox().then(() => reply({ ok: true }), () => reply({ ok: false }));
  } else if (data.type === "outbox-status" && typeof data.match === "string") {
    work = outboxFor(data.match).then(reply, () => reply({ queued: 0, refused: [] }));
  } else if (data.type === "sign-out") {
    work = forgetPlayer().then(() => reply({ ok: true }), () => reply({ ok: false }));
  }
  if (work) event.waitUntil(work);
});
