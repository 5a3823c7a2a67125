// @ts-check
// The tournaments: a list filtered by game, status and "mine" (kept in the URL), newest start
// first, a page at a time (GET /api/tournaments), and a link to create one.

import { api, sameOrigin, session } from "../api.js";
import { knownGames } from "../catalog.js";
import { clear, h, link, put } from "../dom.js";
import { gettext } from "../i18n.js";
import { statusText, summaryItem } from "../tournaments.js";

/** @typedef {import("../app.js").PageContext} PageContext */

const STATUSES = ["entry", "running", "finished", "cancelled"];

/**
 * @param {HTMLElement} main @param {string[]} _params @param {PageContext} ctx
 */
export async function render(main, _params, ctx) {
  const { query, signal } = ctx;
  const game = h("select", { id: "filter-game", name: "game" },
    h("option", { value: "" }, gettext("Every game")),
    knownGames().map((g) => h("option", { value: g.slug, selected: g.slug === query.get("game") },
      g.name)));
  const status = h("select", { id: "filter-status", name: "status" },
    h("option", { value: "" }, gettext("Any status")),
    STATUSES.map((value) => h("option", { value, selected: value === query.get("status") },
      statusText(value))));
  const mine = h("input", { type: "checkbox", id: "filter-mine", name: "mine",
    checked: query.get("mine") === "true" });
  const filters = h("form", { class: "row list-controls", id: "tournament-filters",
    "aria-label": gettext("Filter the tournaments") },
  h("div", { class: "field" }, h("label", { for: "filter-game" }, gettext("Game")), game),
  h("div", { class: "field" }, h("label", { for: "filter-status" }, gettext("Status")), status),
  session.token ? h("div", { class: "field check" }, mine,
    h("label", { for: "filter-mine" }, gettext("Only those I entered"))) : null);
  const list = h("ul", { class: "plain open-list", id: "tournament-list", "aria-busy": "true" });
  const more = h("button", { type: "button", id: "list-more", class: "secondary", hidden: true },
    gettext("More"));
  /** @type {string | null} */
  let next = null;

  const apply = () => {
    const params = new URLSearchParams();
    if (game.value) params.set("game", game.value);
    if (status.value) params.set("status", status.value);
    if (mine.checked) params.set("mine", "true");
    const search = params.toString();
    ctx.navigate(`/tournaments${search ? `?${search}` : ""}`, { replace: true });
  };
  for (const control of [game, status, mine]) control.addEventListener("change", apply);
  filters.addEventListener("submit", (event) => event.preventDefault());

  /** @param {string} path @param {boolean} fresh */
  async function load(path, fresh) {
    list.setAttribute("aria-busy", "true");
    const page = await api.get(path, { signal });
    if (fresh) clear(list);
    put(list, page.results.map(summaryItem));
    if (fresh && !page.results.length) {
      list.append(h("li", { class: "muted" }, gettext("No tournament matches these filters.")));
    }
    next = page.next ? sameOrigin(page.next) : null;
    more.hidden = !next;
    list.removeAttribute("aria-busy");
  }
  more.addEventListener("click", () => next && load(next, false));

  const params = new URLSearchParams({ limit: "25" });
  for (const name of ["game", "status", "mine"]) {
    const value = query.get(name);
    if (value) params.set(name, value);
  }
  put(main, h("h1", null, gettext("Tournaments")),
    h("p", null, gettext("Swiss tournaments, round robins and ladders, played by correspondence "
      + "like any match.")),
    session.token ? h("p", null, link("/tournaments/new", gettext("Create a tournament"))) : null,
    filters, h("section", { class: "card", "aria-label": gettext("Tournaments") }, list, more));
  await load(`/api/tournaments?${params}`, true);
}
