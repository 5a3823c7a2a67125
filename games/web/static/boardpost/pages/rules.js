// @ts-check
// The rules of a game: GET /api/games/{slug}/rules (the game package's RULES.md as HTML, with
// example positions drawn by the server's own renderer), open to everyone. /rules lists the
// games; /rules/<slug> shows one, the part for client authors folded away.

import { api } from "../api.js";
import { gameModule, loadGames } from "../catalog.js";
import { clear, h, link } from "../dom.js";
import { gettext, interpolate } from "../i18n.js";

/** @typedef {import("../app.js").PageContext} PageContext */


/** HTML from the server (its own Markdown, raw HTML off) into a node; wide tables scroll.
 * @param {HTMLElement} node @param {string} html */
function fill(node, html) {
  // The one HTML the page parses: the server's rules, rendered from the game's RULES.md.
  // eslint-disable-next-line no-restricted-properties
  node.innerHTML = html;
  for (const table of node.querySelectorAll("table")) {
    const label = table.previousElementSibling?.textContent?.slice(0, 60) || gettext("Table");
    const box = h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": label });
    table.replaceWith(box);
    box.append(table);
  }
  for (const img of node.querySelectorAll("img")) {
    img.loading = "lazy";
    img.classList.add("rules-picture");
  }
  return node;
}

/** @param {string} slug @param {string} name */
export function learnLinks(slug, name) {
  return h("p", { class: "learn-links" },
    link(`/rules/${slug}`, interpolate(gettext("%(game)s rules"), { game: name })), " · ",
    link(`/tutorial/${slug}`, interpolate(gettext("%(game)s tutorial"), { game: name })));
}

/** @param {HTMLElement} main */
async function index(main) {
  // Every game the server offers; its module may add a line about it (SUMMARY, see catalog.js).
  const games = await loadGames();
  main.append(
    h("h1", null, gettext("Rules and tutorials")),
    h("p", null, gettext("Every game's complete rules, with pictures, and a short first match "
      + "that shows you the board step by step.")),
    h("ul", { class: "learn-list plain" }, games.map((game) => h("li", { class: "card" },
      h("h2", null, game.name),
      h("p", null, gameModule(game.slug).SUMMARY || game.description || ""),
      h("p", null, link(`/rules/${game.slug}`,
        interpolate(gettext("Read the %(game)s rules"), { game: game.name })), " · ",
      link(`/tutorial/${game.slug}`,
        interpolate(gettext("Play the %(game)s tutorial"), { game: game.name })))))));
}

/**
 * @param {HTMLElement} main @param {string[]} params the game's slug, if any @param {PageContext} ctx
 */
export async function render(main, [slug], ctx) {
  if (!slug) return index(main);
  const rules = await api.get(`/api/games/${slug}/rules`, { signal: ctx.signal });
  document.title = interpolate(gettext("%(game)s rules · Boardpost"), { game: rules.name });
  const body = fill(h("div", { class: "rules-text" }), rules.html);
  const technical = rules.technical_html ? h("details", { class: "rules-technical" },
    h("summary", null, gettext("Notes for client authors (moves, views and events in JSON)")),
    fill(h("div", { class: "rules-text" }), rules.technical_html)) : null;
  clear(main).append(h("article", { class: "rules", id: "rules", dataset: { game: slug } },
    h("h1", null, interpolate(gettext("How to play %(game)s"), { game: rules.name })),
    h("p", { class: "learn-actions" },
      link(`/tutorial/${slug}`, gettext("Try the tutorial: a short first match")),
      " · ", link(`/lobby?game=${slug}&preset=first_game`, gettext("Play a match")),
      " · ", link("/rules", gettext("All games"))),
    body, technical));
  return undefined;
}
