// @ts-check
// Leaderboards per game (players whose rating is no longer provisional).

import { api, sameOrigin } from "../api.js";
import { gameName, loadGames } from "../catalog.js";
import { clear, h, link } from "../dom.js";
import { gettext, interpolate } from "../i18n.js";

/** @typedef {import("../app.js").PageContext} PageContext */

/**
 * @param {HTMLElement} main @param {string[]} params the game's slug, if any @param {PageContext} ctx
 */
export async function render(main, [game], ctx) {
  const games = await loadGames();
  const slug = games.some((g) => g.slug === game) ? game : games[0]?.slug;
  const tabs = h("nav", { class: "tabs", "aria-label": gettext("Games") },
    games.map((g) => {
      const a = link(`/leaderboards/${g.slug}`, g.name);
      if (g.slug === slug) a.setAttribute("aria-current", "page");
      return a;
    }));
  if (!slug) {
    main.append(h("h1", null, gettext("Leaderboards")),
      h("p", { class: "muted" }, gettext("No games yet.")));
    return;
  }
  const body = h("tbody");
  const more = h("button", { type: "button", hidden: true }, gettext("More"));
  main.append(h("h1", null, gettext("Leaderboards")), tabs,
    h("table", { class: "list leaderboard", id: "leaderboard" },
      h("caption", null, interpolate(gettext("%(game)s: established ratings"),
        { game: gameName(slug) })),
      h("thead", null, h("tr", null, ["#", gettext("Player"), gettext("Rating"),
        gettext("Rated matches")].map((t) => h("th", { scope: "col" }, t)))),
      body),
    more,
    h("p", { class: "muted" },
      gettext("Players appear once their rating is settled (after a few rated matches).")));
  let rank = 0;
  /** @param {string} path */
  async function load(path) {
    const page = await api.get(path, { signal: ctx.signal });
    if (!page.results.length && !rank) {
      clear(body).append(h("tr", null,
        h("td", { colspan: 4, class: "muted" }, gettext("Nobody yet."))));
    }
    for (const entry of page.results) {
      rank += 1;
      body.append(h("tr", null,
        h("td", null, String(rank)),
        h("th", { scope: "row" }, link(`/player/${encodeURIComponent(entry.username)}`, entry.username),
          entry.is_bot ? h("span", { class: "tag" }, gettext("bot")) : null),
        h("td", null, String(entry.rating)),
        h("td", null, String(entry.games_played))));
    }
    more.hidden = !page.next;
    more.onclick = page.next ? () => load(sameOrigin(page.next)) : null;
  }
  await load(`/api/leaderboards/${slug}?limit=50`);
}
