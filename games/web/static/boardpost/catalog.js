// The games the server offers, and each game's client module, found by the game's slug.
//
// GET /api/games gives every game's slug, name, player counts and options. A game's client
// module is games/<slug>.js, imported by slug: the page's importmap (built by the server from
// every module file) resolves it, so a new module is picked up with no edit anywhere else. A
// game without a module of its own is played through generic.js: the server's board picture,
// the legal moves and a JSON move box.
//
// The interface of a game module (all exports optional; generic.js supplies what is missing):
//
//   render(container, match, ui)  draw match.view into container (emptied before each call) and
//                                 wire the move input; called again on every change
//   describe(entry, match)        one move-log entry (GET .../moves) in words: "took 3 red"
//   onNewVersion(ui, match)       the position changed: reset what ui.state keeps (a selection)
//   hasMoves(legalMoves, match)   whether match.legal_moves leave the viewer anything to play
//   goal(match)                   what wins this match in players' words (or null)
//   simultaneous(match)           true when moves must not carry expected_version (another
//                                 seat's move must not make a still-legal move fail)
//   SUMMARY                       one line about the game for the rules index
//   OUTCOME_WORDS                 {"<outcome reason>": a sentence} for the after-match section
//                                 (the only words a game gives for how a match ended)
//
// An illegal move's rule is told by the server (the error's message, in the page's language,
// with its code in extra.rule): a game module carries no rule texts of its own.
//   OPTION_HINTS                  {"<option name>": {suggestions: [...]}} for the lobby form
//
// A game's styles ship with its module: games/<slug>.css, if the game has one (the page lists
// them in <meta name="boardpost-game-styles">), is added as a <link> when the module loads, and
// the module counts as loaded once its stylesheet is (or failed to load).
//
// `ui` (from the match page) gives submit(move) (resolves true when the move was accepted),
// rerender(), say(text), seatName(seat), boardPicture() (the current position as the server
// draws it, a Blob), busy, and state, an object that keeps a selection across redraws.

import { api } from "./api.js";
import { h } from "./dom.js";
import * as generic from "./generic.js";

const SLUG = /^[a-z][a-z0-9_]*$/;

let games = [];
let loading = null;
const modules = new Map(); // slug -> the module with generic.js's defaults filled in

/** {slug: URL} of the games' stylesheets, as the page lists them. */
function gameStyles() {
  try {
    return JSON.parse(document.querySelector('meta[name="boardpost-game-styles"]')?.content
      || "{}");
  } catch {
    return {};
  }
}

/** Add games/<slug>.css to the page, once; resolves when it has loaded (or failed to). */
function loadGameStyle(slug) {
  const href = gameStyles()[slug];
  if (!href || document.querySelector(`link[data-game-style="${slug}"]`)) {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const sheet = h("link", { rel: "stylesheet", href, dataset: { gameStyle: slug } });
    sheet.addEventListener("load", resolve, { once: true });
    sheet.addEventListener("error", resolve, { once: true });
    document.head.append(sheet);
  });
}

function complete(module, fallback = false) {
  return Object.freeze({ ...generic, ...module, fallback });
}

const GENERIC = complete({}, true);

/** The game module for `slug`: games/<slug>.js, or the generic one. Loaded once. */
export function loadGameModule(slug) {
  if (!modules.has(slug)) {
    const loaded = SLUG.test(slug) ? import(`./games/${slug}.js`)
      .then(async (module) => {
        await loadGameStyle(slug);
        return complete(module);
      })
      .catch((error) => {
        console.warn(`No client module for ${slug} (${error.message}): using the generic view.`);
        return GENERIC;
      }) : Promise.resolve(GENERIC);
    modules.set(slug, loaded.then((module) => {
      modules.set(slug, module);
      return module;
    }));
  }
  return Promise.resolve(modules.get(slug));
}

/** The game module for `slug` if it is loaded (load() loads every game's), else the generic. */
export function gameModule(slug) {
  const module = modules.get(slug);
  return module && !(module instanceof Promise) ? module : GENERIC;
}

/** GET /api/games (once per page) and every game's module. Resolves to the list of games. */
export function loadGames() {
  loading ||= api.get("/api/games").then(async (list) => {
    await Promise.all(list.map((game) => loadGameModule(game.slug)));
    games = list;
    return list;
  }).catch((error) => {
    loading = null;
    throw error;
  });
  return loading;
}

/** The games as GET /api/games gave them (empty before loadGames() resolves). */
export function knownGames() {
  return games;
}

export function gameName(slug) {
  const game = games.find((g) => g.slug === slug);
  if (game) return game.name;
  return slug ? slug[0].toUpperCase() + slug.slice(1) : "";
}
