// @ts-check
// A player: current rating per game, and each game's rating history as a chart and a table.

import { allPages, api, request, session } from "../api.js";
import { gameName } from "../catalog.js";
import { awayBadge, dateTime, h, link, put } from "../dom.js";
import { formatNumber, gettext, interpolate, ngettext } from "../i18n.js";
import { ordinal } from "../matchinfo.js";
import { ratingChart } from "../chart.js";
import { blocks, people, setBlock, setFollowing } from "../people.js";
import { reportButton } from "../report.js";
import { summaryItem, withdrawnText } from "../tournaments.js";

/** @typedef {import("../app.js").PageContext} PageContext */
/**
 * A player's rating in one game (GET /api/players/{username}).
 * @typedef {{game: string, rating: number, mu: number, sigma: number, games_played: number,
 *   provisional: boolean}} Rating
 */
/**
 * One rated match in a rating's history.
 * @typedef {{at: string, match: string, rank: number, rating_before: number,
 *   rating_after: number}} RatingChange
 */

/** @param {string} username @param {Rating} rating @param {RatingChange[]} changes */
function historySection(username, rating, changes) {
  const points = [...changes].reverse().map((c) => ({ at: c.at, rating: c.rating_after }));
  const first = /** @type {RatingChange} */ (changes.at(-1));
  if (changes.length) points.unshift({ at: first.at, rating: first.rating_before });
  return h("section", { class: "card", "aria-labelledby": `h-${rating.game}`,
    dataset: { game: rating.game } },
  h("h2", { id: `h-${rating.game}` }, gameName(rating.game), " ",
    h("span", { class: "rating-big" }, String(rating.rating)),
    rating.provisional ? h("span", {
      class: "tag", title: gettext("Few games yet: the rating is still uncertain"),
    }, gettext("provisional")) : null),
  h("p", { class: "muted" }, interpolate(ngettext("%(n)s rated match", "%(n)s rated matches",
    rating.games_played), { n: rating.games_played }),
  ` · μ ${formatNumber(rating.mu, { minimumFractionDigits: 2, maximumFractionDigits: 2 })}, `
    + `σ ${formatNumber(rating.sigma, { minimumFractionDigits: 2, maximumFractionDigits: 2 })} · `,
  link(`/leaderboards/${rating.game}`, gettext("leaderboard"))),
  ratingChart(points.length > 1 ? points : [], {
    label: interpolate(gettext("%(game)s rating history"), { game: gameName(rating.game) }),
  }),
  changes.length ? h("details", null, h("summary", null, gettext("Every change")),
    h("table", { class: "list" },
      h("thead", null, h("tr", null, [gettext("When"), gettext("Match"), gettext("Place"),
        gettext("Before"), gettext("After")].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", null, changes.map((c) => h("tr", null,
        h("td", null, dateTime(c.at)),
        h("td", null, link(`/match/${c.match}`, gettext("replay"))),
        h("td", null, ordinal(c.rank)),
        h("td", null, String(c.rating_before)),
        h("td", null, `${c.rating_after} (${c.rating_after >= c.rating_before ? "+" : ""}`
          + `${c.rating_after - c.rating_before})`)))))) : null);
}

/** On one's own page: keep my matches private (PATCH /api/me/settings).
 * @param {AbortSignal} signal */
async function privacySection(signal) {
  const settings = await api.get("/api/me/settings", { signal });
  const box = h("input", { type: "checkbox", id: "matches-private",
    checked: settings.matches_private, "aria-describedby": "matches-private-hint" });
  const status = h("span", { class: "muted", role: "status", id: "matches-private-status" });
  box.addEventListener("change", async () => {
    box.disabled = true;
    status.textContent = "";
    try {
      const saved = (await request("PATCH", "/api/me/settings",
        { body: { matches_private: box.checked } })).data;
      box.checked = saved.matches_private;
      status.textContent = saved.matches_private ? gettext("Your matches are private now.")
        : gettext("Your finished matches are public now.");
    } catch (error) {
      box.checked = !box.checked;
      status.textContent = error.message;
    } finally {
      box.disabled = false;
    }
  });
  return h("section", { class: "card", "aria-labelledby": "privacy-h", id: "privacy" },
    h("h2", { id: "privacy-h" }, gettext("Privacy")),
    h("div", { class: "field checkbox" }, box,
      h("label", { for: "matches-private" }, gettext("Keep my matches private")), " ", status),
    h("small", { id: "matches-private-hint" },
      gettext("Private matches, finished ones included, are seen only by their players: not by "
        + "other players nor by visitors who are not signed in.")));
}

/** On another person's page: follow or unfollow, block or unblock, report.
 * @param {string} username @param {AbortSignal} signal */
async function peopleSection(username, signal) {
  const [following, blocked] = await Promise.all([people("following", signal),
    blocks(signal)]);
  let follows = following.some((p) => p.username === username);
  let blocking = blocked.some((b) => b.username === username);
  const status = h("p", { role: "status", id: "player-people-status" });
  const followButton = h("button", { type: "button", id: "follow-toggle" });
  const blockButton = h("button", { type: "button", class: "secondary", id: "block-toggle" });
  const show = () => {
    followButton.textContent = follows ? gettext("Unfollow") : gettext("Follow");
    followButton.setAttribute("aria-pressed", String(follows));
    blockButton.textContent = blocking ? gettext("Unblock") : gettext("Block");
    blockButton.setAttribute("aria-pressed", String(blocking));
  };
  /** @param {HTMLButtonElement} button @param {() => Promise<void>} act */
  const acting = (button, act) => button.addEventListener("click", async () => {
    button.disabled = true;
    status.textContent = "";
    try {
      await act();
      show();
    } catch (error) {
      status.textContent = /** @type {Error} */ (error).message;
    } finally {
      button.disabled = false;
    }
  });
  acting(followButton, async () => {
    await setFollowing(username, !follows);
    follows = !follows;
    status.textContent = follows ? interpolate(gettext("You follow %(name)s."), { name: username })
      : interpolate(gettext("You no longer follow %(name)s."), { name: username });
  });
  acting(blockButton, async () => {
    await setBlock(username, blocking ? null : { games: true, chat: true });
    blocking = !blocking;
    status.textContent = blocking ? interpolate(gettext("%(name)s is blocked."), { name: username })
      : interpolate(gettext("%(name)s is no longer blocked."), { name: username });
  });
  show();
  return h("section", { class: "card actions-row", "aria-label": gettext("You and this player"),
    id: "player-people" },
  followButton, " ", blockButton, " ", reportButton({ username }, gettext("Report"),
    interpolate(gettext("Report %(name)s"), { name: username }), "secondary"), status);
}

/** The player's tournaments, newest start first, each with their place or why they left.
 * @param {string} username @param {AbortSignal} signal */
async function tournamentsSection(username, signal) {
  const page = await api.get(`/api/players/${encodeURIComponent(username)}/tournaments?limit=20`,
    { signal });
  /** @type {{tournament: import("../tournaments.js").TournamentSummary,
   *   final_rank: number | null, withdrawn: string | null}[]} */
  const entries = page.results;
  return h("section", { class: "card", "aria-labelledby": "tournaments-h", id: "tournament-history" },
    h("h2", { id: "tournaments-h" }, gettext("Tournaments")),
    entries.length ? h("ul", { class: "plain open-list" }, entries.map((entry) => summaryItem(
      entry.tournament, entry.final_rank ? h("span", { class: "tag rank" },
        interpolate(gettext("%(place)s place"), { place: ordinal(entry.final_rank) }))
        : entry.withdrawn ? h("span", { class: "tag away" }, withdrawnText(entry.withdrawn))
          : ""))) : h("p", { class: "muted" }, gettext("No tournament yet.")));
}

/**
 * @param {HTMLElement} main @param {string[]} params the username @param {PageContext} ctx
 */
export async function render(main, [username], ctx) {
  const { signal } = ctx;
  const player = await api.get(`/api/players/${encodeURIComponent(username)}`, { signal });
  const histories = await Promise.all(player.ratings.map((/** @type {Rating} */ rating) => allPages(
    `/api/players/${encodeURIComponent(username)}/ratings/${rating.game}/history?limit=200`,
    1000, signal)));
  put(main,
    h("h1", null, player.username,
      player.is_bot ? h("span", { class: "tag" }, gettext("bot")) : null,
      player.is_guest ? h("span", { class: "tag" }, gettext("guest")) : null,
      player.on_vacation ? awayBadge() : null),
    h("p", { class: "muted" }, player.is_bot
      ? interpolate(gettext("%(game)s bot, level %(level)s"),
        { game: gameName(player.bot_game), level: player.bot_level })
      : interpolate(player.is_guest ? gettext("Playing as a guest since %(date)s")
        : gettext("Playing since %(date)s"), { date: dateTime(player.date_joined) })),
    h("table", { class: "list ratings", id: "ratings" },
      h("caption", null, gettext("Current ratings")),
      h("thead", null, h("tr", null, [gettext("Game"), gettext("Rating"), gettext("Rated matches"), ""]
        .map((t) => h("th", { scope: "col" }, t || h("span", { class: "sr-only" }, gettext("Links")))))),
      h("tbody", null, player.ratings.length ? player.ratings.map((/** @type {Rating} */ r) => h("tr", {
        dataset: { game: r.game },
      },
      h("th", { scope: "row" }, gameName(r.game)),
      h("td", { class: "rating" }, String(r.rating)),
      h("td", null, String(r.games_played)),
      h("td", null, r.provisional ? gettext("provisional") : ""))) : h("tr", null,
        h("td", { colspan: 4, class: "muted" }, gettext("No rated matches yet."))))),
    player.ratings.map((/** @type {Rating} */ rating, /** @type {number} */ i) =>
      historySection(username, rating, histories[i])),
    await tournamentsSection(player.username, signal),
  );
  if (session.token && session.username === player.username && !player.is_guest) {
    main.append(await privacySection(signal));
  } else if (session.token && !player.is_bot && !player.is_guest) {
    /** @type {HTMLElement} */ (main.querySelector("h1")).after(
      await peopleSection(player.username, signal));
  }
}
