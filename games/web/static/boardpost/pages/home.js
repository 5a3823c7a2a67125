// @ts-check
// The home page. A visitor: what is played here, "Play a bot now" for each game (no account
// needed: a guest account is made on the way), and the way to sign in. A player: the inbox,
// then "Play a bot now".

import { session } from "../api.js";
import { loadGames } from "../catalog.js";
import { h, link } from "../dom.js";
import { gettext, interpolateNodes } from "../i18n.js";
import { isGuest, playNowButtons } from "../playnow.js";
import * as auth from "./auth.js";
import * as inbox from "./inbox.js";

/** @typedef {import("../app.js").PageContext} PageContext */

/**
 * @param {PageContext} ctx @param {import("../catalog.js").Game[]} games
 * @param {"h1" | "h2" | "h3"} headingLevel
 */
function playSection(ctx, games, headingLevel) {
  return h("section", { class: "play-now-section", "aria-labelledby": "play-now-h" },
    h(headingLevel, { id: "play-now-h" }, gettext("Play a bot now")),
    h("p", { class: "muted" }, session.token
      ? gettext("A new match against a level-1 bot, with the options for a first game.")
      : gettext("One click, no account needed: you play as a guest and can sign up later, "
        + "keeping your matches.")),
    playNowButtons(ctx, { games }));
}

/** The installed app's "Play a bot" shortcut (`/?play=bot`): the "Play a bot now" section in
 * view, its heading focused.
 * @param {HTMLElement} main @param {PageContext} ctx */
function showPlayNow(main, ctx) {
  if (ctx.query.get("play") !== "bot") return;
  const heading = /** @type {HTMLElement | null} */ (main.querySelector("#play-now-h"));
  if (!heading) return;
  heading.tabIndex = -1;
  heading.focus();
  heading.scrollIntoView({ block: "start" });
}

/**
 * @param {HTMLElement} main @param {string[]} params @param {PageContext} ctx
 */
export async function render(main, params, ctx) {
  const games = await loadGames();
  if (!session.token) {
    // The welcome, the sign-in and sign-up forms, and "Play a bot now" first of all.
    await auth.render(main, params, ctx);
    const lead = main.querySelector(".lead");
    const section = playSection(ctx, games, "h2");
    if (lead) lead.after(section);
    else main.prepend(section);
    main.append(h("p", { class: "muted" },
      interpolateNodes(gettext("%(leaderboards)s and finished matches are open to everyone."),
        { leaderboards: link("/leaderboards", gettext("Leaderboards")) })));
    showPlayNow(main, ctx);
    return undefined;
  }
  const cleanup = await inbox.render(main, params, ctx);
  if (isGuest()) {
    main.prepend(h("p", { class: "guest-banner card", id: "guest-banner" },
      gettext("You are playing as a guest (unrated, against bots)."), " ",
      interpolateNodes(gettext("%(sign_up)s to keep your matches, play people and be rated."),
        { sign_up: link("/signin", gettext("Sign up")) })));
  }
  main.append(playSection(ctx, games, "h2"));
  showPlayNow(main, ctx);
  return cleanup;
}
