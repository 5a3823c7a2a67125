// Nimalia: my reserve, my hand, objectives, the round card, per-round scores and every reserve.
// Moves: {"card": id, "row": r, "col": c, "rotation": 0|90|180|270} or {"undo": true};
// legal_moves: {"undo": bool, "cards": [...], "rotations": [...], "anchors": [[r, c], ...]}.
// A game module: the interface is described in ../catalog.js.

import { h, rovingGrid } from "../dom.js";
import { formatList, gettext, interpolate, ngettext, pgettext } from "../i18n.js";
import { nimaliaText } from "./nimalia_texts.js";

// The lands' names and letters follow the French edition's (lac, savane, banquise, jungle) in
// French; docs/i18n.md says where each language's words come from.
export const TERRAINS = {
  lake: { mark: pgettext("Nimalia land letter", "L"), name: pgettext("Nimalia land", "lake") },
  savannah: {
    mark: pgettext("Nimalia land letter", "S"), name: pgettext("Nimalia land", "savannah"),
  },
  ice: { mark: pgettext("Nimalia land letter", "I"), name: pgettext("Nimalia land", "ice") },
  forest: { mark: pgettext("Nimalia land letter", "F"), name: pgettext("Nimalia land", "forest") },
};

export const ANIMALS = {
  flamingo: pgettext("Nimalia animal", "Flamingo"),
  crocodile: pgettext("Nimalia animal", "Croc"),
  lion: pgettext("Nimalia animal", "Lion"),
  giraffe: pgettext("Nimalia animal", "Giraffe"),
  polar_bear: pgettext("Nimalia animal", "Bear"),
  penguin: pgettext("Nimalia animal", "Penguin"),
  gorilla: pgettext("Nimalia animal", "Gorilla"),
  panda: pgettext("Nimalia animal", "Panda"),
  otter: pgettext("Nimalia animal", "Otter"),
};
// Two letters for small pictures (the board pictures' abbreviations).
export const ANIMAL_ABBR = {
  flamingo: pgettext("Nimalia animal, two letters", "Fl"),
  crocodile: pgettext("Nimalia animal, two letters", "Cr"),
  lion: pgettext("Nimalia animal, two letters", "Li"),
  giraffe: pgettext("Nimalia animal, two letters", "Gi"),
  polar_bear: pgettext("Nimalia animal, two letters", "PB"),
  penguin: pgettext("Nimalia animal, two letters", "Pe"),
  gorilla: pgettext("Nimalia animal, two letters", "Go"),
  panda: pgettext("Nimalia animal, two letters", "Pa"),
  otter: pgettext("Nimalia animal, two letters", "Ot"),
};

const OBJECTIVE_COLOURS = {
  yellow: { mark: "Y", name: pgettext("Nimalia objective colour", "yellow") },
  blue: { mark: "B", name: pgettext("Nimalia objective colour", "blue") },
  green: { mark: "G", name: pgettext("Nimalia objective colour", "green") },
  red: { mark: "R", name: pgettext("Nimalia objective colour", "red") },
};
const colourName = (colour) => OBJECTIVE_COLOURS[colour]?.name || colour;

// Where the hands go after a turn (the view's pass_direction).
const DIRECTIONS = {
  left: pgettext("Nimalia hands go", "left"), right: pgettext("Nimalia hands go", "right"),
};
const directionName = (direction) => DIRECTIONS[direction] || direction;

const TIE_BREAKS = {
  most_of_one_species: gettext("the most animals of one kind"),
  fewest_covered_squares: gettext("the fewest squares covered by later cards"),
};

// One line about the game for the rules index.
export const SUMMARY = gettext("1-4 players build an animal reserve from drafted cards.");

/** What wins this match, in players' words, from its view and options (the match page). */
export function goal(match) {
  const view = match.view;
  const names = (view.objectives || []).map((o) => interpolate(gettext("%(name)s (%(colour)s)"),
    { name: nimaliaText(o.name), colour: colourName(o.colour) })).join(", ");
  const solo = view.players === 1;
  const tie = TIE_BREAKS[view.options?.tie_break] || "";
  const rounds = view.rounds;
  const text = solo
    ? interpolate(ngettext("Score as many points as you can in %(n)s round; your total earns a title.",
      "Score as many points as you can in %(n)s rounds; your total earns a title.", rounds),
    { n: rounds })
    : tie ? interpolate(ngettext("The highest total after %(n)s round wins; a tie goes to %(tie)s.",
      "The highest total after %(n)s rounds wins; a tie goes to %(tie)s.", rounds), { n: rounds, tie })
      : interpolate(ngettext("The highest total after %(n)s round wins.",
        "The highest total after %(n)s rounds wins.", rounds), { n: rounds });
  return names ? `${text} ${interpolate(gettext("Objectives: %(names)s."), { names })}` : text;
}

// How a match ended, per outcome reason, as a sentence (the after-match section).
export const OUTCOME_WORDS = {
  finished: gettext("All rounds were played: the most points win."),
  solo_finished: gettext("All rounds were played: the points earn a rank title."),
};

export const OPTION_HINTS = {
  objectives: { suggestions: ["random", "easy", "hard", "first_game"] },
};

// [TL, TR, BL, BR] after a clockwise rotation: the index of the reference square in each place.
const ROTATIONS = { 0: [0, 1, 2, 3], 90: [2, 0, 3, 1], 180: [3, 2, 1, 0], 270: [1, 3, 0, 2] };
const SWAP = { "/": "\\", "\\": "/" };

export function rotate(squares, rotation) {
  return ROTATIONS[rotation].map((index) => {
    const square = squares[index];
    const turned = rotation === 90 || rotation === 270;
    return { ...square, river: turned && square.river ? SWAP[square.river] : square.river };
  });
}

// The view never shows a pending card's squares (it has left the hand): remember every card
// this tab has seen in a hand.
const CACHE_KEY = "boardpost.nimalia.cards";
function cardCache() {
  try {
    return JSON.parse(sessionStorage.getItem(CACHE_KEY) || "{}");
  } catch {
    return {};
  }
}
function remember(hand) {
  const cache = cardCache();
  let changed = false;
  for (const item of hand || []) {
    if (!cache[item.id]) {
      cache[item.id] = item.squares;
      changed = true;
    }
  }
  if (changed) sessionStorage.setItem(CACHE_KEY, JSON.stringify(cache));
  return cache;
}

function squareLabel(square) {
  const text = interpolate(gettext("%(animal)s on %(land)s"), {
    animal: ANIMALS[square.animal] || square.animal,
    land: TERRAINS[square.terrain]?.name || square.terrain,
  });
  if (!square.river) return text;
  return text + (square.river === "/" ? gettext(", river rising") : gettext(", river falling"));
}

/** One square's content: terrain (colour + pattern + letter), animal, river diagonal. */
export function squareContent(square, short = false) {
  return [
    h("span", { class: "animal" },
      (short ? ANIMAL_ABBR : ANIMALS)[square.animal] || square.animal),
    h("span", { class: "terrain-mark", "aria-hidden": "true" }, TERRAINS[square.terrain]?.mark || "?"),
    square.river ? h("span", {
      class: ["river", square.river === "/" ? "rise" : "fall"], "aria-hidden": "true",
    }) : null,
  ];
}

function miniCard(squares, { label, cls } = {}) {
  return h("span", { class: ["mini-card", cls], role: label ? "img" : null, "aria-label": label },
    squares.map((square) => h("span", { class: `sq t-${square.terrain}`, "aria-hidden": "true" },
      squareContent(square))));
}

/** A colour's letter; with the objective of that colour, its name in the tooltip. */
function objectiveBadge(colour, objective) {
  const info = OBJECTIVE_COLOURS[colour] || { mark: "?", name: colour };
  const title = objective ? interpolate(gettext("%(name)s (%(colour)s)"),
    { name: nimaliaText(objective.name), colour: info.name }) : info.name;
  // The letter stays the same in every language: it matches the server's pictures.
  return h("span", { class: `obj-badge o-${colour}`, title }, info.mark);
}

function roundsOf(view, id) {
  return view.round_card.filter((r) => r.objectives.includes(id)).map((r) => r.round);
}

function objectives(view) {
  return h("section", { class: "objectives", "aria-labelledby": "obj-h" },
    h("h2", { id: "obj-h" }, gettext("Objectives")),
    h("ul", { class: "plain" }, view.objectives.map((o) => h("li", {
      class: ["objective", o.colour, view.round_card[view.round - 1]?.objectives.includes(o.id) && "now"],
    },
    objectiveBadge(o.colour), " ",
    h("strong", null, `${o.id}. ${nimaliaText(o.name)}`),
    h("span", { class: "muted" }, ` · ${colourName(o.colour)} · `,
      interpolate(gettext("level %(level)s"), { level: o.level }), " · ",
      interpolate(gettext("scored in rounds %(rounds)s"),
        { rounds: roundsOf(view, o.id).join(", ") })),
    h("p", null, nimaliaText(o.text))))));
}

function roundCard(view) {
  return h("table", { class: "list round-card" },
    h("caption", null, gettext("Round card")),
    h("thead", null, h("tr", null,
      h("th", { scope: "col" }, gettext("Round")), h("th", { scope: "col" }, gettext("Scored")),
      h("th", { scope: "col" }, gettext("Hands go")))),
    h("tbody", null, view.round_card.slice(0, view.rounds).map((r) => h("tr", {
      class: r.round === view.round && view.phase !== "finished" ? "current" : null,
      "aria-current": r.round === view.round && view.phase !== "finished" ? "step" : null,
    },
    h("th", { scope: "row" }, String(r.round)),
    h("td", null, r.colours.map((colour) => objectiveBadge(colour,
      view.objectives.find((o) => o.colour === colour)))),
    h("td", null, r.pass_direction ? directionName(r.pass_direction) : "—")))));
}

function scoresTable(view, seatName) {
  const rounds = view.scores.rounds || [];
  const objectiveById = Object.fromEntries(view.objectives.map((o) => [String(o.id), o]));
  return h("table", { class: "list scores" },
    h("caption", null,
      gettext("Scores per round (raw points per objective; totals never drop below 0)")),
    h("thead", null, h("tr", null,
      h("th", { scope: "col" }, gettext("Player")),
      rounds.map((r) => h("th", { scope: "col" },
        interpolate(gettext("Round %(n)s"), { n: r.round }))),
      h("th", { scope: "col" }, gettext("Total")))),
    h("tbody", null, view.scores.totals.map((total, seat) => h("tr", {
      class: seat === view.you ? "mine" : null,
    },
    h("th", { scope: "row" }, seatName(seat)),
    rounds.map((r) => {
      const points = r.points[String(seat)] || {};
      return h("td", { class: "round-points" },
        Object.entries(points).map(([id, value]) => h("span", { class: "pt" },
          objectiveBadge(objectiveById[id]?.colour, objectiveById[id]),
          ` ${value > 0 ? "+" : ""}${value}`)),
        h("span", { class: "muted" }, ` = ${r.totals[seat]}`));
    }),
    h("td", { class: "total" }, String(total))))));
}

/** Cells, anchors and overlays of one reserve in a CSS grid of absolute coordinates. */
function reserveGrid(reserve, { interactive = false, anchors = [], pending = null, cache = {},
  label, onCell, ghost, last = new Set() }) {
  const visible = new Map(reserve.squares.map((sq) => [`${sq.row},${sq.col}`, sq]));
  const rows = [];
  const cols = [];
  for (const sq of reserve.squares) {
    rows.push(sq.row);
    cols.push(sq.col);
  }
  for (const [r, c] of anchors) rows.push(r, r + 1), cols.push(c, c + 1);
  if (pending) rows.push(pending.row, pending.row + 1), cols.push(pending.col, pending.col + 1);
  if (!rows.length) rows.push(0, 1), cols.push(0, 1);
  const top = Math.min(...rows);
  const left = Math.min(...cols);
  const height = Math.max(...rows) - top + 1;
  const width = Math.max(...cols) - left + 1;
  const anchorSet = new Set(anchors.map(([r, c]) => `${r},${c}`));
  const grid = h("div", {
    class: ["reserve", interactive && "live"], role: interactive ? "group" : "img",
    "aria-label": label,
    style: { "--rows": height, "--cols": width },
  });
  for (let r = top; r < top + height; r += 1) {
    for (let c = left; c < left + width; c += 1) {
      const sq = visible.get(`${r},${c}`);
      const isAnchor = anchorSet.has(`${r},${c}`);
      const place = { "grid-row": String(r - top + 1), "grid-column": String(c - left + 1) };
      if (!interactive) {
        grid.append(h("span", {
          class: ["sq", sq ? `t-${sq.terrain}` : "void", last.has(`${r},${c}`) && "last"],
          style: place, "aria-hidden": "true",
        }, sq ? squareContent(sq, true) : null));
        continue;
      }
      const text = interpolate(gettext("Row %(row)s, column %(col)s: %(square)s"),
        { row: r - top + 1, col: c - left + 1, square: sq ? squareLabel(sq) : gettext("empty") })
        + (isAnchor ? gettext(". A card can go here (its top-left square)") : "");
      grid.append(h("button", {
        type: "button",
        class: ["sq", sq ? `t-${sq.terrain}` : "void", isAnchor && "anchor", last.has(`${r},${c}`) && "last"],
        style: place, "aria-label": text, tabindex: -1,
        dataset: { r, c, anchor: isAnchor ? "true" : "false", focus: `a-${r},${c}` },
        onClick: () => onCell(r, c),
        onMouseenter: () => ghost?.(r, c), onFocus: () => ghost?.(r, c),
      }, sq ? squareContent(sq) : null));
    }
  }
  const overlay = (r, c, squares, cls, text) => {
    const node = h("div", {
      class: ["overlay", cls], "aria-hidden": text ? null : "true", role: text ? "img" : null,
      "aria-label": text,
      style: { "grid-row": `${r - top + 1} / span 2`, "grid-column": `${c - left + 1} / span 2` },
    }, squares ? squares.map((square) => h("span", { class: `sq t-${square.terrain}` },
      squareContent(square))) : h("span", { class: "unknown" }, "?"));
    grid.append(node);
    return node;
  };
  if (pending) {
    const squares = cache[pending.card] ? rotate(cache[pending.card], pending.rotation) : null;
    overlay(pending.row, pending.col, squares, "pending",
      interpolate(gettext("Your pending card %(card)s, hidden from the others until everyone has placed"),
        { card: pending.card }));
  }
  grid.placeGhost = (r, c, squares) => {
    grid.querySelector(".overlay.ghost")?.remove();
    if (squares && r !== null) overlay(r, c, squares, "ghost");
  };
  if (interactive) {
    rovingGrid(grid);
    grid.addEventListener("mouseleave", () => grid.placeGhost(null));
  }
  return grid;
}

const TURNED = {
  0: gettext("not turned"), 90: gettext("turned a quarter right"),
  180: gettext("turned upside down"), 270: gettext("turned a quarter left"),
};

/** Where a card went, in words: its top-left square against the first card's (row 0, col 0). */
function placeWords(row, col) {
  const up = (n) => interpolate(ngettext("%(n)s up", "%(n)s up", n), { n });
  const down = (n) => interpolate(ngettext("%(n)s down", "%(n)s down", n), { n });
  const left = (n) => interpolate(ngettext("%(n)s left", "%(n)s left", n), { n });
  const right = (n) => interpolate(ngettext("%(n)s right", "%(n)s right", n), { n });
  const parts = [row === 0 ? null : row < 0 ? up(-row) : down(row),
    col === 0 ? null : col < 0 ? left(-col) : right(col)].filter(Boolean);
  return parts.length ? interpolate(gettext("%(steps)s from the first card"),
    { steps: formatList(parts) }) : gettext("on the first card's place");
}

const listWords = (items) => formatList(items);

export function describe(entry) {
  const parts = [];
  const events = entry.events || [];
  const privateMove = events.find((e) => e.type === "placement_pending" || e.type === "placement_undone");
  for (const event of events) {
    switch (event.type) {
      case "placement_pending":
        parts.push(interpolate(gettext("placed card #%(card)s, %(turned)s, %(where)s (hidden from "
          + "the others until everyone has placed)"), {
          card: event.card,
          turned: TURNED[event.rotation]
            ?? interpolate(gettext("turned %(degrees)s°"), { degrees: event.rotation }),
          where: placeWords(event.row, event.col),
        }));
        break;
      case "card_placed":
        if (!privateMove) parts.push(gettext("placed a card (hidden until everyone has)"));
        break;
      case "placement_undone":
        parts.push(interpolate(gettext("took card #%(card)s back"), { card: event.card }));
        break;
      case "placement_withdrawn": if (!privateMove) parts.push(gettext("took a card back")); break;
      case "placements_revealed":
        parts.push(interpolate(gettext("everyone has placed: the cards of round %(round)s, turn "
          + "%(turn)s are revealed"), { round: event.round, turn: event.turn }));
        break;
      case "round_scored":
        parts.push(interpolate(gettext("round %(round)s scored: %(totals)s points in all"),
          { round: event.round, totals: listWords(event.totals.map(String)) }));
        break;
      case "round_started":
        parts.push(interpolate(gettext("round %(round)s: new hands dealt"), { round: event.round }));
        break;
      case "cards_discarded":
        parts.push(interpolate(ngettext("card %(cards)s discarded", "cards %(cards)s discarded",
          event.cards.length), { cards: listWords(event.cards.map((c) => `#${c}`)) }));
        break;
      case "seat_forfeited": parts.push(gettext("left the match (a bot plays on)")); break;
      case "match_ended":
        parts.push(event.title ? interpolate(gettext("the match ended: %(title)s"),
          { title: nimaliaText(event.title) }) : gettext("the match ended"));
        break;
      default: break;
    }
  }
  return parts.join("; ") || entry.kind;
}

// Simultaneous turns: a move must not fail because another seat placed meanwhile.
export function simultaneous() {
  return true;
}

export function hasMoves(legal) {
  return Boolean(legal.undo || legal.cards?.length);
}

export function onNewVersion(ui, match) {
  const hand = match.view?.hand || [];
  if (!hand.some((c) => c.id === ui.state.card)) ui.state.card = hand[0]?.id ?? null;
}

export function render(container, match, ui) {
  const view = match.view;
  const state = ui.state;
  state.rotation ||= 0;
  const you = view.you;
  const seated = you !== null && you !== undefined;
  const cache = remember(view.hand);
  const legal = match.legal_moves;
  const canPlace = Boolean(legal && !legal.undo && legal.cards.length) && !ui.busy;
  // The detail gives legal moves only to seats the turn waits for, so a seat that has placed
  // gets none, yet it may still take its card back: the view says so (pending, still an actor).
  // A placement can be taken back only while another seat still chooses: the last one to
  // place reveals every card at once. Bots place as soon as the turn reaches them, so a take
  // back that waits on bots alone would almost never arrive in time: it is not offered then.
  const othersChoosing = view.placed.map((placed, seat) => seat !== you && !placed
    && !view.forfeited.includes(seat) ? seat : null).filter((seat) => seat !== null);
  const humansChoosing = othersChoosing.filter((seat) => !ui.seatIsBot(seat));
  const canUndo = Boolean(seated && view.pending && view.phase === "placing"
    && (view.actors || []).includes(you) && humansChoosing.length > 0);
  const revealsAtOnce = seated && !view.pending && humansChoosing.length === 0;
  const hand = view.hand || [];
  if (!hand.some((c) => c.id === state.card)) state.card = hand[0]?.id ?? null;
  const seatName = (seat) => (seat === you ? gettext("You") : ui.seatName(seat));
  // The last move: the cards the newest reveal put down, marked in every reserve.
  const revealed = ui.lastEvent?.("placements_revealed");
  const lastCards = new Map((revealed?.placements || []).map((p) => [p.seat,
    new Set([[0, 0], [0, 1], [1, 0], [1, 1]].map(([dr, dc]) => `${p.row + dr},${p.col + dc}`))]));

  const status = h("p", { class: "phase" },
    view.phase === "finished" ? gettext("Finished")
      : interpolate(gettext("Round %(round)s of %(rounds)s"),
        { round: view.round, rounds: view.rounds })
      + ` · ${interpolate(gettext("turn %(turn)s of %(turns)s"),
        { turn: view.turn, turns: view.turns_per_round })}`
      + (view.pass_direction ? ` · ${interpolate(gettext("hands go %(direction)s"),
        { direction: directionName(view.pass_direction) })}` : "")
      + (view.phase === "scoring" ? ` · ${gettext("scoring the round…")}` : ""),
    ` · ${interpolate(ngettext("%(n)s card in the deck", "%(n)s cards in the deck",
      view.deck_size), { n: view.deck_size })}`);

  let mine = null;
  if (seated) {
    const rotationText = `${state.rotation}°`;
    const selected = hand.find((c) => c.id === state.card);
    const selectedSquares = selected ? rotate(selected.squares, state.rotation) : null;
    const grid = reserveGrid(view.reserves[you], {
      interactive: true, anchors: canPlace ? legal.anchors : [], pending: view.pending, cache,
      last: lastCards.get(you),
      label: gettext("Your reserve: pick a card, then a square for its top-left corner"),
      onCell: (r, c) => {
        if (view.pending) {
          ui.say(gettext("You have placed this turn; take the card back first to move it."));
          return;
        }
        if (!canPlace || !state.card) return;
        ui.submit({ card: state.card, row: r, col: c, rotation: state.rotation });
      },
      ghost: canPlace && selectedSquares ? (r, c) => grid.placeGhost(r, c, selectedSquares) : null,
    });
    const rotateBy = (delta) => {
      state.rotation = (state.rotation + delta + 360) % 360;
      ui.rerender();
    };
    const handList = h("div", { class: "hand", role: "radiogroup", "aria-label": gettext("Your hand") },
      hand.length ? hand.map((item) => {
        const chosen = item.id === state.card;
        return h("button", {
          type: "button", role: "radio", "aria-checked": chosen ? "true" : "false",
          class: ["hand-card", chosen && "chosen"], disabled: !canPlace,
          dataset: { card: item.id, focus: `card-${item.id}` },
          "aria-label": interpolate(gettext("Card %(card)s: %(squares)s"), {
            card: item.id,
            squares: rotate(item.squares, chosen ? state.rotation : 0).map(squareLabel).join("; "),
          }),
          onClick: () => {
            state.card = item.id;
            ui.rerender();
          },
        }, miniCard(rotate(item.squares, chosen ? state.rotation : 0)),
        h("span", { class: "card-id" }, `#${item.id}`));
      }) : h("p", { class: "muted" }, gettext("No cards in hand.")));
    const controls = h("div", { class: "controls" },
      h("button", {
        type: "button", disabled: !canPlace, "aria-keyshortcuts": "Shift+R",
        dataset: { focus: "rot-left" }, onClick: () => rotateBy(-90),
      }, gettext("⟲ Rotate left")),
      h("span", { class: "rotation", "aria-live": "polite" },
        interpolate(gettext("Turned %(angle)s"), { angle: rotationText })),
      h("button", {
        type: "button", disabled: !canPlace, "aria-keyshortcuts": "R", id: "nimalia-rotate",
        dataset: { focus: "rot-right" }, onClick: () => rotateBy(90),
      }, gettext("Rotate right ⟳")),
      canUndo ? h("button", {
        type: "button", class: "primary", id: "nimalia-undo", disabled: ui.busy,
        onClick: () => ui.submit({ undo: true }),
      }, gettext("Take back")) : null);
    const pick = gettext(
      "Pick a card, turn it, then click the square for its top-left corner (dots mark them).");
    const waiting = view.placed[you] ? (canUndo
      ? gettext("Placed. You can take it back until everyone has placed.")
      : gettext("Placed. Waiting for the others."))
      : canPlace ? (revealsAtOnce ? `${pick} ${gettext(
        "Your card is revealed as soon as you place it: it cannot be taken back.")}` : pick)
        : view.phase === "scoring" ? gettext("The round is being scored.") : "";
    const over = view.phase === "finished";
    mine = h("section", { class: "nimalia-me", "aria-labelledby": "my-reserve-h" },
      h("h2", { id: "my-reserve-h" }, gettext("Your reserve"), " ",
        h("span", { class: "muted" }, "· ", interpolate(ngettext("%(n)s point", "%(n)s points",
          view.scores.totals[you]), { n: view.scores.totals[you] }))),
      over ? null : h("p", { class: "hint" }, waiting),
      grid,
      over ? null : [h("h2", null, gettext("Your hand")), handList, controls]);
    container.onkeydown = (event) => {
      if (!canPlace || event.target.closest("input, select, textarea")) return;
      if (event.key === "r" || event.key === "R") {
        event.preventDefault();
        rotateBy(event.shiftKey ? -90 : 90);
      }
    };
  }

  const others = h("section", { class: "others", "aria-labelledby": "others-h" },
    h("h2", { id: "others-h" }, seated ? gettext("Every reserve") : gettext("Reserves")),
    h("div", { class: "reserve-list" }, view.reserves.map((reserve, seat) => h("figure", {
      class: ["reserve-card", seat === you && "mine"],
      dataset: { seat, placed: view.placed[seat], cards: reserve.cards_placed },
    },
    h("figcaption", null, h("strong", null, seatName(seat)),
      " · ", interpolate(ngettext("%(n)s pt", "%(n)s pts", view.scores.totals[seat]),
        { n: view.scores.totals[seat] }),
      " · ", interpolate(ngettext("%(n)s card", "%(n)s cards", reserve.cards_placed),
        { n: reserve.cards_placed }),
      view.phase === "placing"
        ? ` · ${view.placed[seat] ? gettext("placed ✓") : gettext("choosing…")}` : "",
      view.forfeited.includes(seat) ? ` · ${gettext("left (a bot plays)")}` : ""),
    reserveGrid(reserve, {
      label: interpolate(ngettext("Reserve of %(name)s: %(n)s visible square",
        "Reserve of %(name)s: %(n)s visible squares", reserve.squares.length),
      { name: seatName(seat), n: reserve.squares.length }),
      last: lastCards.get(seat),
    }),
    ))));

  container.append(h("div", { class: "nimalia" },
    h("div", { class: "nimalia-main" }, status, mine, others),
    h("div", { class: "nimalia-side" }, objectives(view), roundCard(view),
      scoresTable(view, seatName),
      h("p", { class: "legend" },
        gettext("Lands: L lake (waves), S savannah (dots), I ice (cross-hatch), F forest "
          + "(stripes). A diagonal line is an otter's river.")))));
}
