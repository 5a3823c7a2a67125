// Nibble: the 9x9 board, the colour table with both collections; select discs, then take.
// Move: {"take": [[r, c], ...]}; legal_moves: {"takeable": {"<colour>": [[r, c], ...]}}.
// A game module: the interface is described in ../catalog.js.

import { h, rovingGrid } from "../dom.js";

// Colour ids 0-8 in BGA's order, each with a letter so no colour relies on hue alone (the same
// letters as the server's board pictures: grey is A, black is K).
export const COLOURS = [
  { name: "green", mark: "G" },
  { name: "purple", mark: "P" },
  { name: "red", mark: "R" },
  { name: "yellow", mark: "Y" },
  { name: "orange", mark: "O" },
  { name: "blue", mark: "B" },
  { name: "white", mark: "W" },
  { name: "grey", mark: "A" },
  { name: "black", mark: "K" },
];

export const RULES = {
  "nibble.empty_take": "Take at least one disc.",
  "nibble.duplicate_cell": "A disc was listed twice.",
  "nibble.off_board": "That cell is not on the board.",
  "nibble.no_disc": "That cell is empty.",
  "nibble.mixed_colours": "All discs taken in one turn must be of one colour.",
  "nibble.not_exposed":
    "A disc can be taken only with two adjacent open sides (a corner), before the turn.",
  "nibble.splits_board": "The discs left must stay one orthogonally connected group.",
};

// One line about the game for the rules index.
export const SUMMARY = "Two players take discs of one colour from a 9 by 9 board.";

/** What wins this match, in players' words, from its view and options (the match page). */
export function goal(match) {
  const view = match.view;
  return "Win at once with all 9 discs of one colour, or 7 or more of three colours that "
    + "stand next to each other on the colour table. If the board runs empty first, whoever "
    + "holds 5 or more discs in at least 5 colours wins."
    + (view.early_finish ? " The match stops as soon as the winner is settled." : "");
}

// How a match ended, per outcome reason, as a sentence (the after-match section).
export const OUTCOME_WORDS = {
  nine_of_a_colour: "All nine discs of one colour were collected: an instant win.",
  three_adjacent_sevens:
    "Seven discs of each of three neighbouring colours were collected: an instant win.",
  majority_of_majorities:
    "The board was cleared: the most discs in the most colours win.",
  decided: "The winner was settled before the board was cleared, so the match stopped early.",
};

export const REASONS = {
  nine_of_a_colour: "all nine discs of a colour",
  three_adjacent_sevens: "seven of three adjacent colours",
  majority_of_majorities: "the majority of majorities",
  decided: "the result was settled early",
};

const key = ([r, c]) => `${r},${c}`;
const LETTERS = "ABCDEFGHI";
/** A cell's name as the move log writes it: column letter, row number ("A9"). */
export const coordinate = (r, c) => `${LETTERS[c]}${r + 1}`;

/** The cells the newest move took discs from. */
function lastTaken(entry) {
  const taken = (entry?.events || []).findLast((event) => event.type === "discs_taken");
  return new Set(taken ? taken.cells.map(key) : []);
}

function disc(colour, extra = {}) {
  const info = COLOURS[colour];
  return h("span", { class: `disc c${colour}`, "aria-hidden": "true", ...extra }, info.mark);
}

function colourTable(view, you) {
  const seats = view.collections.map((_, seat) => seat);
  // The viewer's collection goes below the table, the other seat's above (as at a real table).
  const bottom = you ?? 0;
  const top = seats.find((seat) => seat !== bottom);
  const row = (seat) => h("tr", { class: seat === bottom ? "mine" : "theirs" },
    h("th", { scope: "row" }, seat === you ? "You" : `Seat ${seat + 1}`,
      h("span", { class: "muted" }, ` · ${view.majorities[seat]} maj.`)),
    view.color_order.map((colour) => {
      const count = view.collections[seat][colour];
      return h("td", {
        class: ["count", count >= 5 && "major", count >= 7 && "seven", count === 9 && "nine"],
        "aria-label": `${COLOURS[colour].name}: ${count}`,
      }, h("span", { class: "pips", style: { "--n": count } }), String(count));
    }));
  return h("table", { class: "colour-table", "aria-label": "Colour table and collections" },
    h("thead", null, row(top)),
    h("tbody", null, h("tr", { class: "swatches" },
      h("th", { scope: "row" }, "Colour"),
      view.color_order.map((colour) => h("th", { scope: "col" },
        disc(colour), h("span", { class: "sr-only" }, COLOURS[colour].name))))),
    h("tfoot", null, row(bottom)));
}

export function describe(entry, match) {
  for (const event of entry.events || []) {
    if (event.type === "discs_taken") {
      const cells = event.cells.map(([r, c]) => coordinate(r, c)).join(", ");
      const n = event.cells.length;
      return `took ${n === 1 ? "a" : n} ${COLOURS[event.color].name} disc${n === 1 ? "" : "s"} from ${cells}`;
    }
    if (event.type === "forfeited") return "left the match";
  }
  return entry.kind === "forfeit" ? "left the match" : "moved";
}

export function onNewVersion(ui) {
  ui.state.selected = new Set();
}

export function hasMoves(legal) {
  return Object.keys(legal.takeable || {}).length > 0;
}

export function render(container, match, ui) {
  const view = match.view;
  const state = ui.state;
  state.selected ||= new Set();
  const legal = match.legal_moves?.takeable || {};
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

  const toggle = (r, c) => {
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
    "aria-label": "Board, 9 by 9: columns A to I, rows 1 to 9; arrow keys move",
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
        }, h("span", { class: "sr-only" }, `${coord} empty${taken ? ", taken by the last move" : ""}`)));
        continue;
      }
      const can = takeable.has(id);
      const selected = state.selected.has(id);
      const label = `${coord} ${COLOURS[colour].name}${can ? ", takeable" : ""}`
        + `${selected ? ", selected" : ""}`;
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
  }, count ? `Take ${count} disc${count > 1 ? "s" : ""}` : "Take");
  const clearButton = h("button", {
    type: "button", disabled: !count, onClick: () => {
      state.selected.clear();
      ui.rerender();
    },
  }, "Clear selection");

  const quick = canMove ? h("div", { class: "quick", "aria-label": "Takeable discs by colour" },
    h("span", { class: "muted" }, "Takeable: "),
    Object.entries(legal).sort((a, b) => b[1].length - a[1].length).map(([colour, cells]) =>
      h("button", {
        type: "button", class: "chip", dataset: { selectColour: colour, count: cells.length },
        title: `Select every takeable ${COLOURS[colour].name} disc`,
        onClick: () => {
          state.selected = new Set(cells.map(key));
          ui.rerender();
        },
      }, disc(Number(colour)), ` ×${cells.length}`))) : null;

  const info = h("p", { class: "muted" },
    `${view.discs_left} discs left · turn ${view.turn + 1}`,
    view.early_finish ? " · early finish on" : "",
    view.decided ? " · the result is settled" : "");

  const you = view.you;
  container.append(
    h("div", { class: "nibble" },
      h("div", { class: "nibble-main" }, board,
        h("div", { class: "controls" }, take, clearButton), quick, info),
      h("div", { class: "nibble-side" },
        colourTable(view, you),
        h("p", { class: "legend" },
          "◆ marks a takeable disc. Win at once with all 9 of a colour, or 7+ in each of three "
          + "neighbouring colours of the table; else the majority (5+) in 5 colours."))));

  board.addEventListener("keydown", (event) => {
    if (event.key === "t" || event.key === "T") take.click();
  });
}
