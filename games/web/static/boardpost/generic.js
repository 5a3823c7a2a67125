// @ts-check
// The generic game view, for a game without a client module of its own (and the defaults of
// every game module, see catalog.js): the server's picture of the board, the legal moves as
// JSON, and a box to send a move as JSON. The API is all it needs, so a new game is playable
// here before anyone writes its module.

import { h } from "./dom.js";
import { gettext, interpolate } from "./i18n.js";

const SHOWN_MOVES = 200;

/** @typedef {import("./api.js").Match} Match */
/** @typedef {import("./catalog.js").GameUi} GameUi */

/** @type {Object<string, string>} */
export const OUTCOME_WORDS = {};
export const SUMMARY = "";

/** @returns {string | null} */
export function goal() {
  return null;
}
/** @type {Object<string, {suggestions?: unknown[]}>} */
export const OPTION_HINTS = {};

// No plans on the match page unless the game's module offers a planner (plans.js).
/** @type {import("./catalog.js").GamePlanner | null} */
export const planner = null;

/** @param {unknown} value */
function nonEmpty(value) {
  if (Array.isArray(value)) return value.length > 0;
  if (value && typeof value === "object") return Object.keys(value).length > 0;
  return Boolean(value);
}

/** A list of moves, or an object of which some part is not empty.
 * @type {(legal: unknown, match?: Match) => boolean} */
export function hasMoves(legal) {
  if (!legal) return false;
  if (Array.isArray(legal)) return legal.length > 0;
  if (typeof legal === "object") return Object.values(legal).some(nonEmpty);
  return Boolean(legal);
}

export function simultaneous() {
  return false;
}

export function onNewVersion() {}

/** The status line of a running match in the game's own words: {text, go, deadline (the
 * words before the deadline's time)}, or null for the usual "Your turn" / "Waiting for ..." line.
 * @returns {{text: string, go?: boolean, deadline?: string} | null} */
export function statusText() {
  return null;
}

/** @param {any} entry @returns {string} */
export function describe(entry) {
  const words = (entry.events || []).map((/** @type {any} */ event) => String(event.type || "").replaceAll("_", " "))
    .filter(Boolean);
  return words.join("; ") || entry.kind;
}

/** Ask for the server's picture of the current position once per version; keep the last one
 * on screen until the next arrives. Returns the picture (a data: URL) to show now, if any.
 * @param {HTMLElement} container @param {Match} match @param {GameUi} ui
 * @returns {string | null} */
function loadPicture(container, match, ui) {
  const state = ui.state;
  if (state.pictureFor === match.version) return state.picture || null;
  state.pictureFor = match.version;
  ui.boardPicture().then((blob) => blob.text()).then((svg) => {
    if (state.pictureFor !== match.version) return;
    state.picture = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
    state.pictureVersion = match.version;
    state.pictureError = null;
    const image = /** @type {HTMLImageElement | null} */ (container.querySelector("#generic-board"));
    if (image) {
      image.src = state.picture;
      image.dataset.version = String(match.version);
    } else {
      ui.rerender();
    }
  }).catch((/** @type {Error} */ error) => {
    if (error.name === "AbortError" || state.pictureFor !== match.version) return;
    state.picture = null;
    state.pictureError = error.message;
    ui.rerender();
  });
  return state.picture || null;
}

/** @param {HTMLElement} container @param {Match} match @param {GameUi} ui */
export function render(container, match, ui) {
  const state = ui.state;
  const legal = match.legal_moves;
  const canMove = hasMoves(legal, match) && !ui.busy;
  const picture = loadPicture(container, match, ui);
  const figure = h("figure", { class: "generic-picture" },
    state.pictureError ? h("p", { class: "muted" },
      interpolate(gettext("No board picture (%(error)s)."), { error: state.pictureError }))
      : h("img", {
        id: "generic-board", class: "generic-board", src: picture,
        alt: gettext("The board, as the server draws it for you"),
        dataset: { version: picture ? state.pictureVersion : null },
      }),
    h("figcaption", { class: "muted" }, gettext("The server's picture of the position.")));

  const box = h("textarea", {
    id: "generic-move", rows: 3, spellcheck: "false", class: "generic-move",
    "aria-describedby": "generic-move-help", "aria-keyshortcuts": "Control+Enter",
    dataset: { focus: "generic-move" },
    onInput: (event) => {
      state.draft = /** @type {HTMLTextAreaElement} */ (event.target).value;
    },
  });
  box.value = state.draft || "";
  const send = async () => {
    let move;
    try {
      move = JSON.parse(box.value);
    } catch (error) {
      ui.say(interpolate(gettext("The move is not JSON: %(error)s"),
        { error: /** @type {Error} */ (error).message }));
      return;
    }
    if (await ui.submit(move)) {
      state.draft = "";
      ui.rerender();
    }
  };
  box.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      send();
    }
  });
  const sendButton = h("button", {
    type: "button", class: "primary", id: "generic-send", disabled: !canMove,
    dataset: { focus: "generic-send" }, onClick: send,
  }, gettext("Send move"));

  /** @type {HTMLElement} */
  let moves;
  if (!legal) {
    moves = h("p", { class: "muted" }, gettext("Nothing for you to play right now."));
  } else if (Array.isArray(legal)) {
    const shown = legal.slice(0, SHOWN_MOVES);
    moves = h("ul", { class: "plain generic-legal", id: "generic-legal" },
      shown.map((/** @type {unknown} */ move, /** @type {number} */ index) => {
        const text = JSON.stringify(move);
        return h("li", null, h("button", {
          type: "button", class: "linkish",
          dataset: { focus: `generic-legal-${index}` },
          "aria-label": interpolate(gettext("Put %(move)s in the move box"), { move: text }),
          onClick: () => {
            state.draft = text;
            box.value = text;
            box.focus();
          },
        }, h("code", null, text)));
      }),
      legal.length > shown.length
        ? h("li", { class: "muted" }, interpolate(gettext("and %(n)s more"),
          { n: legal.length - shown.length })) : null);
  } else {
    moves = h("pre", { class: "generic-legal", id: "generic-legal" }, JSON.stringify(legal, null, 1));
  }

  const details = h("details", { class: "generic-view", open: state.viewOpen || null },
    h("summary", null, gettext("The view (JSON)")),
    h("pre", null, JSON.stringify(match.view, null, 1)));
  details.addEventListener("toggle", () => {
    state.viewOpen = details.open;
  });

  container.append(h("div", { class: "generic" },
    h("div", { class: "generic-main" }, figure),
    h("div", { class: "generic-side" },
      h("section", { "aria-labelledby": "generic-legal-h" },
        h("h3", { id: "generic-legal-h" }, gettext("Legal moves"),
          Array.isArray(legal) ? h("span", { class: "muted" }, ` (${legal.length})`) : null),
        moves),
      h("section", { "aria-labelledby": "generic-move-h" },
        h("h3", { id: "generic-move-h" }, h("label", { for: "generic-move" }, gettext("Your move"))),
        box,
        h("p", { id: "generic-move-help", class: "muted" },
          gettext("A move as JSON, as the API takes it. Pick one of the legal moves to fill it in.")),
        h("div", { class: "controls" }, sendButton)),
      details)));
}
