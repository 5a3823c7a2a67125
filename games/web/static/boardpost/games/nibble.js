// @ts-check
// Nibble: the 9x9 board, the colour table with both collections; select discs, then take.
// Move: {"take": [[r, c], ...]}; legal_moves: {"takeable": {"<colour>": [[r, c], ...]}}.
// A game module: the interface is described in ../catalog.js.

import { h, put, rovingGrid } from "../dom.js";
import { gettext, interpolate, ngettext, pgettext } from "../i18n.js";

/** @typedef {import("../api.js").Match} Match */
/** @typedef {import("../catalog.js").GameUi} GameUi */

// Colour ids 0-8 in BGA's order, each with a letter so no colour relies on hue alone (the same
// letters as the server's board pictures: grey is A, black is K). `taken(n, cells)` is the move
// log's words for taking n discs of the colour (a colour's word agrees with "disc" in some
// languages, so each colour has its own sentence).
export const COLOURS = [
  {
    name: pgettext("Nibble colour", "green"), mark: "G",
    taken: (/** @type {number} */ n, /** @type {string} */ cells) => interpolate(ngettext("took a green disc from %(cells)s",
      "took %(n)s green discs from %(cells)s", n), { n, cells }),
  },
  {
    name: pgettext("Nibble colour", "purple"), mark: "P",
    taken: (/** @type {number} */ n, /** @type {string} */ cells) => interpolate(ngettext("took a purple disc from %(cells)s",
      "took %(n)s purple discs from %(cells)s", n), { n, cells }),
  },
  {
    name: pgettext("Nibble colour", "red"), mark: "R",
    taken: (/** @type {number} */ n, /** @type {string} */ cells) => interpolate(ngettext("took a red disc from %(cells)s",
      "took %(n)s red discs from %(cells)s", n), { n, cells }),
  },
  {
    name: pgettext("Nibble colour", "yellow"), mark: "Y",
    taken: (/** @type {number} */ n, /** @type {string} */ cells) => interpolate(ngettext("took a yellow disc from %(cells)s",
      "took %(n)s yellow discs from %(cells)s", n), { n, cells }),
  },
  {
    name: pgettext("Nibble colour", "orange"), mark: "O",
    taken: (/** @type {number} */ n, /** @type {string} */ cells) => interpolate(ngettext("took an orange disc from %(cells)s",
      "took %(n)s orange discs from %(cells)s", n), { n, cells }),
  },
  {
    name: pgettext("Nibble colour", "blue"), mark: "B",
    taken: (/** @type {number} */ n, /** @type {string} */ cells) => interpolate(ngettext("took a blue disc from %(cells)s",
      "took %(n)s blue discs from %(cells)s", n), { n, cells }),
  },
  {
    name: pgettext("Nibble colour", "white"), mark: "W",
    taken: (/** @type {number} */ n, /** @type {string} */ cells) => interpolate(ngettext("took a white disc from %(cells)s",
      "took %(n)s white discs from %(cells)s", n), { n, cells }),
  },
  {
    name: pgettext("Nibble colour", "grey"), mark: "A",
    taken: (/** @type {number} */ n, /** @type {string} */ cells) => interpolate(ngettext("took a grey disc from %(cells)s",
      "took %(n)s grey discs from %(cells)s", n), { n, cells }),
  },
  {
    name: pgettext("Nibble colour", "black"), mark: "K",
    taken: (/** @type {number} */ n, /** @type {string} */ cells) => interpolate(ngettext("took a black disc from %(cells)s",
      "took %(n)s black discs from %(cells)s", n), { n, cells }),
  },
];

// One line about the game for the rules index.
export const SUMMARY = gettext("Two players take discs of one colour from a 9 by 9 board.");

/** What wins this match, in players' words, from its view and options (the match page).
 * @param {Match} match */
export function goal(match) {
  const view = match.view;
  const text = gettext("Win at once with all 9 discs of one colour, or 7 or more of three "
    + "colours that stand next to each other on the colour table. If the board runs empty "
    + "first, whoever holds 5 or more discs in at least 5 colours wins.");
  return view.early_finish
    ? `${text} ${gettext("The match stops as soon as the winner is settled.")}` : text;
}

// How a match ended, per outcome reason, as a sentence (the after-match section).
export const OUTCOME_WORDS = {
  nine_of_a_colour: gettext("All nine discs of one colour were collected: an instant win."),
  three_adjacent_sevens: gettext(
    "Seven discs of each of three neighbouring colours were collected: an instant win."),
  majority_of_majorities: gettext(
    "The board was cleared: the most discs in the most colours win."),
  decided: gettext(
    "The winner was settled before the board was cleared, so the match stopped early."),
};

const key = (/** @type {number[]} */ [r, c]) => `${r},${c}`;
const LETTERS = "ABCDEFGHI";
/** A cell's name as the move log writes it: column letter, row number ("A9").
 * @type {(r: number, c: number) => string} */
export const coordinate = (r, c) => `${LETTERS[c]}${r + 1}`;

/** The cells the newest move took discs from.
 * @param {any} entry */
function lastTaken(entry) {
  const taken = (entry?.events || []).findLast((/** @type {any} */ event) =>
    event.type === "discs_taken");
  return new Set(taken ? taken.cells.map(key) : []);
}

/** @param {number} colour @param {Object<string, unknown>} [extra] */
function disc(colour, extra = {}) {
  const info = COLOURS[colour];
  return h("span", { class: `disc c${colour}`, "aria-hidden": "true", ...extra }, info.mark);
}

/** @param {any} view @param {number | null} you */
function colourTable(view, you) {
  /** @type {number[]} */
  const seats = view.collections.map((/** @type {unknown} */ _, /** @type {number} */ seat) => seat);
  // The viewer's collection goes below the table, the other seat's above (as at a real table).
  const bottom = you ?? 0;
  const top = seats.find((seat) => seat !== bottom);
  const row = (/** @type {number} */ seat) => h("tr", { class: seat === bottom ? "mine" : "theirs" },
    h("th", { scope: "row" }, seat === you ? gettext("You")
      : interpolate(gettext("Seat %(n)s"), { n: seat + 1 }),
    h("span", { class: "muted" }, " · ",
      interpolate(gettext("%(n)s maj."), { n: view.majorities[seat] }))),
    view.color_order.map((/** @type {number} */ colour) => {
      const count = view.collections[seat][colour];
      return h("td", {
        class: ["count", count >= 5 && "major", count >= 7 && "seven", count === 9 && "nine"],
        "aria-label": interpolate(gettext("%(colour)s: %(count)s"),
          { colour: COLOURS[colour].name, count }),
      }, h("span", { class: "pips", style: { "--n": count } }), String(count));
    }));
  return h("table", { class: "colour-table", "aria-label": gettext("Colour table and collections") },
    h("thead", null, row(/** @type {number} */ (top))),
    h("tbody", null, h("tr", { class: "swatches" },
      h("th", { scope: "row" }, gettext("Colour")),
      view.color_order.map((/** @type {number} */ colour) => h("th", { scope: "col" },
        disc(colour), h("span", { class: "sr-only" }, COLOURS[colour].name))))),
    h("tfoot", null, row(bottom)));
}

/** @param {any} entry */
export function describe(entry) {
  for (const event of entry.events || []) {
    if (event.type === "discs_taken") {
      const cells = event.cells.map((/** @type {number[]} */ [r, c]) => coordinate(r, c)).join(", ");
      return COLOURS[event.color].taken(event.cells.length, cells);
    }
    if (event.type === "forfeited") return gettext("left the match");
  }
  return entry.kind === "forfeit" ? gettext("left the match") : gettext("moved");
}

/** @param {GameUi} ui */
export function onNewVersion(ui) {
  ui.state.selected = new Set();
}

/** @param {any} legal */
export function hasMoves(legal) {
  return Object.keys(legal.takeable || {}).length > 0;
}

/** @param {HTMLElement} container @param {Match} match @param {GameUi} ui */
export function render(container, match, ui) {
  const view = match.view;
  const state = ui.state;
  state.selected ||= new Set();
  const legal = match.legal_moves?.takeable || {};
  /** @type {Map<string, number>} */
  const takeable = new Map();
  for (const [colour, cells] of Object.entries(legal)) {
    for (const cell of cells) takeable.set(key(cell), Number(colour));
  }
  const canMove = Boolean(match.legal_moves) && !ui.busy;
  const selectedColour = () => {
    const first = [...state.selected][0];
    if (!first) return null;
    const [r, c] = first.split(",").map(Number);
    return view.board[r][c];
  };

  const toggle = (/** @type {number} */ r, /** @type {number} */ c) => {
    const id = key([r, c]);
    const colour = view.board[r][c];
    if (colour === null || !canMove) return;
    if (state.selected.has(id)) state.selected.delete(id);
    else {
      // One colour per turn: picking another colour starts a new selection.
      if (selectedColour() !== null && selectedColour() !== colour) state.selected.clear();
      state.selected.add(id);
    }
    ui.rerender();
  };

  const board = h("div", {
    class: ["nibble-board", canMove && "live"], role: "group",
    "aria-label": gettext("Board, 9 by 9: columns A to I, rows 1 to 9; arrow keys move"),
  });
  const last = lastTaken(ui.lastEntry);
  // Column letters and row numbers as the move log names the cells (A1 top left).
  const letters = h("div", { class: "board-row coords", "aria-hidden": "true" },
    h("span", { class: "coord corner" }), [...LETTERS].map((letter) => h("span", { class: "coord" }, letter)));
  board.append(letters);
  for (let r = 0; r < 9; r += 1) {
    const row = h("div", { class: "board-row" },
      h("span", { class: "coord", "aria-hidden": "true" }, String(r + 1)));
    for (let c = 0; c < 9; c += 1) {
      const colour = view.board[r][c];
      const id = key([r, c]);
      const coord = coordinate(r, c);
      // Each cell's name is its own (hidden) words, no aria-label: "A9 green, takeable".
      if (colour === null) {
        const taken = last.has(id);
        row.append(h("button", {
          type: "button", class: ["cell", "empty", taken && "last"],
          "aria-disabled": "true", dataset: { r, c, focus: `n-${id}`, last: taken ? "true" : null },
          tabindex: -1,
        }, h("span", { class: "sr-only" }, taken
          ? interpolate(gettext("%(cell)s empty, taken by the last move"), { cell: coord })
          : interpolate(gettext("%(cell)s empty"), { cell: coord }))));
        continue;
      }
      const can = takeable.has(id);
      const selected = state.selected.has(id);
      const label = interpolate(gettext("%(cell)s %(colour)s"),
        { cell: coord, colour: COLOURS[colour].name })
        + (can ? gettext(", takeable") : "") + (selected ? gettext(", selected") : "");
      row.append(h("button", {
        type: "button", class: ["cell", can && "takeable", selected && "selected"],
        "aria-pressed": selected ? "true" : "false",
        "aria-disabled": canMove ? null : "true",
        dataset: { r, c, colour, takeable: can ? "true" : "false", focus: `n-${id}` },
        tabindex: -1, onClick: () => toggle(r, c),
      }, disc(colour), can ? h("span", { class: "mark", "aria-hidden": "true" }, "◆") : null,
      h("span", { class: "sr-only" }, label)));
    }
    board.append(row);
  }
  rovingGrid(board);

  const count = state.selected.size;
  const take = h("button", {
    type: "button", class: "primary", id: "nibble-take", disabled: !canMove || !count,
    "aria-keyshortcuts": "T",
    onClick: () => ui.submit({ take: [...state.selected].map((s) => s.split(",").map(Number)) }),
  }, count ? interpolate(ngettext("Take %(n)s disc", "Take %(n)s discs", count), { n: count })
    : gettext("Take"));
  const clearButton = h("button", {
    type: "button", disabled: !count, onClick: () => {
      state.selected.clear();
      ui.rerender();
    },
  }, gettext("Clear selection"));

  const quick = canMove ? h("div", { class: "quick", "aria-label": gettext("Takeable discs by colour") },
    h("span", { class: "muted" }, gettext("Takeable:"), " "),
    Object.entries(legal).sort((a, b) => b[1].length - a[1].length).map(([colour, cells]) =>
      h("button", {
        type: "button", class: "chip", dataset: { selectColour: colour, count: cells.length },
        title: interpolate(gettext("Select every takeable disc of colour %(colour)s"),
          { colour: COLOURS[Number(colour)].name }),
        onClick: () => {
          state.selected = new Set(cells.map(key));
          ui.rerender();
        },
      }, disc(Number(colour)), ` ×${cells.length}`))) : null;

  const info = h("p", { class: "muted" },
    interpolate(ngettext("%(n)s disc left", "%(n)s discs left", view.discs_left),
      { n: view.discs_left }),
    " · ", interpolate(gettext("turn %(n)s"), { n: view.turn + 1 }),
    view.early_finish ? ` · ${gettext("early finish on")}` : "",
    view.decided ? ` · ${gettext("the result is settled")}` : "");

  const you = view.you;
  container.append(
    h("div", { class: "nibble" },
      h("div", { class: "nibble-main" }, board,
        h("div", { class: "controls" }, take, clearButton), quick, info),
      h("div", { class: "nibble-side" },
        colourTable(view, you),
        h("p", { class: "legend" },
          gettext("◆ marks a takeable disc. Win at once with all 9 of a colour, or 7+ in each of "
            + "three neighbouring colours of the table; else the majority (5+) in 5 colours.")))));

  board.addEventListener("keydown", (event) => {
    if (event.key === "t" || event.key === "T") take.click();
  });
}

// ---------------------------------------------------------------- plans

/** @typedef {import("../catalog.js").LineMove} LineMove */
/** @typedef {import("../catalog.js").PlanPick} PlanPick */
/** @typedef {(number | null)[][]} Board */

const SIDES = [[-1, 0], [1, 0], [0, -1], [0, 1]];

/** The board after the takes of a plan's line (their cells emptied).
 * @param {Board} board @param {LineMove[]} line @returns {Board} */
function boardAfter(board, line) {
  const next = board.map((row) => [...row]);
  for (const { move } of line) {
    for (const [r, c] of move?.take || []) if (next[r]) next[r][c] = null;
  }
  return next;
}

/** @param {Board} board @param {number} r @param {number} c */
const filled = (board, r, c) => r >= 0 && r < 9 && c >= 0 && c < 9 && board[r][c] !== null;

/** Whether the discs of `board` stay one orthogonal group once the cells `gone` are taken.
 * @param {Board} board @param {Set<string>} gone */
function staysConnected(board, gone) {
  /** @type {number[][]} */
  const discs = [];
  for (let r = 0; r < 9; r += 1) {
    for (let c = 0; c < 9; c += 1) if (filled(board, r, c) && !gone.has(key([r, c]))) discs.push([r, c]);
  }
  if (discs.length < 2) return true;
  const seen = new Set([key(discs[0])]);
  const stack = [discs[0]];
  while (stack.length) {
    const [r, c] = /** @type {number[]} */ (stack.pop());
    for (const [dr, dc] of SIDES) {
      const next = [r + dr, c + dc];
      if (filled(board, next[0], next[1]) && !gone.has(key(next)) && !seen.has(key(next))) {
        seen.add(key(next));
        stack.push(next);
      }
    }
  }
  return seen.size === discs.length;
}

/** The discs a take may hold on `board`, by cell key: two adjacent exposed sides (an empty cell
 * or the edge), and the board stays one group without the disc.
 * @param {Board} board @returns {Map<string, number>} */
function takeableOn(board) {
  /** @type {Map<string, number>} */
  const found = new Map();
  for (let r = 0; r < 9; r += 1) {
    for (let c = 0; c < 9; c += 1) {
      const colour = board[r][c];
      if (colour === null) continue;
      const open = (/** @type {number} */ dr, /** @type {number} */ dc) => !filled(board, r + dr, c + dc);
      const cornered = (open(-1, 0) || open(1, 0)) && (open(0, -1) || open(0, 1));
      if (cornered && staysConnected(board, new Set([key([r, c])]))) found.set(key([r, c]), colour);
    }
  }
  return found;
}

/** A take in words, its colour read on the current board ("took 2 red discs from A1, B1").
 * @param {any} move @param {Match} match */
function takeWords(move, match) {
  const cells = /** @type {number[][]} */ (move?.take || []);
  const colour = cells.length ? match.view.board[cells[0][0]]?.[cells[0][1]] : null;
  const names = cells.map(([r, c]) => coordinate(r, c)).join(", ");
  return colour === null || colour === undefined ? names : COLOURS[colour].taken(cells.length, names);
}

/** The plan's board: the position along the line, its takeable discs for the side to move;
 * select discs of one colour, then add the take to the plan.
 * @param {HTMLElement} container @param {PlanPick} pick */
function planBoard(container, pick) {
  const board = boardAfter(pick.match.view.board, pick.line);
  const takeable = takeableOn(board);
  /** @type {Set<string>} */
  const selected = pick.state.selected ||= new Set();
  const mine = pick.mine;
  const toggle = (/** @type {string} */ id) => {
    const colour = takeable.get(id);
    if (selected.has(id)) selected.delete(id);
    else {
      const first = [...selected][0];
      if (first !== undefined && takeable.get(first) !== colour) selected.clear();
      selected.add(id);
    }
    pick.rerender();
  };
  const grid = h("div", { class: "nibble-board live", role: "group", id: "plan-board",
    "aria-label": gettext("The board along the plan") },
  h("div", { class: "board-row coords", "aria-hidden": "true" }, h("span", { class: "coord corner" }),
    [...LETTERS].map((letter) => h("span", { class: "coord" }, letter))));
  for (let r = 0; r < 9; r += 1) {
    const row = h("div", { class: "board-row" },
      h("span", { class: "coord", "aria-hidden": "true" }, String(r + 1)));
    for (let c = 0; c < 9; c += 1) {
      const id = key([r, c]);
      const colour = board[r][c];
      const coord = coordinate(r, c);
      if (colour === null) {
        row.append(h("button", { type: "button", class: ["cell", "empty"], tabindex: -1,
          "aria-disabled": "true", dataset: { r, c, focus: `p-${id}` } },
        h("span", { class: "sr-only" }, interpolate(gettext("%(cell)s empty"), { cell: coord }))));
        continue;
      }
      const can = takeable.has(id);
      const chosen = selected.has(id);
      row.append(h("button", {
        type: "button", class: ["cell", can && "takeable", chosen && "selected"], tabindex: -1,
        "aria-pressed": chosen ? "true" : "false", "aria-disabled": can ? null : "true",
        dataset: { r, c, takeable: can ? "true" : "false", focus: `p-${id}` },
        onClick: () => can && toggle(id),
      }, disc(colour), can ? h("span", { class: "mark", "aria-hidden": "true" }, "◆") : null,
      h("span", { class: "sr-only" }, interpolate(gettext("%(cell)s %(colour)s"),
        { cell: coord, colour: COLOURS[colour].name })
        + (can ? gettext(", takeable") : "") + (chosen ? gettext(", selected") : ""))));
    }
    grid.append(row);
  }
  rovingGrid(grid);
  const cells = [...selected].map((id) => id.split(",").map(Number))
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const splits = cells.length > 1 && !staysConnected(board, selected);
  const who = mine ? gettext("you") : pick.seatName(1 - Number(pick.match.your_seat));
  put(container,
    h("p", { class: "plan-turn" }, interpolate(gettext("To move here: %(name)s"), { name: who })),
    grid,
    splits ? h("p", { class: "muted" }, gettext("These discs would split the board.")) : null,
    h("div", { class: "controls" },
      h("button", { type: "button", class: "primary", id: "plan-add",
        disabled: !cells.length || splits, dataset: { focus: "plan-add" },
        onClick: () => pick.add({ take: cells }, mine) },
      mine ? gettext("Add your take") : gettext("Add their take"))));
}

// Nibble's part in plans (plans.js): two players, one take a turn, so the sides alternate.
/** @type {import("../catalog.js").GamePlanner} */
export const planner = {
  applies: () => true,
  describe: takeWords,
  next: (line) => ({ mine: !line.at(-1)?.mine, theirs: Boolean(line.at(-1)?.mine) }),
  pick: planBoard,
};
