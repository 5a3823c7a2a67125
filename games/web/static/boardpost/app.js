// @ts-check
// Boardpost's reference web client: a router over a few pages, and the player's event feed.

import { api, live, onSignedOut, request, session } from "./api.js";
import { loadGames } from "./catalog.js";
import { clear, h, link, notice } from "./dom.js";
import { LANG, LANGUAGES, LANGUAGE_COOKIE, gettext, interpolate, ngettext } from "./i18n.js";
import * as account from "./pages/account.js";
import * as auth from "./pages/auth.js";
import * as blocks from "./pages/blocks.js";
import * as friends from "./pages/friends.js";
import * as home from "./pages/home.js";
import * as inbox from "./pages/inbox.js";
import * as leaderboards from "./pages/leaderboards.js";
import * as lobby from "./pages/lobby.js";
import * as match from "./pages/match.js";
import * as notifications from "./pages/notifications.js";
import * as password from "./pages/password.js";
import * as player from "./pages/player.js";
import * as rules from "./pages/rules.js";
import * as tournament from "./pages/tournament.js";
import * as tournamentNew from "./pages/tournamentnew.js";
import * as tournaments from "./pages/tournaments.js";
import * as tutorial from "./pages/tutorial.js";
import { myTurn } from "./matchinfo.js";
import { forgetPlayer, setAppBadge, startOffline } from "./offline.js";
import { isGuest } from "./playnow.js";

/**
 * What a page's render(main, params, ctx) gets besides its <main> and the path's parts.
 * @typedef {object} PageContext
 * @property {AbortSignal} signal aborted when the page is left
 * @property {typeof navigate} navigate
 * @property {typeof feed} feed
 * @property {typeof signedIn} signedIn
 * @property {typeof startGuest} startGuest
 * @property {URLSearchParams} query
 */
/**
 * A page module: render() fills <main>; it may resolve to a cleanup called on leaving.
 * @typedef {object} Page
 * @property {(main: HTMLElement, params: string[], ctx: PageContext)
 *   => Promise<(() => void) | undefined | void>} render
 */
/** A feed entry (GET /api/me/events): its `type` and what it is about.
 * @typedef {Object<string, any> & {id: number, type: string}} FeedEvent */

/** @type {[RegExp, () => Page, boolean][]} */
const ROUTES = [
  [/^\/$/, () => home, false],
  [/^\/signin\/?$/, () => auth, false],
  [/^\/inbox\/?$/, () => inbox, true],
  [/^\/lobby\/?$/, () => lobby, true],
  [/^\/notifications\/?$/, () => notifications, true],
  [/^\/friends\/?$/, () => friends, true],
  [/^\/blocks\/?$/, () => blocks, true],
  [/^\/account\/?$/, () => account, true],
  [/^\/password\/(forgot|reset)\/?$/, () => password, false],
  [/^\/tournaments\/?$/, () => tournaments, false],
  [/^\/tournaments\/new\/?$/, () => tournamentNew, true],
  [/^\/tournament\/([0-9a-fA-F-]{36})\/?$/, () => tournament, false],
  [/^\/match\/([0-9a-fA-F-]{36})\/?$/, () => match, false],
  [/^\/player\/([A-Za-z0-9_.-]+)\/?$/, () => player, false],
  [/^\/leaderboards(?:\/([a-z]+))?\/?$/, () => leaderboards, false],
  [/^\/rules(?:\/([a-z][a-z0-9_]*))?\/?$/, () => rules, false],
  [/^\/tutorial\/([a-z][a-z0-9_]*)\/?$/, () => tutorial, false],
];

/** @type {{controller: AbortController, cleanup: (() => void) | null | undefined | void} | null} */
let current = null; // {controller, cleanup}

// ------------------------------------------------------------------ the player's event feed

/** The feed of the signed-in player: pages call feed.subscribe(fn) to hear new entries. */
export const feed = {
  /** @type {FeedEvent[]} */
  recent: [],
  /** @type {Set<(events: FeedEvent[]) => void>} */
  listeners: new Set(),
  /** @type {AbortController | null} */
  controller: null,
  /** @param {(events: FeedEvent[]) => void} listener @returns {() => boolean} */
  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  },
  stop() {
    this.controller?.abort();
    this.controller = null;
    this.recent = [];
  },
  async start() {
    this.stop();
    const controller = new AbortController();
    this.controller = controller;
    const key = `boardpost.feed.${session.username}`;
    let after = Number(sessionStorage.getItem(key) || 0);
    // Catch up to the end of the feed first (it has no "latest" cursor), keeping the last few.
    try {
      for (;;) {
        const page = await api.get(`/api/me/events?after=${after}&limit=100`,
          { signal: controller.signal });
        this.remember(page.events);
        after = page.next_after;
        if (page.events.length < 100) break;
      }
    } catch {
      if (controller.signal.aborted) return;
    }
    sessionStorage.setItem(key, String(after));
    this.emit([]);
    await live({
      stream: (/** @type {number} */ cursor) => `/api/me/stream?after=${cursor}`,
      poll: (/** @type {number} */ cursor, wait) => `/api/me/events?after=${cursor}&wait=${wait}`,
    }, after, (answer) => {
      if (answer.events.length) {
        this.remember(answer.events);
        sessionStorage.setItem(key, String(answer.next_after));
        this.emit(answer.events);
      }
      return answer.next_after;
    }, controller.signal);
  },
  /** @param {FeedEvent[]} events */
  remember(events) {
    this.recent = [...this.recent, ...events].slice(-20);
  },
  /** @param {FeedEvent[]} events */
  emit(events) {
    for (const listener of this.listeners) listener(events);
    updateBadge();
  },
};

async function updateBadge() {
  const badge = document.getElementById("turn-badge");
  if (!badge || !session.token) return;
  try {
    const matches = await api.get("/api/me/inbox");
    const mine = matches.filter((/** @type {import("./api.js").Match} */ m) => myTurn(m)
      || m.invitation_pending).length;
    badge.textContent = mine ? String(mine) : "";
    badge.hidden = !mine;
    setAppBadge(mine);
    badge.setAttribute("aria-label", interpolate(ngettext("%(n)s match waiting for you",
      "%(n)s matches waiting for you", mine), { n: mine }));
  } catch {
    /* the badge is a nicety */
  }
}

// ------------------------------------------------------------------ navigation

function renderNav() {
  const nav = clear(/** @type {HTMLElement} */ (document.getElementById("nav")));
  // A new page starts with the narrow screen's menu folded.
  nav.classList.remove("open");
  document.getElementById("nav-toggle")?.setAttribute("aria-expanded", "false");
  const here = location.pathname;
  /** @type {(href: string, label: string, extra?: Node) => HTMLLIElement} */
  const item = (href, label, extra) => {
    const a = link(href, label, extra);
    const active = href === "/" ? here === "/" || here.startsWith("/inbox") : here.startsWith(href);
    if (active) a.setAttribute("aria-current", "page");
    return h("li", null, a);
  };
  const list = h("ul");
  if (session.token) {
    list.append(
      item("/", gettext("Inbox"), h("span", { id: "turn-badge", class: "badge", hidden: true })),
      item("/lobby", gettext("New match")),
      item("/tournaments", gettext("Tournaments")),
      item("/leaderboards", gettext("Leaderboards")),
      item("/rules", gettext("Rules")),
      item("/notifications", gettext("Notifications")),
      ...(isGuest() ? [] : [item("/friends", gettext("Friends"))]),
      item("/account", gettext("Account")),
      isGuest() ? item("/signin", gettext("Sign up"), h("span", { class: "tag" }, gettext("guest")))
        : item(`/player/${session.username}`, /** @type {string} */ (session.username)),
      h("li", null, h("button", { type: "button", class: "linkish", onClick: signOut },
        gettext("Sign out"))),
    );
  } else {
    list.append(item("/", gettext("Play")), item("/tournaments", gettext("Tournaments")),
      item("/leaderboards", gettext("Leaderboards")));
    list.append(item("/rules", gettext("Rules")));
    list.append(item("/signin", gettext("Sign in")));
  }
  nav.append(list);
}

/** On a narrow screen the navigation folds behind a "Menu" button (a disclosure: the button's
 * aria-expanded says whether the list shows; CSS shows the button only on narrow screens).
 * Escape or a click elsewhere folds it, the focus back on the button; following a link too. */
function setUpNavMenu() {
  const nav = document.getElementById("nav");
  if (!nav) return;
  const button = h("button", { type: "button", class: "nav-toggle", id: "nav-toggle",
    "aria-expanded": "false", "aria-controls": "nav" }, gettext("Menu"));
  nav.before(button);
  const fold = (/** @type {boolean} */ refocus) => {
    if (button.getAttribute("aria-expanded") !== "true") return;
    button.setAttribute("aria-expanded", "false");
    nav.classList.remove("open");
    if (refocus) button.focus();
  };
  button.addEventListener("click", () => {
    const open = button.getAttribute("aria-expanded") !== "true";
    button.setAttribute("aria-expanded", String(open));
    nav.classList.toggle("open", open);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape"
      && (nav.contains(/** @type {Node} */ (event.target)) || event.target === button)) {
      fold(true);
    }
  });
  document.addEventListener("click", (event) => {
    const target = /** @type {Element} */ (event.target);
    if (!nav.contains(target) && !button.contains(target)) fold(false);
    else if (target.closest("#nav a, #nav button")) fold(false);
  });
}

// ------------------------------------------------------------------ the language menu

/** Remember `code` for the next page loads (Django's language cookie, which the server reads
 * before Accept-Language), and as a signed-in player's own choice (PATCH /api/me), then load
 * the page again in that language.
 * @param {string} code */
async function chooseLanguage(code) {
  const year = 365 * 24 * 3600;
  document.cookie = `${LANGUAGE_COOKIE}=${encodeURIComponent(code)}; path=/; max-age=${year}; samesite=lax`;
  if (session.token) {
    try {
      await request("PATCH", "/api/me", { body: { language: code } });
    } catch {
      /* the cookie alone still switches this browser */
    }
  }
  location.reload();
}

function languageCookie() {
  const found = document.cookie.split("; ").find((item) => item.startsWith(`${LANGUAGE_COOKIE}=`));
  return found ? decodeURIComponent(found.slice(LANGUAGE_COOKIE.length + 1)) : null;
}

/** A signed-in player's own choice made on another device: follow it once in this browser. */
async function followPlayerLanguage() {
  try {
    const me = await api.get("/api/me");
    const code = me.language;
    if (!code || code === LANG || languageCookie() === code) return;
    if (!LANGUAGES.some(([known]) => known === code)) return;
    document.cookie = `${LANGUAGE_COOKIE}=${encodeURIComponent(code)}; path=/; samesite=lax; max-age=${365 * 24 * 3600}`;
    location.reload();
  } catch {
    /* the page stays in its language */
  }
}

/** The header's language menu (index.html lists settings.LANGUAGES, each in its own name). */
function setUpLanguageMenu() {
  const menu = /** @type {HTMLDetailsElement | null} */ (document.getElementById("language-menu"));
  if (!menu) return;
  const here = LANGUAGES.find(([code]) => code === LANG) || [LANG, LANG];
  // Its name starts with the code it shows (WCAG 2.5.3, label in name): "EN Language: English".
  /** @type {HTMLElement} */ (menu.querySelector("#language-name")).textContent =
    interpolate(gettext("Language: %(language)s"), { language: here[1] });
  for (const button of menu.querySelectorAll("[data-language]")) {
    const code = /** @type {string} */ (/** @type {HTMLElement} */ (button).dataset.language);
    button.addEventListener("click", () => (code === LANG ? menu.removeAttribute("open")
      : chooseLanguage(code)));
  }
  // Closes on Escape and on a click elsewhere, like any menu.
  menu.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && menu.open) {
      menu.removeAttribute("open");
      /** @type {HTMLElement} */ (menu.querySelector("summary")).focus();
    }
  });
  document.addEventListener("click", (event) => {
    if (menu.open && !menu.contains(/** @type {Node} */ (event.target))) {
      menu.removeAttribute("open");
    }
  });
  menu.hidden = false;
}

async function signOut() {
  try {
    // Revoke this browser's token only; the account's other devices stay signed in.
    await api.del("/api/auth/tokens/current");
  } catch {
    /* the token may already be gone */
  }
  session.clear();
  feed.stop();
  // Nothing of the player stays on the device: kept answers, moves not sent, the app badge.
  await forgetPlayer();
  navigate("/signin");
}

/** @param {string} path @param {{replace?: boolean}} [options] */
export function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  route();
}

async function route() {
  current?.controller.abort();
  try {
    current?.cleanup?.();
  } catch {
    /* a page's cleanup never blocks the next page */
  }
  const path = location.pathname;
  const found = ROUTES.find(([pattern]) => pattern.test(path));
  const main = /** @type {HTMLElement} */ (document.getElementById("main"));
  const controller = new AbortController();
  current = { controller, cleanup: null };
  renderNav();
  if (!found) {
    clear(main).append(h("h1", null, gettext("Not found")),
      h("p", null, link("/", gettext("Back to the inbox"))));
    return;
  }
  const [pattern, pick, needsAuth] = found;
  if (needsAuth && !session.token) {
    navigate(`/signin?next=${encodeURIComponent(path + location.search)}`, { replace: true });
    return;
  }
  const page = pick();
  const params = /** @type {RegExpMatchArray} */ (path.match(pattern)).slice(1)
    .map((p) => (p ? decodeURIComponent(p) : p));
  clear(main);
  try {
    // The games' names and modules, once per page load: pages then name any game at once.
    await loadGames().catch(() => {});
    if (current?.controller !== controller) return;
    const cleanup = await page.render(main, params, {
      signal: controller.signal, navigate, feed, signedIn, startGuest,
      query: new URLSearchParams(location.search),
    });
    if (current?.controller === controller) current.cleanup = cleanup;
    else cleanup?.();
  } catch (error) {
    if (error.name === "AbortError" || controller.signal.aborted) return;
    clear(main).append(
      h("h1", null, gettext("Something went wrong")),
      h("p", { class: "error", role: "alert" }, error.message || String(error)),
      h("p", null, link("/", gettext("Back to the inbox"))),
    );
  }
  if (!main.contains(document.activeElement) || document.activeElement === document.body) {
    main.focus({ preventScroll: true });
  }
}

// Links marked data-link navigate inside the page.
document.addEventListener("click", (event) => {
  const a = /** @type {HTMLAnchorElement | null} */ (
    /** @type {Element} */ (event.target).closest("a[data-link]"));
  if (!a || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin) return;
  event.preventDefault();
  if (url.pathname + url.search !== location.pathname + location.search) {
    navigate(url.pathname + url.search);
  }
});

window.addEventListener("popstate", route);

onSignedOut(() => {
  feed.stop();
  forgetPlayer();
  notice(gettext("Your session ended; please sign in again."), "error");
  navigate(`/signin?next=${encodeURIComponent(location.pathname)}`, { replace: true });
});

/** A new guest account (a visitor who pressed "Play a bot now"): keep it, follow its feed.
 * @param {string} token @param {string} username */
export function startGuest(token, username) {
  session.save(token, username);
  feed.start();
  renderNav();
}

/** After sign-in or registration.
 * @param {string} token @param {string} username @param {string | null} [next] */
export function signedIn(token, username, next) {
  session.save(token, username);
  followPlayerLanguage();
  feed.start();
  navigate(next && next.startsWith("/") && !next.startsWith("//") ? next : "/");
}

setUpNavMenu();
setUpLanguageMenu();
startOffline();
if (session.token) {
  feed.start();
  followPlayerLanguage();
}
route();
