// @ts-check
// One tournament (GET /api/tournaments/{id}): its settings, the caller's entry with join,
// leave and withdraw, their matches and next match, the standings with the tie-breaks
// explained, the crosstable, the rounds with their pairings, and a ladder's challenges with
// a Challenge button on each rung the caller may reach. The page reads the tournament again
// when the player's feed says something about it.

import { api, session } from "../api.js";
import { timeControlText } from "../clocks.js";
import { clear, h, link, put, withTime } from "../dom.js";
import { gettext, interpolate, ngettext, pgettext } from "../i18n.js";
import { ordinal } from "../matchinfo.js";
import {
  pointsText, statusText, summaryFacts, tieBreakWords, withdrawnText,
} from "../tournaments.js";

/** @typedef {import("../app.js").PageContext} PageContext */
/** @typedef {import("../tournaments.js").TournamentSummary} TournamentSummary */
/**
 * A table of a round, a bye or a ladder challenge.
 * @typedef {{id: number, players: string[], match: string | null, bye_points: number | null,
 *   ranks: number[] | null, void: boolean, ended_at: string | null,
 *   expires_at: string | null}} Pairing
 */
/**
 * A line of the standings.
 * @typedef {{rank: number, player: {username: string, is_bot: boolean}, points: number,
 *   buchholz: number, sonneborn_berger: number, head_to_head: number, played: number,
 *   byes: number, withdrawn: string | null, position: number | null}} Standing
 */
/**
 * @typedef {{summary: TournamentSummary, config: Object<string, unknown>,
 *   time_control: any, plans_allowed: boolean, bots_allowed: boolean, min_players: number,
 *   min_rating: number | null, min_games: number | null, round_days: number | null,
 *   placing_points: number[], challenge_reach: number | null, challenge_days: number | null,
 *   tie_breaks: string[], standings: Standing[],
 *   crosstable: {player: string, meetings: {round: number, opponent: string | null,
 *     result: number}[]}[],
 *   rounds_played: {number: number, started_at: string, ends_at: string | null,
 *     finished_at: string | null, pairings: Pairing[]}[],
 *   challenges: Pairing[],
 *   me: {withdrawn: string | null, late: boolean, position: number | null,
 *     final_rank: number | null, next_match: string | null} | null,
 *   can_join: boolean}} Detail
 */

/** @param {string} username */
const playerLink = (username) => link(`/player/${encodeURIComponent(username)}`, username);

/** A pairing's result in words: who placed where, a bye, running or called off.
 * @param {Pairing} pairing */
function pairingResult(pairing) {
  if (pairing.players.length === 1) {
    return interpolate(gettext("bye (%(points)s)"), { points: pointsText(pairing.bye_points ?? 0) });
  }
  if (pairing.void) return gettext("counts for nobody");
  if (!pairing.ranks) return gettext("playing");
  const ranks = pairing.ranks;
  if (pairing.players.length === 2) {
    if (ranks[0] === ranks[1]) return gettext("draw");
    return interpolate(gettext("%(name)s won"), { name: pairing.players[ranks[0] < ranks[1] ? 0 : 1] });
  }
  return pairing.players.map((name, i) => `${ordinal(ranks[i] + 1)} ${name}`).join(", ");
}

/** @param {Pairing} pairing */
function pairingItem(pairing) {
  const mine = pairing.players.includes(/** @type {string} */ (session.username));
  return h("li", { class: mine ? "mine" : null, dataset: { pairing: pairing.id } },
    pairing.players.map((name, i) => [i ? " – " : "", playerLink(name)]), " · ",
    pairingResult(pairing),
    pairing.match ? [" · ", link(`/match/${pairing.match}`, pairing.ranks
      ? gettext("replay") : gettext("match"))] : null,
    pairing.expires_at && !pairing.ended_at
      ? [" · ", withTime(gettext("to be answered %(time)s"), pairing.expires_at)] : null);
}

/** The settings beyond the summary: clock, rounds, entry rules.
 * @param {Detail} t */
function settingsList(t) {
  const items = [
    timeControlText(t.time_control),
    t.time_control.vacation_allowed === false ? gettext("vacations do not stop the clock")
      : gettext("vacations stop the clock"),
    t.plans_allowed ? gettext("plans allowed") : gettext("no plans"),
    t.round_days ? interpolate(ngettext("a round lasts at most %(n)s day",
      "a round lasts at most %(n)s days", t.round_days), { n: t.round_days })
      : t.summary.format === "ladder" ? null : gettext("a round ends when all its matches are over"),
    t.min_rating ? interpolate(gettext("rating at least %(n)s"), { n: t.min_rating }) : null,
    t.min_games ? interpolate(gettext("at least %(n)s rated games"), { n: t.min_games }) : null,
    interpolate(gettext("at least %(n)s players"), { n: t.min_players }),
    t.summary.players_per_match > 2 ? interpolate(gettext("points per place: %(points)s"),
      { points: t.placing_points.map(pointsText).join(" / ") }) : null,
    t.summary.format === "ladder" ? interpolate(gettext("challenge up to %(n)s places up, "
      + "answered within %(days)s days"), { n: t.challenge_reach ?? 3, days: t.challenge_days ?? 7 })
      : null,
    t.bots_allowed ? gettext("bots allowed") : null,
  ];
  return h("ul", { class: "facts-list" }, items.filter(Boolean).map((text) => h("li", null, text)));
}

/** Which usernames the caller may challenge now on a ladder (none: not a running ladder,
 * not on it, or in a challenge not over). @param {Detail} t @returns {Set<string>} */
function reachable(t) {
  const me = session.username;
  const mine = t.me?.position;
  if (t.summary.format !== "ladder" || t.summary.status !== "running" || !mine || t.me?.withdrawn) {
    return new Set();
  }
  const busy = new Set(t.challenges.filter((c) => !c.ended_at).flatMap((c) => c.players));
  if (busy.has(/** @type {string} */ (me))) return new Set();
  const reach = t.challenge_reach ?? 3;
  return new Set(t.standings.filter((line) => line.position !== null
    && line.position < mine && line.position >= mine - reach && !busy.has(line.player.username))
    .map((line) => line.player.username));
}

/** @param {Detail} t @param {(username: string) => void} challenge */
function standingsTable(t, challenge) {
  const ladder = t.summary.format === "ladder";
  const breaks = t.tie_breaks.map((name) => [name, ...tieBreakWords(name)]);
  const targets = reachable(t);
  const head = [gettext("Place"), gettext("Player"), ...(ladder ? [] : [gettext("Points"),
    ...breaks.map(([, short]) => short), gettext("Played")])];
  const table = h("table", { class: "list standings", id: "standings" },
    h("caption", null, gettext("Standings")),
    h("thead", null, h("tr", null, head.map((text) => h("th", { scope: "col" }, text)),
      targets.size ? h("th", { scope: "col" }, h("span", { class: "sr-only" }, gettext("Challenge")))
        : null)),
    h("tbody", null, t.standings.length ? t.standings.map((line) => {
      const name = line.player.username;
      return h("tr", { class: name === session.username ? "mine" : null, dataset: { player: name } },
        h("td", null, String(ladder ? line.position ?? "" : line.rank)),
        h("th", { scope: "row" }, playerLink(name),
          line.player.is_bot ? h("span", { class: "tag" }, gettext("bot")) : null,
          line.withdrawn ? h("span", { class: "tag away" }, withdrawnText(line.withdrawn)) : null),
        ladder ? null : [
          h("td", null, pointsText(line.points)),
          breaks.map(([key]) => h("td", null, pointsText(
            /** @type {number} */ (line[/** @type {"buchholz"} */ (key)])))),
          h("td", null, line.byes ? interpolate(gettext("%(played)s (%(byes)s bye)"),
            { played: line.played, byes: line.byes }) : String(line.played))],
        targets.size ? h("td", null, targets.has(name) ? h("button", { type: "button",
          class: "secondary", onClick: () => challenge(name),
          "aria-label": interpolate(gettext("Challenge %(name)s"), { name }) },
        gettext("Challenge")) : null) : null);
    }) : h("tr", null, h("td", { colspan: head.length, class: "muted" },
      gettext("Nobody has entered yet.")))));
  const explained = ladder
    ? h("p", { class: "muted" }, gettext("The ladder's order, top first: a challenger who wins "
      + "takes the place of the player they beat."))
    : h("dl", { class: "tie-breaks" },
      h("dt", null, gettext("Points")),
      h("dd", null, t.summary.players_per_match > 2
        ? gettext("What each table gave by place (ties share), and byes.")
        : gettext("1 a win, ½ a draw, and byes.")),
      breaks.map(([, short, long]) => [h("dt", null, short), h("dd", null, long)]),
      h("dd", null, gettext("Players level on points and every tie-break share a place.")));
  return [h("div", { class: "scroll-box", tabindex: 0, role: "region",
    "aria-label": gettext("Standings") }, table), explained];
}

/** The crosstable: each player's meetings, round by round, in a box that scrolls on its own.
 * @param {Detail} t */
function crosstable(t) {
  const rounds = t.rounds_played.map((r) => r.number);
  if (!rounds.length || !t.crosstable.length) return null;
  const table = h("table", { class: "list crosstable", id: "crosstable" },
    h("caption", null, gettext("Crosstable")),
    h("thead", null, h("tr", null, h("th", { scope: "col" }, gettext("Player")),
      rounds.map((n) => h("th", { scope: "col" },
        interpolate(pgettext("tournament", "Round %(n)s"), { n }))))),
    h("tbody", null, t.crosstable.map((row) => h("tr", null,
      h("th", { scope: "row" }, row.player),
      rounds.map((n) => h("td", null, row.meetings.filter((m) => m.round === n).map((m, i) => [
        i ? h("br") : "",
        m.opponent ? interpolate(gettext("%(result)s against %(name)s"),
          { result: pointsText(m.result), name: m.opponent })
          : interpolate(gettext("%(result)s (bye)"), { result: pointsText(m.result) })])))))));
  // The section is no landmark of its own: the box that scrolls is the region.
  return h("section", { class: "card" },
    h("h2", { id: "crosstable-h" }, gettext("Crosstable")),
    h("div", { class: "scroll-box", tabindex: 0, role: "region",
      "aria-label": gettext("Crosstable") }, table));
}

/** @param {Detail} t */
function roundsSection(t) {
  if (t.summary.format === "ladder") {
    return h("section", { class: "card", "aria-labelledby": "challenges-h" },
      h("h2", { id: "challenges-h" }, gettext("Challenges")),
      t.challenges.length ? h("ul", { class: "plain open-list", id: "challenges" },
        t.challenges.map(pairingItem)) : h("p", { class: "muted" }, gettext("No challenge yet.")));
  }
  if (!t.rounds_played.length) return null;
  const latest = t.rounds_played.length - 1;
  return h("section", { class: "card", "aria-labelledby": "rounds-h", id: "rounds" },
    h("h2", { id: "rounds-h" }, gettext("Rounds")),
    [...t.rounds_played].reverse().map((r) => h("details", { open: r.number === latest + 1,
      dataset: { round: r.number } },
    h("summary", null, interpolate(pgettext("tournament", "Round %(n)s"), { n: r.number }), " · ",
      r.finished_at ? gettext("over") : r.ends_at
        ? withTime(gettext("ends %(time)s at the latest"), r.ends_at) : gettext("under way")),
    h("ul", { class: "plain open-list" }, r.pairings.map(pairingItem)))));
}

/** The caller's part: entry state, their matches and the buttons.
 * @param {Detail} t @param {(path: string, body?: unknown) => void} act */
function mySection(t, act) {
  const s = t.summary;
  const me = t.me;
  const buttons = [];
  if (t.can_join) {
    buttons.push(h("button", { type: "button", class: "primary", id: "t-join",
      onClick: () => act("join") }, gettext("Join")));
  }
  if (t.bots_allowed && s.created_by === session.username
      && (s.status === "entry" || (s.status === "running" && s.format !== "round_robin"))) {
    const level = h("select", { id: "t-bot-level", "aria-label": gettext("Bot level") },
      [1, 2, 3, 4].map((n) => h("option", { value: n },
        interpolate(gettext("Level %(level)s"), { level: n }))));
    buttons.push(h("span", { class: "actions" }, level, h("button", { type: "button",
      id: "t-add-bot", onClick: () => act("join", { bot_level: Number(level.value) }) },
    gettext("Enter a bot"))));
  }
  if (me && !me.withdrawn && s.status === "entry") {
    buttons.push(h("button", { type: "button", class: "secondary", id: "t-leave",
      onClick: () => act("leave") }, gettext("Leave")));
  }
  if (me && !me.withdrawn && s.status === "running") {
    buttons.push(h("button", { type: "button", class: "secondary", id: "t-withdraw",
      onClick: () => {
        if (window.confirm(gettext("Withdraw from this tournament? You will not be paired "
          + "again; your matches under way go on."))) act("withdraw");
      } }, gettext("Withdraw")));
  }
  const username = /** @type {string} */ (session.username);
  const mine = [...t.rounds_played.flatMap((r) => r.pairings.map((p) => ({ round: r.number, p }))),
    ...t.challenges.map((p) => ({ round: 0, p }))]
    .filter(({ p }) => p.players.includes(username) && p.players.length > 1);
  const state = !me ? (session.token ? gettext("You have not entered.") : null)
    : me.withdrawn ? interpolate(gettext("You are out: %(why)s."), { why: withdrawnText(me.withdrawn) })
      : me.final_rank ? interpolate(gettext("You finished %(place)s."), { place: ordinal(me.final_rank) })
        : s.status === "entry" ? gettext("You have entered.") : gettext("You are playing.");
  return h("section", { class: "card", "aria-labelledby": "mine-h", id: "my-entry" },
    h("h2", { id: "mine-h" }, gettext("You")),
    state ? h("p", { id: "my-state" }, state, me?.late ? ` ${gettext("(late entry: a half-point bye)")}` : "") : null,
    me?.next_match ? h("p", null, link(`/match/${me.next_match}`, gettext("Your next match"))) : null,
    mine.length ? h("ul", { class: "plain", id: "my-matches" }, mine.map(({ round, p }) =>
      h("li", null, round ? interpolate(pgettext("tournament", "Round %(n)s"), { n: round }) : gettext("Challenge"),
        ": ", p.players.filter((n) => n !== username).join(", "), " · ", pairingResult(p),
        p.match ? [" · ", link(`/match/${p.match}`, gettext("match"))] : null))) : null,
    buttons.length ? h("div", { class: "actions" }, buttons) : null,
    session.token ? null : h("p", null, link(`/signin?next=/tournament/${s.id}`,
      gettext("Sign in to join"))));
}

/**
 * @param {HTMLElement} main @param {string[]} params the id @param {PageContext} ctx
 */
export async function render(main, [id], ctx) {
  const { signal } = ctx;
  const status = h("p", { role: "status", id: "t-status", class: "muted" });
  const body = h("div", { id: "tournament" });

  /** @param {string} path @param {unknown} [payload] */
  async function act(path, payload) {
    status.textContent = "";
    try {
      const answer = await api.post(`/api/tournaments/${id}/${path}`, payload);
      draw(answer);
    } catch (error) {
      status.textContent = /** @type {Error} */ (error).message;
    }
  }

  /** @param {Detail} t */
  function draw(t) {
    const s = t.summary;
    put(clear(body),
      h("h1", null, s.name, s.official ? h("span", { class: "tag rank" }, gettext("official"))
        : null),
      h("p", { class: "muted" }, summaryFacts(s), " · ",
        interpolate(gettext("by %(name)s"), { name: s.created_by })),
      s.status === "entry" ? h("p", null, withTime(gettext("Starts %(time)s."), s.starts_at))
        : s.status === "running" && s.format !== "ladder"
          ? h("p", null, interpolate(gettext("Round %(n)s of %(total)s."),
            { n: s.current_round, total: s.rounds ?? "?" })) : h("p", null, statusText(s.status)),
      settingsList(t),
      mySection(t, act), status,
      h("section", { class: "card" },
        h("h2", { id: "standings-h" }, s.format === "ladder" ? gettext("The ladder")
          : gettext("Standings")),
        standingsTable(t, (name) => act("challenges", { username: name }))),
      crosstable(t), roundsSection(t),
      h("p", null, link("/tournaments", gettext("Every tournament"))));
  }

  const load = async () => draw(await api.get(`/api/tournaments/${id}`, { signal }));
  main.append(body);
  await load();
  const unsubscribe = ctx.feed.subscribe((events) => {
    if (events.some((event) => event.data?.tournament === id)) load().catch(() => {});
  });
  return () => {
    unsubscribe();
  };
}
