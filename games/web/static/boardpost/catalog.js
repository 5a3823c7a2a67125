// @ts-check
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
//   planner                       the game's part in plans (plans.js): whether they apply to a
//                                 match, a plan's move in words, and the picker that adds the
//                                 other seat's move or the player's own (see GamePlanner); null:
//                                 the game has none on the match page
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

/** @typedef {import("./api.js").Match} Match */
/**
 * What a game module's render() gets from the match page (see above).
 * @typedef {object} GameUi
 * @property {(move: unknown) => Promise<boolean>} submit
 * @property {() => void} rerender
 * @property {(text: string) => void} say
 * @property {(seat: number) => string} seatName
 * @property {() => Promise<Blob>} boardPicture
 * @property {(seat: number) => boolean} seatIsBot
 * @property {any} lastEntry the newest move-log entry (null: none)
 * @property {(type: string) => any} lastEvent the newest event of this type in the log
 * @property {boolean} busy
 * @property {Object<string, any>} state
 */
/**
 * A game module with generic.js's defaults filled in (see above); `fallback` is true for the
 * generic one.
 * @typedef {object} GameModule
 * @property {(container: HTMLElement, match: Match, ui: GameUi) => void} render
 * @property {(entry: any, match: Match) => string} describe
 * @property {(ui: GameUi, match: Match) => void} onNewVersion
 * @property {(legalMoves: any, match: Match) => boolean} hasMoves
 * @property {(match: Match) => string | null} goal
 * @property {(match: Match) => boolean} simultaneous
 * @property {(match: Match, ...rest: any[]) => {text: string, go?: boolean, deadline?: string}
 *   | null} statusText
 * @property {string} SUMMARY
 * @property {Object<string, string>} OUTCOME_WORDS
 * @property {Object<string, {suggestions?: unknown[]}>} OPTION_HINTS
 * @property {GamePlanner | null} planner
 * @property {boolean} fallback
 */
/**
 * A move along a line of a plan, from the current position: the player's own (`mine`) or the
 * other seat's, as the plan holds it.
 * @typedef {{mine: boolean, move: any}} LineMove
 */
/**
 * What a game's plan picker gets (plans.js): the match, the line of moves from the current
 * position to where the next move goes, whether the player's own move (`mine`) or the other
 * seat's (`theirs`) may be added there, `state` (kept across redraws until a move is added),
 * add(move, mine), rerender() and seatName(seat).
 * @typedef {object} PlanPick
 * @property {Match} match
 * @property {LineMove[]} line
 * @property {boolean} mine
 * @property {boolean} theirs
 * @property {Object<string, any>} state
 * @property {(move: unknown, mine: boolean) => void} add
 * @property {() => void} rerender
 * @property {(seat: number) => string} seatName
 */
/**
 * A game's part in plans: whether they apply to a match (beside its `plans` option), a plan's
 * move (or the other seat's move as the plan keys it) in words, which side may move after a
 * line (default: either), and the picker.
 * @typedef {object} GamePlanner
 * @property {(match: Match) => boolean} applies
 * @property {(move: any, match: Match) => string} describe
 * @property {((line: LineMove[], match: Match) => {mine: boolean, theirs: boolean}) | undefined}
 *   [next]
 * @property {(container: HTMLElement, pick: PlanPick) => void} pick
 */
/**
 * A game as GET /api/games lists it.
 * @typedef {object} Game
 * @property {string} slug
 * @property {string} name
 * @property {string} [description]
 * @property {number} min_players
 * @property {number} max_players
 * @property {Object<string, any>[]} options
 * @property {{key: string, name: string, description: string, config: Object<string, any>,
 *   players: number | null}[]} presets
 */

const SLUG = /^[a-z][a-z0-9_]*$/;

/** @type {Game[]} */
let games = [];
/** @type {Promise<Game[]> | null} */
let loading = null;
/** @type {Map<string, GameModule | Promise<GameModule>>} */
const modules = new Map(); // slug -> the module with generic.js's defaults filled in

/** {slug: URL} of the games' stylesheets, as the page lists them.
 * @returns {Object<string, string>} */
function gameStyles() {
  try {
    return JSON.parse(/** @type {HTMLMetaElement | null} */ (
      document.querySelector('meta[name="boardpost-game-styles"]'))?.content || "{}");
  } catch {
    return {};
  }
}

/** Add games/<slug>.css to the page, once; resolves when it has loaded (or failed to).
 * @param {string} slug @returns {Promise<unknown>} */
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

/** @param {object} module @param {boolean} [fallback] @returns {GameModule} */
function complete(module, fallback = false) {
  return /** @type {GameModule} */ (Object.freeze({ ...generic, ...module, fallback }));
}

const GENERIC = complete({}, true);

/** The game module for `slug`: games/<slug>.js, or the generic one. Loaded once.
 * @param {string} slug @returns {Promise<GameModule>} */
export function loadGameModule(slug) {
  if (!modules.has(slug)) {
    const loaded = SLUG.test(slug) ? import(`./games/${slug}.js`)
      .then(async (module) => {
        await loadGameStyle(slug);
        return complete(module);
      })
      .catch((/** @type {Error} */ error) => {
        console.warn(`No client module for ${slug} (${error.message}): using the generic view.`);
        return GENERIC;
      }) : Promise.resolve(GENERIC);
    modules.set(slug, loaded.then((module) => {
      modules.set(slug, module);
      return module;
    }));
  }
  return Promise.resolve(/** @type {GameModule | Promise<GameModule>} */ (modules.get(slug)));
}

/** The game module for `slug` if it is loaded (load() loads every game's), else the generic.
 * @param {string} slug @returns {GameModule} */
export function gameModule(slug) {
  const module = modules.get(slug);
  return module && !(module instanceof Promise) ? module : GENERIC;
}

/** GET /api/games (once per page) and every game's module. Resolves to the list of games.
 * @returns {Promise<Game[]>} */
export function loadGames() {
  loading ||= api.get("/api/games").then(async (/** @type {Game[]} */ list) => {
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

/** @param {string} slug */
export function gameName(slug) {
  const game = games.find((g) => g.slug === slug);
  if (game) return game.name;
  return slug ? slug[0].toUpperCase() + slug.slice(1) : "";
}
