// @ts-check
// Nimble: three target stacks, my Set and discard, every seat's counts.
// Moves: {"action": "flip" | "return" | "recycle" | "end_turn"} or {"action": "place", "stack": k};
// legal_moves: the list of legal move objects. A game module: the interface is described in
// ../catalog.js.

import { h } from "../dom.js";
import { gettext, interpolate, ngettext, pgettext } from "../i18n.js";

/** @typedef {import("../api.js").Match} Match */
/** @typedef {import("../catalog.js").GameUi} GameUi */
/** @typedef {{frame: string, circle: string, set: number}} Card */

// Card colours with a letter each, so no colour relies on hue alone (as in the board pictures).
// A colour's word as it describes a frame (and a card, whose colour is its frame's) and as it
// describes a circle: some languages make the word agree with the noun.
/** @type {Object<string, {mark: string, frame: string, circle: string}>} */
export const COLOURS = {
  red: {
    mark: "R", frame: pgettext("Nimble frame colour", "red"),
    circle: pgettext("Nimble circle colour", "red"),
  },
  orange: {
    mark: "O", frame: pgettext("Nimble frame colour", "orange"),
    circle: pgettext("Nimble circle colour", "orange"),
  },
  beige: {
    mark: "B", frame: pgettext("Nimble frame colour", "beige"),
    circle: pgettext("Nimble circle colour", "beige"),
  },
  light_blue: {
    mark: "L", frame: pgettext("Nimble frame colour", "light blue"),
    circle: pgettext("Nimble circle colour", "light blue"),
  },
  green: {
    mark: "G", frame: pgettext("Nimble frame colour", "green"),
    circle: pgettext("Nimble circle colour", "green"),
  },
  purple: {
    mark: "P", frame: pgettext("Nimble frame colour", "purple"),
    circle: pgettext("Nimble circle colour", "purple"),
  },
};

// One line about the game for the rules index.
export const SUMMARY = gettext("2-4 players race to shed their cards on three shared stacks.");

/** What wins this match, in players' words, from its view and options (the match page).
 * @param {Match} match */
export function goal(match) {
  const view = match.view;
  const config = match.config || {};
  const finish = view.options?.two_player_finish_at ?? config.two_player_finish_at ?? 1;
  const target = view.players === 2 && finish > 0
    ? interpolate(ngettext("Be the first down to %(n)s card (Set and discard together).",
      "Be the first down to %(n)s cards (Set and discard together).", finish), { n: finish })
    : gettext("Be the first to get rid of all your cards (Set and discard).");
  const budget = view.options?.budget ?? 3;
  const pace = view.mode === "race" ? gettext("Race: everyone plays at once, there are no turns.")
    : `${interpolate(ngettext("Each turn: %(n)s hand action (flip, return or recycle); placing "
      + "is free.", "Each turn: %(n)s hand actions (flip, return or recycle); placing is free.",
    budget), { n: budget })} ${interpolate(ngettext("If nobody places for %(n)s round in a row, "
      + "the fewest cards left wins.", "If nobody places for %(n)s rounds in a row, the fewest "
      + "cards left wins.", view.stall_cap), { n: view.stall_cap })}`;
  return `${target} ${pace} ${gettext("If no card can ever be placed again, the fewest cards left wins.")}`;
}

// How a match ended, per outcome reason, as a sentence (the after-match section).
export const OUTCOME_WORDS = {
  finished: gettext("The winner got down to the target number of cards first."),
  deadlock: gettext("No card could be placed any more: the fewest cards left win."),
  stalemate: gettext("Nobody placed a card for too long: the fewest cards left win."),
};

/** @param {Card} card */
function cardName(card) {
  return interpolate(gettext("%(frame)s frame, %(circle)s circle (Set %(set)s)"), {
    frame: COLOURS[card.frame].frame, circle: COLOURS[card.circle].circle, set: card.set + 1,
  });
}

/** @param {Card | null | undefined} cardData @param {{small?: boolean, label?: boolean}} [options] */
export function card(cardData, { small = false, label = true } = {}) {
  if (!cardData) {
    return h("span", { class: ["nimble-card", "none", small && "small"] },
      h("span", { class: "sr-only" }, gettext("no card")), "—");
  }
  const { frame, circle } = cardData;
  return h("span", {
    class: ["nimble-card", `f-${frame}`, small && "small"],
    role: label ? "img" : null, "aria-label": label ? cardName(cardData) : null,
    "aria-hidden": label ? null : "true",
    title: cardName(cardData),
  },
  h("span", { class: "frame-mark" }, COLOURS[frame].mark),
  h("span", { class: "frame-mark end" }, COLOURS[frame].mark),
  h("span", { class: `circle k-${circle}` }, COLOURS[circle].mark),
  h("span", { class: "set-mark" }, `S${cardData.set + 1}`));
}

/** @param {Card | null | undefined} c */
function cardText(c) {
  return c ? interpolate(gettext("a %(frame)s card with a %(circle)s circle"),
    { frame: COLOURS[c.frame].frame, circle: COLOURS[c.circle].circle }) : gettext("nothing");
}

/** @param {any} entry */
export function describe(entry) {
  const parts = [];
  for (const event of entry.events || []) {
    switch (event.type) {
      case "flipped":
        parts.push(interpolate(gettext("flipped %(card)s"), { card: cardText(event.card) }));
        break;
      case "placed":
        parts.push(interpolate(gettext("placed %(card)s on stack %(stack)s"),
          { card: cardText(event.card), stack: event.stack + 1 }));
        break;
      case "returned": parts.push(gettext("put a card back under the Set")); break;
      case "recycled":
        parts.push(interpolate(ngettext("turned the discard over into the Set (%(n)s card)",
          "turned the discard over into the Set (%(n)s cards)", event.count), { n: event.count }));
        break;
      case "turn_ended":
        parts.push(event.auto ? gettext("turn ended (no action left)") : gettext("ended the turn"));
        break;
      case "forfeited": parts.push(gettext("left the match")); break;
      case "match_ended": parts.push(gettext("the match ended")); break;
      default: break;
    }
  }
  return parts.join("; ") || entry.kind;
}

// Race mode has no turns: a move must not fail because another seat moved meanwhile.
/** @param {Match} match */
export function simultaneous(match) {
  return match.view?.mode === "race";
}

// A race has no turns: no "Your turn", and its deadline is the stall guard's.
/** @param {Match} match */
export function statusText(match) {
  if (match.view?.mode !== "race") return null;
  const seated = match.your_seat !== null && match.your_seat !== undefined;
  const playing = seated && match.to_act.includes(/** @type {number} */ (match.your_seat));
  return {
    text: playing ? gettext("Race: play whenever you like, everyone at once")
      : gettext("Race: everyone plays at once"),
    go: playing,
    deadline: gettext("ends as a stalemate unless someone places"),
  };
}

/** The stack the newest move placed a card on (null: none).
 * @param {any} entry @returns {number | null} */
function lastPlaced(entry) {
  const placed = (entry?.events || []).findLast((/** @type {any} */ event) => event.type === "placed");
  return placed ? placed.stack : null;
}

/** @type {Object<string, string>} */
const ACTION_KEYS = { f: "flip", r: "return", c: "recycle", e: "end_turn" };

/** @param {HTMLElement} container @param {Match} match @param {GameUi} ui */
export function render(container, match, ui) {
  const view = match.view;
  const you = view.you;
  const legal = Array.isArray(match.legal_moves) ? match.legal_moves : [];
  const canAct = legal.length > 0 && !ui.busy;
  const isLegal = (/** @type {{action: string, stack?: number}} */ move) => legal.some((
    /** @type {any} */ m) => m.action === move.action
    && (m.stack ?? null) === (move.stack ?? null));
  const mine = you !== null && you !== undefined ? view.seats[you] : null;
  const name = (/** @type {number} */ seat) => (seat === you ? gettext("You") : ui.seatName(seat));

  /** @type {(move: {action: string}, text: string, keyHint: string) => HTMLButtonElement} */
  const actionButton = (move, text, keyHint) => h("button", {
    type: "button", class: ["action", isLegal(move) && "legal"],
    disabled: !canAct, "aria-keyshortcuts": keyHint,
    dataset: { action: move.action, legal: isLegal(move) ? "true" : "false", focus: `m-${move.action}` },
    onClick: () => ui.submit(move),
  }, text, keyHint ? h("kbd", { "aria-hidden": "true" }, keyHint) : null);

  const last = lastPlaced(ui.lastEntry);
  // A stack's name is its own words (no aria-label): "Stack 1, red frame, ... 5 cards, fits".
  const stacks = h("div", { class: "stacks", role: "group", "aria-label": gettext("Target stacks") },
    view.stacks.map((/** @type {any} */ stack, /** @type {number} */ index) => {
      const move = { action: "place", stack: index };
      const fits = isLegal(move);
      return h("button", {
        type: "button", class: ["stack", fits && "legal", last === index && "last"],
        disabled: !canAct || !mine?.discard_top,
        dataset: { action: "place", stack: index, legal: fits ? "true" : "false", focus: `m-s${index}`,
          last: last === index ? "true" : null },
        "aria-keyshortcuts": String(index + 1),
        onClick: () => ui.submit(move),
      },
      h("span", { class: "stack-title" }, interpolate(gettext("Stack %(n)s"), { n: index + 1 })),
      h("span", { class: "sr-only" }, `, ${stack.top ? cardName(stack.top) : gettext("empty")}, `),
      card(stack.top, { label: false }),
      h("span", { class: "muted" }, interpolate(ngettext("%(n)s card", "%(n)s cards", stack.height),
        { n: stack.height })),
      last === index ? h("span", { class: "last-tag" }, gettext("last move")) : null,
      fits ? h("span", { class: "fits" }, gettext("fits ✓")) : null);
    }));

  let me = null;
  if (mine) {
    const budget = view.budget_left;
    me = h("section", { class: "nimble-me", "aria-labelledby": "nimble-me-h" },
      h("h2", { id: "nimble-me-h" }, gettext("Your piles")),
      h("div", { class: "piles" },
        h("div", { class: "pile" },
          h("span", { class: "pile-title" }, gettext("Set (face down)")),
          h("span", {
            class: "card-back", role: "img",
            "aria-label": interpolate(ngettext("%(n)s card face down", "%(n)s cards face down",
              mine.set_count), { n: mine.set_count }),
          }, String(mine.set_count)),
          actionButton({ action: "flip" }, `${gettext("Flip")} `, "F")),
        h("div", { class: "pile" },
          h("span", { class: "pile-title" },
            interpolate(gettext("Discard (%(n)s)"), { n: mine.discard_count })),
          card(mine.discard_top),
          h("div", { class: "row" },
            actionButton({ action: "return" }, `${gettext("Return")} `, "R"),
            actionButton({ action: "recycle" }, `${gettext("Recycle")} `, "C")))),
      view.mode === "turns" ? h("p", { class: "budget" },
        gettext("Hand actions left this turn:"), " ",
        budget === null || budget === undefined ? "—"
          : h("span", { class: "pips-inline", "aria-label": String(budget) },
            "●".repeat(budget), h("span", { class: "spent" }, "○".repeat(Math.max(0, (view.options?.budget ?? 3) - budget)))),
        " ", actionButton({ action: "end_turn" }, `${gettext("End turn")} `, "E")) : null,
      h("p", { class: "muted" }, interpolate(ngettext("%(n)s card left.", "%(n)s cards left.",
        mine.cards_left), { n: mine.cards_left }), " ",
      view.mode === "turns" ? gettext("Placing is free; flip, return and recycle cost one action each.")
        : gettext("Race: act whenever you like.")));
  }

  const table = h("table", { class: "list nimble-seats" },
    h("caption", null, gettext("Players")),
    h("thead", null, h("tr", null,
      [gettext("Player"), gettext("Cards left"), gettext("Set"), gettext("Discard"),
        gettext("Discard top")].map((t) => h("th", { scope: "col" }, t)),
      h("th", { scope: "col" }, h("span", { class: "sr-only" }, gettext("Playing"))))),
    h("tbody", null, view.seats.map((/** @type {any} */ seat) => h("tr", {
      class: [seat.seat === you && "mine", view.to_move.includes(seat.seat) && "acting"],
    },
    h("th", { scope: "row" }, name(seat.seat)),
    h("td", null, String(seat.cards_left)),
    h("td", null, String(seat.set_count)),
    h("td", null, String(seat.discard_count)),
    h("td", null, card(seat.discard_top, { small: true })),
    h("td", null, seat.forfeited ? gettext("left")
      : view.to_move.includes(seat.seat) ? gettext("▶ to act") : "")))));

  const info = h("p", { class: "muted" },
    view.mode === "turns"
      ? interpolate(gettext("Turn mode · round %(round)s · idle rounds %(idle)s of %(cap)s"),
        { round: view.round, idle: view.idle_rounds, cap: view.stall_cap })
      : gettext("Race mode: everyone acts at once"),
    view.players === 2 ? ` · ${interpolate(ngettext("finish at %(n)s card left",
      "finish at %(n)s cards left", view.options?.finish_at ?? 1), { n: view.options?.finish_at ?? 1 })}` : "");

  container.append(h("div", { class: "nimble" },
    h("div", { class: "nimble-main" }, stacks, me, info),
    // The table scrolls sideways on a phone where its headers' words are longer than English.
    h("div", { class: "nimble-side" }, h("div", {
      class: "table-scroll", tabindex: "0", role: "region", "aria-label": gettext("Players"),
    }, table),
      h("p", { class: "legend" },
        gettext("A card shows its frame colour (corner letters) and its circle colour (centre "
          + "letters). Place your discard top on a stack whose top circle matches its frame. "
          + "S1-S4 is the Set the card belongs to.")))));

  container.onkeydown = (event) => {
    if (!canAct || /** @type {Element} */ (event.target).closest("input, select, textarea")) return;
    const k = event.key.toLowerCase();
    if (ACTION_KEYS[k]) {
      event.preventDefault();
      ui.submit({ action: ACTION_KEYS[k] });
    } else if (["1", "2", "3"].includes(k)) {
      event.preventDefault();
      ui.submit({ action: "place", stack: Number(k) - 1 });
    }
  };
}

// ---------------------------------------------------------------- plans

/** A plan's action in words (a flip the other seat makes names the card it shows).
 * @param {any} move */
function actionWords(move) {
  switch (move?.action) {
    case "flip":
      return move.card ? interpolate(gettext("flipped %(card)s"), { card: cardText(move.card) })
        : gettext("Flip");
    case "place": return interpolate(gettext("place on stack %(n)s"), { n: move.stack + 1 });
    case "return": return gettext("Return");
    case "recycle": return gettext("Recycle");
    case "end_turn": return gettext("End turn");
    default: return JSON.stringify(move);
  }
}

/** @type {{action: string, stack?: number}[]} */
const PLAIN_ACTIONS = [{ action: "place", stack: 0 }, { action: "place", stack: 1 },
  { action: "place", stack: 2 }, { action: "return" }, { action: "recycle" },
  { action: "end_turn" }];

/** The plan's picker: the other seat's actions as the player will see them (a flip by the card
 * it shows), the player's own; the server checks each when the plan is saved.
 * @param {HTMLElement} container @param {import("../catalog.js").PlanPick} pick */
function actionPicker(container, pick) {
  const other = 1 - Number(pick.match.your_seat);
  const state = pick.state;
  state.frame ||= "red";
  // A card's circle is never its frame's colour.
  if (!state.circle || state.circle === state.frame) {
    state.circle = Object.keys(COLOURS).find((colour) => colour !== state.frame);
  }
  /** @param {boolean} mine */
  const buttons = (mine) => PLAIN_ACTIONS.map((move) => h("button", {
    type: "button", class: "action",
    dataset: { planAction: move.action, stack: move.stack ?? null, side: mine ? "mine" : "theirs",
      focus: `plan-${mine ? "mine" : "theirs"}-${move.action}-${move.stack ?? ""}` },
    onClick: () => pick.add(move, mine),
  }, actionWords(move)));
  /** @param {string} name @param {string} label @param {"frame" | "circle"} part */
  const colourSelect = (name, label, part) => {
    const colours = Object.entries(COLOURS).filter(([value]) => part === "frame"
      || value !== state.frame);
    const select = h("select", { id: `plan-flip-${name}`, dataset: { focus: `plan-flip-${name}` } },
      colours.map(([value, words]) => h("option", { value, selected: state[name] === value },
        words[part])));
    select.addEventListener("change", () => {
      state[name] = select.value;
      if (part === "frame") pick.rerender();
    });
    return h("span", { class: "field" }, h("label", { for: `plan-flip-${name}` }, label), select);
  };
  if (pick.theirs) {
    container.append(h("fieldset", { class: "plan-side", id: "plan-theirs" },
      h("legend", null, interpolate(gettext("To move here: %(name)s"),
        { name: pick.seatName(other) })),
      h("div", { class: "row" }, buttons(false)),
      h("div", { class: "row" },
        colourSelect("frame", gettext("Frame colour"), "frame"),
        colourSelect("circle", gettext("Circle colour"), "circle"),
        h("button", { type: "button", class: "action", dataset: { planAction: "flip", side: "theirs" },
          onClick: () => pick.add({ action: "flip",
            card: { set: other, frame: state.frame, circle: state.circle } }, false) },
        gettext("Flip")))));
  }
  if (pick.mine) {
    container.append(h("fieldset", { class: "plan-side", id: "plan-mine" },
      h("legend", null, interpolate(gettext("To move here: %(name)s"), { name: gettext("you") })),
      h("div", { class: "row" },
        h("button", { type: "button", class: "action", dataset: { planAction: "flip", side: "mine" },
          onClick: () => pick.add({ action: "flip" }, true) }, gettext("Flip")),
        buttons(true))));
  }
}

// Nimble's part in plans (plans.js): two players taking turns; either side may act after a
// line (a turn holds several actions), and the server checks the plan when it is saved.
/** @type {import("../catalog.js").GamePlanner} */
export const planner = {
  applies: (match) => match.view?.mode === "turns" && match.players === 2,
  describe: actionWords,
  pick: actionPicker,
};
