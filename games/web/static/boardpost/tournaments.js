// @ts-check
// Tournaments in words, for the tournament pages and the player page's history: formats,
// statuses, why a player is out, the tie-breaks explained, and a tournament's line in a list.

import { gameName } from "./catalog.js";
import { h, link, withTime } from "./dom.js";
import { gettext, interpolate, ngettext, pgettext } from "./i18n.js";

/**
 * A tournament in a list (GET /api/tournaments, `summary` of a detail).
 * @typedef {{id: string, name: string, game: string, format: string, status: string,
 *   official: boolean, players_per_match: number, starts_at: string, entrants: number,
 *   max_players: number | null, rounds: number | null, current_round: number, rated: boolean,
 *   created_by: string, entered: boolean}} TournamentSummary
 */

/** @param {string} format */
export function formatText(format) {
  return {
    swiss: gettext("Swiss"),
    round_robin: gettext("Round robin"),
    ladder: gettext("Ladder"),
  }[format] || format;
}

/** @param {string} status */
export function statusText(status) {
  return {
    entry: pgettext("tournament", "taking entries"),
    running: pgettext("tournament", "running"),
    finished: pgettext("tournament", "finished"),
    cancelled: pgettext("tournament", "cancelled"),
  }[status] || status;
}

/** Why a player is out of a tournament. @param {string | null | undefined} reason */
export function withdrawnText(reason) {
  if (!reason) return "";
  return {
    withdrew: gettext("withdrew"),
    no_show: gettext("withdrawn: did not move in a match"),
    disqualified: gettext("disqualified"),
  }[reason] || reason;
}

/** A tie-break's short name (a standings column) and what it counts.
 * @param {string} name @returns {[string, string]} */
export function tieBreakWords(name) {
  /** @type {Object<string, [string, string]>} */
  const words = {
    buchholz: [gettext("Buchholz"),
      gettext("The points of every opponent met, once per meeting (a bye adds nothing).")],
    sonneborn_berger: [gettext("Sonneborn-Berger"),
      gettext("For each meeting, the opponent's points times the result against them: all "
        + "of them for placing above, half for a draw, none for placing below.")],
    head_to_head: [gettext("Head-to-head"),
      gettext("The results among the players level on points only.")],
  };
  return words[name] || [name, ""];
}

/** A score: "1", "2.5". @param {number} points */
export function pointsText(points) {
  return String(Math.round(points * 100) / 100);
}

/** The facts of a tournament on one line: game, format, table size, entrants, start.
 * @param {TournamentSummary} t */
export function summaryFacts(t) {
  const entrants = t.max_players
    ? interpolate(gettext("%(n)s of %(max)s players"), { n: t.entrants, max: t.max_players })
    : interpolate(ngettext("%(n)s player", "%(n)s players", t.entrants), { n: t.entrants });
  return [
    gameName(t.game), " · ", formatText(t.format),
    t.players_per_match > 2 ? ` · ${interpolate(gettext("tables of %(n)s"),
      { n: t.players_per_match })}` : "",
    t.rounds ? ` · ${interpolate(ngettext("%(n)s round", "%(n)s rounds", t.rounds),
      { n: t.rounds })}` : "",
    ` · ${entrants} · `, t.rated ? gettext("rated") : gettext("casual"), " · ",
    t.status === "entry" ? withTime(gettext("starts %(time)s"), t.starts_at) : statusText(t.status),
  ];
}

/** A tournament as a list item: its name linked, tags, and its facts.
 * @param {TournamentSummary} t @param {...(Node | string)} extra */
export function summaryItem(t, ...extra) {
  return h("li", { dataset: { tournament: t.id } },
    link(`/tournament/${t.id}`, t.name),
    t.official ? h("span", { class: "tag rank" }, gettext("official")) : null,
    t.entered ? h("span", { class: "tag you" }, gettext("entered")) : null,
    h("br"), h("small", null, summaryFacts(t)), ...extra);
}
