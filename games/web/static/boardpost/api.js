// @ts-check
// The public API, as any client sees it: JSON over HTTP with `Authorization: Token <key>`.
// Errors come back as {code, message, extra}; they are thrown as ApiError.

import { gettext, interpolate } from "./i18n.js";

// The API's shapes the pages rely on (docs/openapi.yaml has them all). A game's own parts
// (config, view, legal moves, outcome, events) are the game module's to read.
/** @typedef {{username: string, is_bot: boolean}} PlayerRef */
/**
 * @typedef {object} Seat
 * @property {number} index
 * @property {PlayerRef | null} player
 * @property {boolean} on_vacation the seat's player is on vacation now (never a bot)
 * @property {boolean} joined
 * @property {boolean} to_act
 * @property {boolean} forfeited
 * @property {number | null} rank
 * @property {number | null} score
 */
/**
 * A match (GET /api/matches/{id}; a list gives the same fields but the view and legal moves).
 * @typedef {object} Match
 * @property {string} id
 * @property {string} game
 * @property {string} status "open", "active", "finished" or "aborted"
 * @property {number} players
 * @property {boolean} rated
 * @property {number} version
 * @property {TimeControl | null} time_control
 * @property {number | null} turn_seconds
 * @property {string | null} deadline
 * @property {string} created_at
 * @property {string} updated_at
 * @property {Seat[]} seats
 * @property {number[]} to_act
 * @property {number | null} your_seat
 * @property {boolean} is_your_turn
 * @property {boolean} invitation_pending
 * @property {any} outcome
 * @property {boolean} private
 * @property {string | null} unrated_reason "timeout_run": a timeout in a run left it unrated
 * @property {SeatRatingChange[]} rating_changes
 * @property {string | null} rematch
 * @property {string | null} rematch_of
 * @property {any} config
 * @property {string | null} started_at
 * @property {string | null} finished_at
 * @property {any} [view]
 * @property {any} [legal_moves]
 * @property {string | null} [seed]
 * @property {MatchClocks | null} [clocks]
 * @property {boolean} [plans] whether its seats may hold plans (conditional moves)
 */
/**
 * A match's time control, by its kind.
 * @typedef {{kind: "per_move", turn_seconds: number, weekend_pause: boolean,
 *   vacation_allowed: boolean} | {kind: "bank", initial_seconds: number,
 *   increment_seconds: number, maximum_seconds: number, weekend_pause: boolean,
 *   vacation_allowed: boolean}} TimeControl
 */
/**
 * One seat's clock as of the answer (time_left in seconds at as_of).
 * @typedef {{seat: number, time_left: number, deadline: string | null, on_turn: boolean,
 *   running: boolean, counting: boolean, vacation: boolean}} SeatClock
 */
/** @typedef {{kind: string, as_of: string, seats: SeatClock[]}} MatchClocks */
/**
 * @typedef {{seat: number | null, username: string, rating_before: number,
 *   rating_after: number, change: number}} SeatRatingChange
 */
/**
 * @typedef {object} RequestOptions
 * @property {unknown} [body] sent as JSON
 * @property {Object<string, string>} [headers]
 * @property {AbortSignal} [signal]
 * @property {boolean} [auth] false: no Authorization header
 */

const TOKEN_KEY = "boardpost.token";
const USER_KEY = "boardpost.username";

export class ApiError extends Error {
  /** @param {number} status @param {any} body the error envelope, if the answer is one */
  constructor(status, body) {
    const envelope = body && typeof body === "object" ? body : {};
    super(envelope.message || interpolate(gettext("HTTP %(status)s"), { status }));
    this.status = status;
    this.code = envelope.code || "http_error";
    /** @type {Object<string, any>} */
    this.extra = envelope.extra || {};
    /** @type {number | null} seconds, from a 429's Retry-After */
    this.retryAfter = null;
  }

  /** @returns {string | null} */
  get rule() {
    return this.extra.rule || null;
  }
}

// The token is kept in localStorage, like any token-API client keeps its key: the page runs
// only this site's own modules (its Content-Security-Policy allows no other script), the
// token is named "web client" in the account's token list, expires, and is revoked on
// sign-out.
export const session = {
  get token() {
    return localStorage.getItem(TOKEN_KEY);
  },
  get username() {
    return localStorage.getItem(USER_KEY);
  },
  /** @param {string} token @param {string} username */
  save(token, username) {
    localStorage.setItem(TOKEN_KEY, token);
    localStorage.setItem(USER_KEY, username);
  },
  clear() {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(USER_KEY);
  },
};

/** @type {Set<() => void>} */
const listeners = new Set();

/** Called with no argument when the server says the token is no longer valid.
 * @param {() => void} listener */
export function onSignedOut(listener) {
  listeners.add(listener);
}

/** A random key for `Idempotency-Key` (crypto.randomUUID needs a secure context). */
export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * request(method, path, {body, headers, signal, auth}) -> {status, data, headers}
 * Throws ApiError for any status >= 400 (and for network failures, status 0).
 * @param {string} method @param {string} path @param {RequestOptions} [options]
 * @returns {Promise<{status: number, data: any, headers: Headers}>}
 */
export async function request(method, path, options = {}) {
  /** @type {Object<string, string>} */
  const headers = { Accept: "application/json", ...(options.headers || {}) };
  const token = session.token;
  if (token && options.auth !== false) headers.Authorization = `Token ${token}`;
  let body;
  if (options.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(options.body);
  }
  let response;
  try {
    response = await fetch(path, {
      method, headers, body, signal: options.signal, credentials: "omit", cache: "no-store",
    });
  } catch (error) {
    if (/** @type {Error} */ (error).name === "AbortError") throw error;
    throw new ApiError(0, { code: "network_error", message: gettext("The server cannot be reached.") });
  }
  let data = null;
  const text = response.status === 204 || response.status === 304 ? "" : await response.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = {
        code: "bad_response",
        message: interpolate(gettext("Unexpected answer (HTTP %(status)s)."),
          { status: response.status }),
      };
    }
  }
  if (response.status === 401 && token) {
    session.clear();
    listeners.forEach((listener) => listener());
  }
  if (response.status >= 400) {
    const error = new ApiError(response.status, data);
    error.retryAfter = Number(response.headers.get("Retry-After")) || null;
    throw error;
  }
  return { status: response.status, data, headers: response.headers };
}

export const api = {
  /** @param {string} path @param {RequestOptions} [options] @returns {Promise<any>} */
  async get(path, options) {
    return (await request("GET", path, options)).data;
  },
  /** @param {string} path @param {unknown} [body] @param {RequestOptions} [options]
   * @returns {Promise<any>} */
  async post(path, body, options = {}) {
    return (await request("POST", path, { ...options, body })).data;
  },
  /** @param {string} path @param {RequestOptions} [options] @returns {Promise<any>} */
  async del(path, options) {
    return (await request("DELETE", path, options)).data;
  },
};

/** Tell the server that the signed-in seat has looked at match `id` (POST
 * /api/matches/{id}/seen, 204). Best-effort: any failure (a spectator's 403 or 404, a server
 * without the endpoint, the network) is ignored. Resolves to whether the server took it.
 * @param {string} id @param {AbortSignal} [signal] @returns {Promise<boolean>} */
export async function markSeen(id, signal) {
  try {
    await request("POST", `/api/matches/${encodeURIComponent(id)}/seen`, { signal });
    return true;
  } catch {
    return false;
  }
}

/** Every page of a cursor-paginated list ({results, next}), up to `max` items.
 * @param {string} path @param {number} [max] @param {AbortSignal} [signal]
 * @returns {Promise<any[]>} */
export async function allPages(path, max = 1000, signal) {
  /** @type {any[]} */
  const items = [];
  /** @type {string | null} */
  let next = path;
  while (next && items.length < max) {
    const page = await api.get(next, { signal });
    items.push(...page.results);
    next = page.next ? sameOrigin(page.next) : null;
  }
  return items;
}

/** A `next` link as a path on this origin (DRF gives absolute URLs).
 * @param {string} url */
export function sameOrigin(url) {
  const parsed = new URL(url, location.href);
  return parsed.pathname + parsed.search;
}

/** @type {(ms: number, signal?: AbortSignal) => Promise<void>} */
export const sleep = (ms, signal) => new Promise((resolve, reject) => {
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener("abort", () => {
    clearTimeout(timer);
    reject(new DOMException("Aborted", "AbortError"));
  }, { once: true });
});

/**
 * Follow a long-poll endpoint until `signal` aborts: GET `makePath(after)` (a path asking the
 * server to wait `waitSeconds`), hand the answer to `onAnswer` (which returns the next `after`,
 * or null to stop), retry with back-off on errors. A request the server has not answered
 * `graceSeconds` after its wait is given up and sent again (a proxy or server may drop it).
 * @template A
 * @param {(after: A, waitSeconds: number) => string} makePath @param {A} after
 * @param {(answer: any) => A | null | undefined | Promise<A | null | undefined>} onAnswer
 * @param {AbortSignal} signal
 * @param {{waitSeconds?: number, graceSeconds?: number}} [timing]
 */
export async function follow(makePath, after, onAnswer, signal,
  { waitSeconds = 25, graceSeconds = 10 } = {}) {
  let delay = 500;
  while (!signal.aborted) {
    const attempt = new AbortController();
    const stop = () => attempt.abort();
    signal.addEventListener("abort", stop, { once: true });
    const timer = setTimeout(stop, (waitSeconds + graceSeconds) * 1000);
    try {
      const answer = await api.get(makePath(after, waitSeconds), { signal: attempt.signal });
      delay = 500;
      const next = await onAnswer(answer);
      if (next === null || next === undefined) return;
      after = next;
    } catch (error) {
      if (signal.aborted) return;
      if (/** @type {Error} */ (error).name === "AbortError") continue; // no answer in time: ask again at once
      const { status, retryAfter } = /** @type {ApiError} */ (error);
      if (status === 401 || status === 404) return;
      const wait = status === 429 ? Math.max(delay, (retryAfter || 1) * 1000) : delay;
      await sleep(wait, signal).catch(() => {});
      delay = Math.min(delay * 2, 15000);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", stop);
    }
  }
}

/**
 * Live updates: follow a Server-Sent Events stream (`paths.stream(after)`), whose messages
 * carry the same answers as the long-poll, and fall back to long-polling (`paths.poll(after,
 * wait)`, see follow) where streams do not get through (or long-poll at once when
 * `paths.stream` is null). Each answer goes to `onAnswer`, which
 * returns the next `after`, or null to stop.
 *
 * The stream is read with fetch() rather than EventSource, because EventSource cannot send the
 * `Authorization` header (and a token in the URL would end up in logs). A dropped stream is
 * resumed with `Last-Event-ID`; one that gives no byte for `silenceSeconds` (the server sends a
 * heartbeat every 15 s) is dropped. After two streams in a row that never delivered anything
 * (a proxy buffering them, say), the page long-polls instead.
 * @template A
 * @param {{stream: ((after: A) => string) | null, poll: (after: A, wait: number) => string}} paths
 * @param {A} after
 * @param {(answer: any) => A | null | undefined | Promise<A | null | undefined>} onAnswer
 * @param {AbortSignal} signal
 * @param {{silenceSeconds?: number, streams?: boolean}} [options]
 */
export async function live(paths, after, onAnswer, signal,
  { silenceSeconds = 40, streams = typeof ReadableStream !== "undefined" } = {}) {
  let failures = 0;
  let delay = 1000;
  while (paths.stream && streams && !signal.aborted && failures < 2) {
    const outcome = await streamOnce(paths.stream(after), after, onAnswer, signal,
      silenceSeconds);
    if (outcome.done) return;
    after = outcome.after;
    if (outcome.delivered) {
      failures = 0;
      delay = 1000;
    } else {
      failures += 1;
    }
    await sleep(delay, signal).catch(() => {});
    delay = Math.min(delay * 2, 15000);
  }
  if (!signal.aborted) await follow(paths.poll, after, onAnswer, signal);
}

/** One stream connection: {after, done, delivered}.
 * @template A
 * @param {string} path @param {A} after
 * @param {(answer: any) => A | null | undefined | Promise<A | null | undefined>} onAnswer
 * @param {AbortSignal} signal @param {number} silenceSeconds
 * @returns {Promise<{after: A, done: boolean, delivered: boolean}>} */
async function streamOnce(path, after, onAnswer, signal, silenceSeconds) {
  const attempt = new AbortController();
  const stop = () => attempt.abort();
  signal.addEventListener("abort", stop, { once: true });
  let timer = setTimeout(stop, silenceSeconds * 1000);
  const alive = () => {
    clearTimeout(timer);
    timer = setTimeout(stop, silenceSeconds * 1000);
  };
  const outcome = { after, done: false, delivered: false };
  try {
    /** @type {Object<string, string>} */
    const headers = { Accept: "text/event-stream", "Last-Event-ID": String(after) };
    if (session.token) headers.Authorization = `Token ${session.token}`;
    const response = await fetch(path, {
      headers, signal: attempt.signal, credentials: "omit", cache: "no-store",
    });
    if (response.status === 401 || response.status === 404) {
      if (response.status === 401 && session.token) {
        session.clear();
        listeners.forEach((listener) => listener());
      }
      outcome.done = true;
      return outcome;
    }
    const type = response.headers.get("Content-Type") || "";
    if (response.status !== 200 || !type.startsWith("text/event-stream") || !response.body) {
      return outcome;
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return outcome;
      alive();
      outcome.delivered = true;
      buffer += value.replaceAll("\r\n", "\n");
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block.split("\n").filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).trimStart()).join("\n");
        if (!data) continue; // a comment (heartbeat) or the retry field
        const next = await onAnswer(JSON.parse(data));
        if (next === null || next === undefined) {
          outcome.done = true;
          attempt.abort();
          return outcome;
        }
        outcome.after = next;
      }
    }
  } catch {
    if (signal.aborted) outcome.done = true;
    return outcome;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", stop);
  }
}
