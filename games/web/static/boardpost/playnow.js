// @ts-check
// Play at once: a match against a bot in one click, as a guest when nobody is signed in.
//
// POST /api/auth/guest gives a visitor a guest account and its token (no password; unrated,
// bots only, a few running matches at most); POST /api/matches then makes the match with the
// game's "first game" preset (its options and player count) against level-1 bots. A guest
// signs up later on the sign-in page (POST /api/auth/guest/convert) and keeps every match.

import { api, session } from "./api.js";
import { gameName, knownGames } from "./catalog.js";
import { h } from "./dom.js";
import { gettext, interpolate } from "./i18n.js";

// The name this client's tokens get in the account's token list (as pages/auth.js names them).
const TOKEN_NAME = "web client";

/** @typedef {import("./catalog.js").Game} Game */
/** @typedef {import("./app.js").PageContext} PageContext */

/** Whether the signed-in account is a guest (guests' generated names start with "guest-";
 * nobody may sign up with such a name). */
export function isGuest() {
  return Boolean(session.token && session.username?.startsWith("guest-"));
}

/** The game's "first game" preset (GET /api/games), if it has one.
 * @param {Game} game */
export function firstGamePreset(game) {
  return (game.presets || []).find((preset) => preset.key === "first_game") || null;
}

/** The create request of a match of `game` (an entry of GET /api/games) against bots.
 * @param {Game} game @param {number} [level] @param {Object<string, unknown> | null} [config] */
export function botMatchRequest(game, level = 1, config = null) {
  const preset = firstGamePreset(game);
  const wanted = preset?.players || Math.max(2, game.min_players);
  const players = Math.min(game.max_players, Math.max(game.min_players, wanted, 2));
  return {
    game: game.slug,
    config: config ?? preset?.config ?? {},
    seats: [{ kind: "me" }, ...Array.from({ length: players - 1 }, () => ({ kind: "bot", level }))],
  };
}

/**
 * Start a match of `game` against a bot now: as a new guest when nobody is signed in
 * (`ctx.startGuest(token, username)` keeps the session), then open it. Resolves to the match.
 * @param {Game} game @param {Pick<PageContext, "startGuest" | "navigate">} ctx
 * @param {{level?: number, config?: Object<string, unknown> | null}} [options]
 * @returns {Promise<import("./api.js").Match>}
 */
export async function playBotNow(game, ctx, { level = 1, config = null } = {}) {
  if (!session.token) {
    const guest = await api.post("/api/auth/guest", { token_name: TOKEN_NAME }, { auth: false });
    ctx.startGuest(guest.token, guest.username);
  }
  const match = await api.post("/api/matches", botMatchRequest(game, level, config));
  ctx.navigate(`/match/${match.id}`);
  return match;
}

/** A "Play a bot now" button for each game, with its error line.
 * @param {Pick<PageContext, "startGuest" | "navigate">} ctx @param {{games?: Game[]}} [options] */
export function playNowButtons(ctx, { games = knownGames() } = {}) {
  const error = h("p", { class: "error", role: "alert", id: "play-now-error" });
  const list = h("ul", { class: "play-now plain" }, games.map((game) => {
    const preset = firstGamePreset(game);
    const button = h("button", {
      type: "button", class: "primary", id: `play-now-${game.slug}`,
      dataset: { game: game.slug },
    }, interpolate(gettext("Play %(game)s against a bot"), { game: gameName(game.slug) }));
    button.addEventListener("click", async () => {
      error.textContent = "";
      for (const other of list.querySelectorAll("button")) other.disabled = true;
      try {
        await playBotNow(game, ctx);
      } catch (err) {
        if (err.name === "AbortError") return;
        error.textContent = err.code === "too_many_bot_matches"
          ? `${err.message} ${gettext("Your running matches are in the inbox.")}` : err.message;
      } finally {
        for (const other of list.querySelectorAll("button")) other.disabled = false;
      }
    });
    return h("li", { class: "card play-card", dataset: { game: game.slug } },
      h("h3", null, gameName(game.slug)),
      h("p", { class: "muted" }, game.min_players === game.max_players
        ? interpolate(gettext("%(n)s players"), { n: game.min_players })
        : interpolate(gettext("%(min)s-%(max)s players"),
          { min: game.min_players, max: game.max_players }),
      preset ? ` · ${preset.description}` : ""),
      button);
  }));
  return h("div", null, list, error);
}
