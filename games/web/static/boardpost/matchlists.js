// @ts-check
// The inbox's lists of my matches: what to show (running, my turn, finished), which game and
// in what order, chosen in a small form and kept in the page's URL (?show=&game=&sort=) so a
// reload or a shared link keeps them; and finished matches under a heading per day they ended.
// The orders are the API's own (GET /api/me/inbox?sort=, GET /api/matches?sort=): the server
// sorts, the page only groups.

import { gameName } from "./catalog.js";
import { h } from "./dom.js";
import { LOCALE, gettext } from "./i18n.js";

/** @typedef {import("./api.js").Match} Match */
/** @typedef {{show: string, game: string, sort: string}} ListChoice */

/** Each view's orders, the first its default. */
/** @type {Object<string, string[]>} */
export const VIEW_SORTS = {
  running: ["time_left", "last_move", "game"],
  my_turn: ["time_left", "last_move", "game"],
  finished: ["ended", "game"],
};

/** @returns {Object<string, string>} */
function viewNames() {
  return {
    running: gettext("Running matches"),
    my_turn: gettext("My turn"),
    finished: gettext("Finished matches"),
  };
}

/** @returns {Object<string, string>} */
function sortNames() {
  return {
    time_left: gettext("Time left"),
    last_move: gettext("Last move"),
    game: gettext("Game"),
    ended: gettext("Date ended"),
  };
}

/** The choice a URL's query names; anything unknown is left at its default.
 * @param {URLSearchParams} query @param {string[]} games the games' slugs
 * @returns {ListChoice} */
export function readChoice(query, games) {
  const show = query.get("show") || "";
  const view = show in VIEW_SORTS ? show : "running";
  const game = games.includes(query.get("game") || "") ? /** @type {string} */ (query.get("game")) : "";
  const sorts = VIEW_SORTS[view];
  const sort = sorts.includes(query.get("sort") || "") ? /** @type {string} */ (query.get("sort")) : sorts[0];
  return { show: view, game, sort };
}

/** The page's query for a choice: only what differs from the defaults.
 * @param {ListChoice} choice @returns {string} "" or "?show=..." */
export function choiceSearch(choice) {
  const params = new URLSearchParams();
  if (choice.show !== "running") params.set("show", choice.show);
  if (choice.game) params.set("game", choice.game);
  if (choice.sort !== VIEW_SORTS[choice.show][0]) params.set("sort", choice.sort);
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** The API path that answers a choice: the inbox for running matches, a page of my finished
 * matches otherwise.
 * @param {ListChoice} choice @param {number} limit a page's size (finished matches) */
export function choicePath(choice, limit) {
  const params = new URLSearchParams({ sort: choice.sort });
  if (choice.game) params.set("game", choice.game);
  if (choice.show === "finished") {
    params.set("scope", "mine");
    params.set("status", "finished");
    params.set("limit", String(limit));
    return `/api/matches?${params}`;
  }
  if (choice.show === "my_turn") params.set("my_turn", "true");
  return `/api/me/inbox?${params}`;
}

/**
 * @param {string} id @param {string} label @param {[string, string][]} options
 * @param {string} value @param {(value: string) => void} onChange
 */
function selectField(id, label, options, value, onChange) {
  const select = h("select", { id, name: id },
    options.map(([key, text]) => h("option", { value: key, selected: key === value }, text)));
  select.addEventListener("change", () => onChange(select.value));
  return h("div", { class: "field" }, h("label", { for: id }, label), select);
}

/** The form that chooses what the list shows; `onChange` gets each new choice. The order's
 * menu offers the orders of the view shown, back to its default when the view changes.
 * @param {ListChoice} choice @param {string[]} games @param {(choice: ListChoice) => void} onChange */
export function listControls(choice, games, onChange) {
  const form = h("form", { class: "row list-controls", id: "list-controls",
    "aria-label": gettext("Which matches, in what order"),
    onSubmit: (event) => event.preventDefault() });
  const draw = () => {
    const sorts = sortNames();
    form.replaceChildren(
      selectField("list-show", gettext("Show"), Object.entries(viewNames()), choice.show, (show) => {
        choice = { ...choice, show, sort: VIEW_SORTS[show][0] };
        draw();
        /** @type {HTMLElement} */ (form.querySelector("#list-show")).focus();
        onChange(choice);
      }),
      selectField("list-game", gettext("Game"),
        [["", gettext("All games")], ...games.map((slug) => /** @type {[string, string]} */ (
          [slug, gameName(slug)]))],
        choice.game, (game) => onChange(choice = { ...choice, game })),
      selectField("list-sort", gettext("Sort by"),
        VIEW_SORTS[choice.show].map((key) => /** @type {[string, string]} */ ([key, sorts[key]])),
        choice.sort, (sort) => onChange(choice = { ...choice, sort })));
  };
  draw();
  return form;
}

/** The local day of an instant, as a sortable key ("2026-12-07").
 * @param {string | Date} when */
export function dayKey(when) {
  const date = new Date(when);
  const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** "Today", "Yesterday" or the date in the page's language.
 * @param {string} iso @param {Date} [now] */
export function dayLabel(iso, now = new Date()) {
  const day = dayKey(iso);
  if (day === dayKey(now)) return gettext("Today");
  const yesterday = new Date(now);
  yesterday.setDate(yesterday.getDate() - 1);
  if (day === dayKey(yesterday)) return gettext("Yesterday");
  return new Date(iso).toLocaleDateString(LOCALE, {
    weekday: "long", year: "numeric", month: "long", day: "numeric",
  });
}

/**
 * Finished matches under a heading per day they ended, page after page: a page that starts on
 * the day the last one ended on goes on in that day's table. Without `byDay` (another order
 * than by end) one table holds them all.
 * @param {HTMLElement} container @param {boolean} byDay
 * @param {(caption: string) => {table: HTMLTableElement, body: HTMLTableSectionElement}} makeTable
 * @param {(match: Match) => HTMLTableRowElement} row
 */
export function dayGroups(container, byDay, makeTable, row) {
  /** @type {string | null} */
  let lastDay = null;
  /** @type {HTMLTableSectionElement | null} */
  let body = null;
  return {
    /** @param {Match[]} matches */
    add(matches) {
      for (const match of matches) {
        const day = byDay && match.finished_at ? dayKey(match.finished_at) : "";
        if (body === null || day !== lastDay) {
          const label = day && match.finished_at ? dayLabel(match.finished_at) : "";
          const made = makeTable(label || gettext("Finished matches"));
          if (label) {
            container.append(h("h3", { class: "day", id: `day-${day}` },
              h("time", { datetime: day }, label)));
          }
          container.append(made.table);
          ({ body } = made);
          lastDay = day;
        }
        body.append(row(match));
      }
    },
  };
}
