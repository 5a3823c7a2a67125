// @ts-check
// A short first match: GET /api/games/{slug}/tutorial gives a script played through by the
// game's engine (per step the learner's view, its legal moves cut down to the suggested move,
// and words before and after). The page draws each step with the game's real board module
// (games/<slug>.js, the one the match page uses), so the tutorial teaches the real interface;
// a move is checked against the script here, nothing is sent to the server.

import { api } from "../api.js";
import { loadGameModule } from "../catalog.js";
import { clear, h, link, preserveFocus } from "../dom.js";
import { formatList, gettext, interpolate } from "../i18n.js";

/** @typedef {import("../app.js").PageContext} PageContext */
/** @typedef {import("../catalog.js").GameUi} GameUi */

/** @type {Object<string, string>} */
const ACTIONS = {
  flip: gettext("flip"), return: gettext("return"), recycle: gettext("recycle"),
  end_turn: gettext("end the turn"),
};

/** A move as comparable text: object keys sorted, a list of cells sorted.
 * @param {unknown} move */
export function canonical(move) {
  /** @type {(value: any) => any} */
  const sortKeys = (value) => {
    if (Array.isArray(value)) return value.map(sortKeys);
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys(value[k])]));
    }
    return value;
  };
  const copy = sortKeys(move);
  if (Array.isArray(copy?.take)) {
    copy.take = [...copy.take].sort((/** @type {number[]} */ a, /** @type {number[]} */ b) =>
      a[0] - b[0] || a[1] - b[1]);
  }
  return JSON.stringify(copy);
}

/** @param {any} move a move of the script */
function describeMove(move) {
  if (move.take) {
    return interpolate(gettext("take %(cells)s"),
      { cells: formatList(move.take.map((/** @type {number[]} */ [r, c]) => `${"ABCDEFGHI"[c]}${r + 1}`)) });
  }
  if (move.action === "place") {
    return interpolate(gettext("place on stack %(stack)s"), { stack: move.stack + 1 });
  }
  if (move.action) return ACTIONS[move.action] || move.action.replace("_", " ");
  if (move.card) {
    return interpolate(gettext("place card #%(card)s on the marked square"), { card: move.card });
  }
  return gettext("play the suggested move");
}

/**
 * @param {HTMLElement} main @param {string[]} params the game's slug @param {PageContext} ctx
 */
export async function render(main, [slug], ctx) {
  const script = await api.get(`/api/games/${slug}/tutorial`, { signal: ctx.signal });
  const game = await loadGameModule(slug);
  document.title = interpolate(gettext("%(game)s tutorial · Boardpost"), { game: script.name });
  const total = script.steps.length;
  let index = 0;
  let busy = false;
  /** @type {import("../api.js").Match | null} */
  let match = null;

  const progress = h("p", { class: "tutorial-progress", id: "tutorial-progress" });
  const explain = h("div", { class: "tutorial-explain", id: "tutorial-explain", role: "status",
    "aria-live": "polite" });
  const message = h("div", { id: "move-message", class: "move-message", role: "alert" });
  const board = h("section", { id: "board", class: "board-area", "aria-label": gettext("Position") });
  const root = h("article", { class: "tutorial match", id: "tutorial", dataset: { game: slug } },
    h("h1", null, interpolate(gettext("%(game)s tutorial"), { game: script.name })),
    h("p", { class: "tutorial-intro" }, script.intro),
    progress, explain, message, board,
    h("p", { class: "learn-actions" }, link(`/rules/${slug}`,
      interpolate(gettext("Read the %(game)s rules"), { game: script.name }))));
  clear(main).append(root);

  /** @type {GameUi} */
  const ui = {
    state: {},
    get busy() {
      return busy;
    },
    submit: async (move) => submit(move),
    rerender: () => draw(),
    say: (text) => say(text),
    seatName: (seat) => script.names[seat] || interpolate(gettext("Seat %(n)s"), { n: seat + 1 }),
    // The match page's other helpers (see catalog.js); the tutor plays a script, like a bot,
    // and the tutorial keeps no move log.
    seatIsBot: (seat) => seat !== script.seat,
    lastEntry: null,
    lastEvent: () => null,
    boardPicture: () => Promise.reject(new Error(gettext("No picture in the tutorial."))),
  };

  /** @param {string} text @param {string} [kind] */
  function say(text, kind = "error") {
    clear(message);
    message.className = `move-message ${kind}`;
    if (text) message.append(h("p", null, text));
  }

  /**
   * A match as the game's module reads it, of the script's step.
   * @param {any} view @param {any} legal @returns {import("../api.js").Match}
   */
  function matchFor(view, legal) {
    return /** @type {any} */ ({
      id: "tutorial", game: slug, status: "active", version: index, players: script.players,
      your_seat: script.seat, to_act: legal ? [script.seat] : [], view, legal_moves: legal,
      seats: script.names.map((/** @type {string} */ name, /** @type {number} */ seat) =>
        ({ index: seat, player: { username: name } })),
    });
  }

  function draw() {
    preserveFocus(() => {
      clear(board);
      game.render(board, /** @type {import("../api.js").Match} */ (match), ui);
    });
  }

  /** @param {string | null} [before] */
  function showStep(before = null) {
    const step = script.steps[index];
    match = matchFor(step.view, step.legal_moves);
    game.onNewVersion(ui, match);
    root.dataset.step = String(index + 1);
    progress.textContent = interpolate(gettext("Step %(step)s of %(total)s"),
      { step: index + 1, total });
    clear(explain).append(.../** @type {HTMLElement[]} */ ([before ? h("p", { class: "done" }, before) : null,
      h("p", { class: "todo" }, step.text)].filter(Boolean)));
    draw();
  }

  /** @param {string} before */
  function finish(before) {
    match = matchFor(script.final_view, null);
    game.onNewVersion(ui, match);
    root.dataset.step = "done";
    progress.textContent = gettext("Tutorial complete");
    clear(explain).append(h("p", { class: "done" }, before), h("p", null, script.end),
      h("p", { class: "learn-actions" },
        link(`/lobby?game=${slug}&preset=first_game`, gettext("Play a first game against a bot")),
        " · ", link(`/rules/${slug}`, gettext("Read the full rules"))));
    draw();
  }

  /** @param {unknown} move */
  async function submit(move) {
    if (busy || !match?.legal_moves) return false;
    const step = script.steps[index];
    if (canonical(move) !== canonical(step.move)) {
      say(interpolate(gettext("Not quite: this step asks you to %(move)s."),
        { move: describeMove(step.move) }));
      return false;
    }
    say("");
    index += 1;
    if (index < total) showStep(step.done);
    else finish(step.done);
    explain.focus?.();
    return true;
  }

  showStep();
  return undefined;
}
