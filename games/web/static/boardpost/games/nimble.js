// Nimble: three target stacks, my Set and discard, every seat's counts.
// Moves: {"action": "flip" | "return" | "recycle" | "end_turn"} or {"action": "place", "stack": k};
// legal_moves: the list of legal move objects. A game module: the interface is described in
// ../catalog.js.

import { h } from "../dom.js";

// Card colours with a letter each, so no colour relies on hue alone (as in the board pictures).
export const COLOURS = {
  red: { mark: "R", name: "red" },
  orange: { mark: "O", name: "orange" },
  beige: { mark: "B", name: "beige" },
  light_blue: { mark: "L", name: "light blue" },
  green: { mark: "G", name: "green" },
  purple: { mark: "P", name: "purple" },
};

export const RULES = {
  "nimble.set_empty": "Your Set is empty: take your discard back (recycle) first.",
  "nimble.discard_empty": "Your discard pile is empty: flip a card first.",
  "nimble.frame_mismatch":
    "A card goes on a stack only when its frame colour equals the circle colour of the stack's top card.",
  "nimble.set_not_empty": "You can recycle your discard only once your Set is empty.",
  "nimble.budget_spent": "No hand actions (flip, return, recycle) are left this turn: place or end the turn.",
  "nimble.not_turn_mode": "There are no turns to end in race mode.",
};

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

// One line about the game for the rules index.
export const SUMMARY = "2-4 players race to shed their cards on three shared stacks.";

/** What wins this match, in players' words, from its view and options (the match page). */
export function goal(match) {
  const view = match.view;
  const config = match.config || {};
  const finish = view.options?.two_player_finish_at ?? config.two_player_finish_at ?? 1;
  const target = view.players === 2 && finish > 0
    ? `Be the first down to ${plural(finish, "card")} (Set and discard together).`
    : "Be the first to get rid of all your cards (Set and discard).";
  const pace = view.mode === "race" ? " Race: everyone plays at once, there are no turns."
    : ` Each turn: ${plural(view.options?.budget ?? 3, "hand action")} (flip, return or `
      + `recycle); placing is free. If nobody places for ${view.stall_cap} rounds in a row, `
      + "the fewest cards left wins.";
  return target + pace + " If no card can ever be placed again, the fewest cards left wins.";
}

// How a match ended, per outcome reason, as a sentence (the after-match section).
export const OUTCOME_WORDS = {
  finished: "The winner got down to the target number of cards first.",
  deadlock: "No card could be placed any more: the fewest cards left win.",
  stalemate: "Nobody placed a card for too long: the fewest cards left win.",
};

export const REASONS = {
  deadlock: "deadlock: no placement was possible any more",
  stalemate: "stalemate: nobody placed for too long",
};

function cardName(card) {
  return `${COLOURS[card.frame].name} frame, ${COLOURS[card.circle].name} circle (Set ${card.set + 1})`;
}

export function card(cardData, { small = false, label = true } = {}) {
  if (!cardData) {
    return h("span", { class: ["nimble-card", "none", small && "small"] },
      h("span", { class: "sr-only" }, "no card"), "—");
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

function cardText(c) {
  return c ? `a ${COLOURS[c.frame].name} card with a ${COLOURS[c.circle].name} circle` : "nothing";
}

export function describe(entry) {
  const parts = [];
  for (const event of entry.events || []) {
    switch (event.type) {
      case "flipped": parts.push(`flipped ${cardText(event.card)}`); break;
      case "placed": parts.push(`placed ${cardText(event.card)} on stack ${event.stack + 1}`); break;
      case "returned": parts.push("put a card back under the Set"); break;
      case "recycled": parts.push(`turned the discard over into the Set (${event.count} cards)`); break;
      case "turn_ended": parts.push(event.auto ? "turn ended (no action left)" : "ended the turn"); break;
      case "forfeited": parts.push("left the match"); break;
      case "match_ended": parts.push("the match ended"); break;
      default: break;
    }
  }
  return parts.join("; ") || entry.kind;
}

// Race mode has no turns: a move must not fail because another seat moved meanwhile.
export function simultaneous(match) {
  return match.view?.mode === "race";
}

// A race has no turns: no "Your turn", and its deadline is the stall guard's.
export function statusText(match) {
  if (match.view?.mode !== "race") return null;
  const seated = match.your_seat !== null && match.your_seat !== undefined;
  const playing = seated && match.to_act.includes(match.your_seat);
  return {
    text: playing ? "Race: play whenever you like, everyone at once" : "Race: everyone plays at once",
    go: playing,
    deadline: "ends as a stalemate unless someone places",
  };
}

/** The stack the newest move placed a card on (null: none). */
function lastPlaced(entry) {
  const placed = (entry?.events || []).findLast((event) => event.type === "placed");
  return placed ? placed.stack : null;
}

const ACTION_KEYS = { f: "flip", r: "return", c: "recycle", e: "end_turn" };

export function render(container, match, ui) {
  const view = match.view;
  const you = view.you;
  const legal = Array.isArray(match.legal_moves) ? match.legal_moves : [];
  const canAct = legal.length > 0 && !ui.busy;
  const isLegal = (move) => legal.some((m) => m.action === move.action
    && (m.stack ?? null) === (move.stack ?? null));
  const mine = you !== null && you !== undefined ? view.seats[you] : null;
  const name = (seat) => (seat === you ? "You" : ui.seatName(seat));

  const actionButton = (move, text, keyHint) => h("button", {
    type: "button", class: ["action", isLegal(move) && "legal"],
    disabled: !canAct, "aria-keyshortcuts": keyHint,
    dataset: { action: move.action, legal: isLegal(move) ? "true" : "false", focus: `m-${move.action}` },
    onClick: () => ui.submit(move),
  }, text, keyHint ? h("kbd", { "aria-hidden": "true" }, keyHint) : null);

  const last = lastPlaced(ui.lastEntry);
  // A stack's name is its own words (no aria-label): "Stack 1, red frame, ... 5 cards, fits".
  const stacks = h("div", { class: "stacks", role: "group", "aria-label": "Target stacks" },
    view.stacks.map((stack, index) => {
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
      h("span", { class: "stack-title" }, `Stack ${index + 1}`),
      h("span", { class: "sr-only" }, `, ${stack.top ? cardName(stack.top) : "empty"}, `),
      card(stack.top, { label: false }),
      h("span", { class: "muted" }, `${stack.height} card${stack.height === 1 ? "" : "s"}`),
      last === index ? h("span", { class: "last-tag" }, "last move") : null,
      fits ? h("span", { class: "fits" }, "fits ✓") : null);
    }));

  let me = null;
  if (mine) {
    const budget = view.budget_left;
    me = h("section", { class: "nimble-me", "aria-labelledby": "nimble-me-h" },
      h("h2", { id: "nimble-me-h" }, "Your piles"),
      h("div", { class: "piles" },
        h("div", { class: "pile" },
          h("span", { class: "pile-title" }, "Set (face down)"),
          h("span", { class: "card-back", role: "img", "aria-label": `${mine.set_count} cards face down` },
            String(mine.set_count)),
          actionButton({ action: "flip" }, "Flip ", "F")),
        h("div", { class: "pile" },
          h("span", { class: "pile-title" }, `Discard (${mine.discard_count})`),
          card(mine.discard_top),
          h("div", { class: "row" },
            actionButton({ action: "return" }, "Return ", "R"),
            actionButton({ action: "recycle" }, "Recycle ", "C")))),
      view.mode === "turns" ? h("p", { class: "budget" },
        "Hand actions left this turn: ",
        budget === null || budget === undefined ? "—"
          : h("span", { class: "pips-inline", "aria-label": String(budget) },
            "●".repeat(budget), h("span", { class: "spent" }, "○".repeat(Math.max(0, (view.options?.budget ?? 3) - budget)))),
        " ", actionButton({ action: "end_turn" }, "End turn ", "E")) : null,
      h("p", { class: "muted" }, `${mine.cards_left} cards left. `,
        view.mode === "turns" ? "Placing is free; flip, return and recycle cost one action each."
          : "Race: act whenever you like."));
  }

  const table = h("table", { class: "list nimble-seats" },
    h("caption", null, "Players"),
    h("thead", null, h("tr", null,
      ["Player", "Cards left", "Set", "Discard", "Discard top"].map((t) => h("th", { scope: "col" }, t)),
      h("th", { scope: "col" }, h("span", { class: "sr-only" }, "Playing")))),
    h("tbody", null, view.seats.map((seat) => h("tr", {
      class: [seat.seat === you && "mine", view.to_move.includes(seat.seat) && "acting"],
    },
    h("th", { scope: "row" }, name(seat.seat)),
    h("td", null, String(seat.cards_left)),
    h("td", null, String(seat.set_count)),
    h("td", null, String(seat.discard_count)),
    h("td", null, card(seat.discard_top, { small: true })),
    h("td", null, seat.forfeited ? "left" : view.to_move.includes(seat.seat) ? "▶ to act" : "")))));

  const info = h("p", { class: "muted" },
    view.mode === "turns"
      ? `Turn mode · round ${view.round} · idle rounds ${view.idle_rounds} of ${view.stall_cap}`
      : "Race mode: everyone acts at once",
    view.players === 2 ? ` · finish at ${view.options?.finish_at ?? 1} card(s) left` : "");

  container.append(h("div", { class: "nimble" },
    h("div", { class: "nimble-main" }, stacks, me, info),
    h("div", { class: "nimble-side" }, table,
      h("p", { class: "legend" },
        "A card shows its frame colour (corner letters) and its circle colour (centre letters). "
        + "Place your discard top on a stack whose top circle matches its frame. S1-S4 is the Set "
        + "the card belongs to."))));

  container.onkeydown = (event) => {
    if (!canAct || event.target.closest("input, select, textarea")) return;
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
