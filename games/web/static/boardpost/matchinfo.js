// @ts-check
// Words for a match summary (GET /api/matches, /api/me/inbox): whose turn, who won.

import { gameModule } from "./catalog.js";
import { awayBadge, playerName } from "./dom.js";
import { formatList, gettext, interpolate, interpolateNodes, ngettext, ordinal } from "./i18n.js";

export { ordinal };

/** @typedef {import("./api.js").Match} Match */

// Outcome reasons any game may give, for a result in a list. How a match of a game ended is
// told once, in the game module's OUTCOME_WORDS, by the match page's after-match section.
/** @type {Object<string, string>} */
export const REASONS = {
  forfeit: gettext("forfeit"),
  finished: gettext("finished"),
  solo_finished: gettext("solo game finished"),
  timeout: gettext("time ran out"),
};

/** @param {string | null | undefined} reason @returns {string} */
export function reasonText(reason) {
  return (reason && REASONS[reason]) || "";
}

/**
 * My turn, by the match row's own `to_act` (which always agrees with the view and its legal
 * moves). The seat rows' `is_your_turn` can disagree for a moment when another seat's move
 * commits while the server reads the match (see consistent()).
 * @param {Match} match
 */
export function myTurn(match) {
  const seat = match.your_seat;
  return seat !== null && seat !== undefined && match.to_act.includes(seat)
    && match.status === "active";
}

/** False for a torn answer (is_your_turn from a newer commit than to_act): read it again.
 * @param {Match} match */
export function consistent(match) {
  const seat = match.your_seat;
  if (seat === null || seat === undefined || match.status !== "active") return true;
  return Boolean(match.is_your_turn) === match.to_act.includes(seat);
}

/** @param {Match} match @param {number} index */
export function seatLabel(match, index) {
  const seat = match.seats[index];
  const name = playerName(seat);
  return index === match.your_seat ? interpolate(gettext("%(name)s (you)"), { name }) : name;
}

/** "Your turn", "Waiting for bob", "You won", ...
 * @param {Match} match @returns {string} */
export function statusText(match) {
  if (match.status === "open") {
    if (match.invitation_pending) return gettext("You are invited");
    const open = match.seats.filter((seat) => !seat.player).length;
    const pending = match.seats.filter((seat) => seat.player && !seat.joined).length;
    const parts = [];
    if (open) parts.push(interpolate(ngettext("%(n)s open seat", "%(n)s open seats", open), { n: open }));
    if (pending) {
      parts.push(interpolate(ngettext("%(n)s invitation pending", "%(n)s invitations pending",
        pending), { n: pending }));
    }
    return interpolate(gettext("Waiting for players (%(details)s)"), { details: parts.join(", ") });
  }
  if (match.status === "aborted") return gettext("Aborted");
  if (match.status === "finished") return resultText(match);
  if (myTurn(match)) return gettext("Your turn");
  const waiting = match.to_act.map((index) => seatLabel(match, index));
  if (!waiting.length) return gettext("The server is working (scoring)…");
  return interpolate(gettext("Waiting for %(names)s"), { names: waiting.join(", ") });
}

/** @param {Match} match @returns {string} */
export function resultText(match) {
  const outcome = match.outcome || {};
  /** @type {number[]} */
  const winners = (outcome.winners || match.seats.filter((s) => s.rank === 1).map((s) => s.index));
  const reason = reasonText(outcome.reason);
  const suffix = reason ? interpolate(gettext(" (%(reason)s)"), { reason }) : "";
  if (outcome.title) {
    return interpolate(gettext("Finished: %(title)s"), { title: gettext(outcome.title) }) + suffix;
  }
  if (match.your_seat !== null && match.your_seat !== undefined) {
    const mine = match.seats[match.your_seat];
    if (winners.includes(match.your_seat)) {
      return (winners.length > 1 ? gettext("You shared the win") : gettext("You won")) + suffix;
    }
    if (mine?.rank) {
      return interpolate(gettext("You came %(rank)s"), { rank: ordinal(mine.rank) }) + suffix;
    }
  }
  const names = winners.map((index) => playerName(match.seats[index]));
  return (names.length
    ? interpolate(ngettext("%(names)s won", "%(names)s won", names.length),
      { names: formatList(names) })
    : gettext("Finished")) + suffix;
}

/** Players' names for a list, comma-separated, each followed by the "on vacation" badge
 * where the player is away: the opponents (every seat for a match I only watch), or the seats
 * `which` picks; open seats are named "open seat" unless `which` leaves them out.
 * @param {Match} match
 * @param {(seat: import("./api.js").Seat) => boolean} [which]
 * @returns {(Node | string)[]} */
export function opponentNodes(match, which = (seat) => seat.index !== match.your_seat) {
  return match.seats.filter(which).flatMap((seat, i) => [
    ...(i ? [", "] : []),
    seat.player ? seat.player.username : gettext("open seat"),
    ...(seat.on_vacation ? [awayBadge()] : []),
  ]);
}

// ------------------------------------------------------------------ goals in players' words

/** What wins this match, in players' words, from its view and options (null if unknown): the
 * game module's goal(match) (see catalog.js).
 * @param {Match} match */
export function goalText(match) {
  if (!match.view) return null;
  return gameModule(match.game).goal(match) || null;
}

/** The goal line of the match page, with links to the game's rules and tutorial.
 * @param {Match} match @param {typeof import("./dom.js").h} h
 * @param {typeof import("./dom.js").link} link */
export function goalLine(match, h, link) {
  const text = goalText(match);
  return h("p", { class: "goal-line", id: "goal-line" },
    text ? h("span", null, interpolateNodes(gettext("%(label)s %(goal)s"), {
      label: h("strong", null, gettext("Goal:")), goal: text,
    }), " ") : null,
    link(`/rules/${match.game}`, gettext("Rules")), " · ",
    link(`/tutorial/${match.game}`, gettext("Tutorial")));
}
