// The rules of a game: GET /api/games/{slug}/rules (the game package's RULES.md as HTML, with
// example positions drawn by the server's own renderer), open to everyone. /rules lists the
// games; /rules/<slug> shows one, the part for client authors folded away.

import { api } from "../api.js";
import { gameModule, loadGames } from "../catalog.js";
import { clear, h, link, put } from "../dom.js";
import { gettext, interpolate } from "../i18n.js";


// The elements and attributes of the server's Markdown rendering (CommonMark and tables, raw
// HTML off); anything else in the HTML is left out, its text kept.
const ELEMENTS = new Set(["a", "blockquote", "br", "code", "del", "em", "h1", "h2", "h3", "h4",
  "h5", "h6", "hr", "img", "li", "ol", "p", "pre", "s", "strong", "table", "tbody", "td", "th",
  "thead", "tr", "ul"]);
const DROPPED = new Set(["script", "style", "template", "iframe", "object", "embed", "noscript"]);
const ATTRIBUTES = {
  "*": ["id", "title"], a: ["href"], img: ["src", "alt", "width", "height"], code: ["class"],
  ol: ["start"], td: ["colspan", "rowspan"], th: ["colspan", "rowspan", "scope"],
};

/** A link or picture address the page may use, as written: this site's (pictures), or
 * http(s) (links); null for any other (javascript:, data:, ...). */
function safeUrl(value, sameSiteOnly) {
  try {
    const url = new URL(value, location.href);
    if (url.origin === location.origin) return value;
    return !sameSiteOnly && ["http:", "https:"].includes(url.protocol) ? value : null;
  } catch {
    return null;
  }
}

/** A copy in this document of `node` (from an inert parsed document), allowed parts only. */
function imported(node) {
  if (node.nodeType === Node.TEXT_NODE) return document.createTextNode(node.data);
  if (node.nodeType !== Node.ELEMENT_NODE || DROPPED.has(node.localName)) return null;
  const children = [...node.childNodes].map(imported).filter(Boolean);
  if (!ELEMENTS.has(node.localName)) return children;
  const copy = document.createElement(node.localName);
  for (const name of [...ATTRIBUTES["*"], ...(ATTRIBUTES[node.localName] || [])]) {
    let value = node.getAttribute(name);
    if (value === null) continue;
    if (name === "href" || name === "src") value = safeUrl(value, name === "src");
    if (value !== null) copy.setAttribute(name, value);
  }
  put(copy, children);
  return copy;
}

/** HTML from the server (its own Markdown, raw HTML off) into a node: parsed into an inert
 * document (nothing runs, nothing loads), then only the allowed elements and attributes are
 * copied over. Wide tables scroll. */
function fill(node, html) {
  const parsed = new DOMParser().parseFromString(html, "text/html");
  put(node, [...parsed.body.childNodes].map(imported));
  for (const table of node.querySelectorAll("table")) {
    const label = table.previousElementSibling?.textContent?.slice(0, 60) || gettext("Table");
    const box = h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": label });
    table.replaceWith(box);
    box.append(table);
  }
  // A picture keeps a legible size on a narrow screen: it scrolls sideways in its own box.
  for (const img of node.querySelectorAll("img")) {
    img.loading = "lazy";
    img.classList.add("rules-picture");
    const box = h("span", { class: "picture-scroll", tabindex: "0", role: "region",
      "aria-label": img.alt || gettext("Picture") });
    img.replaceWith(box);
    box.append(img);
  }
  return node;
}

export function learnLinks(slug, name) {
  return h("p", { class: "learn-links" },
    link(`/rules/${slug}`, interpolate(gettext("%(game)s rules"), { game: name })), " · ",
    link(`/tutorial/${slug}`, interpolate(gettext("%(game)s tutorial"), { game: name })));
}

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
