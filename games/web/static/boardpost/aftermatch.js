// After a match, on the match page: the result and how it came about in words, each seat's
// rating change (+/-), a rematch (the same players and options, seats swapped; POST
// /api/matches/{id}/rematch makes it once, whoever asks) and "play again".
//
// The match page calls afterMatch(root, {id, navigate, signal}) once and update(match, log)
// with every new answer; the section shows itself once the match is over.

import { api } from "./api.js";
import { gameModule, gameName, knownGames, loadGames } from "./catalog.js";
import { clear, h, link, put } from "./dom.js";
import {
  formatList, gettext, interpolate, interpolateNodes, ngettext, ordinal,
} from "./i18n.js";
import { botMatchRequest } from "./playnow.js";

function playerName(match, index) {
  if (index === match.your_seat) return gettext("you");
  return match.seats[index]?.player?.username
    || interpolate(gettext("Seat %(n)s"), { n: index + 1 });
}

function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** Names at the start of a sentence: "You" and "Seat 2", but a username as it is written. */
function opening(names, match) {
  const usernames = new Set(match.seats.map((seat) => seat.player?.username).filter(Boolean));
  const text = formatList(names);
  return usernames.has(names[0]) ? text : capital(text);
}

/** Who left, from the move log's forfeit entries: "bob resigned", "You ran out of time." */
function leavers(match, log) {
  return (log || []).filter((entry) => entry.kind === "forfeit").map((entry) => {
    const timeout = entry.payload?.reason === "timeout";
    if (entry.seat === null || entry.seat === undefined) {
      return timeout ? gettext("A player ran out of time.") : gettext("A player resigned.");
    }
    if (entry.seat === match.your_seat) {
      return timeout ? gettext("You ran out of time.") : gettext("You resigned.");
    }
    const name = playerName(match, entry.seat);
    return interpolate(timeout ? gettext("%(name)s ran out of time.")
      : gettext("%(name)s resigned."), { name });
  });
}

/** The result in words: {headline, reason}. */
export function resultWords(match, log = []) {
  const outcome = match.outcome || {};
  if (match.status === "aborted") {
    return {
      headline: gettext("Called off"),
      reason: outcome.reason === "timeout"
        ? gettext("Nobody moved in time, so the match was called off.")
        : gettext("The match was called off before anyone moved."),
    };
  }
  const ranks = outcome.ranks || match.seats.map((seat) => seat.rank);
  const scores = outcome.scores || match.seats.map((seat) => seat.score);
  const winners = outcome.winners || ranks.flatMap((rank, index) => (rank === 1 ? [index] : []));
  const mine = match.your_seat;
  let headline;
  if (outcome.title) {
    // A solo title arrives in English; the catalogue has it (games/nimalia_texts.js marks them).
    const points = scores?.[0];
    headline = points !== null && points !== undefined
      ? interpolate(ngettext("%(title)s (%(points)s point)", "%(title)s (%(points)s points)",
        points), { title: gettext(outcome.title), points })
      : gettext(outcome.title);
  } else if (mine !== null && mine !== undefined && winners.includes(mine)) {
    headline = winners.length > 1 ? gettext("You shared the win") : gettext("You won");
  } else if (mine !== null && mine !== undefined && ranks[mine]) {
    const names = winners.map((index) => playerName(match, index));
    headline = interpolate(ngettext("%(names)s won; you came %(rank)s",
      "%(names)s won; you came %(rank)s", names.length),
    { names: opening(names, match), rank: ordinal(ranks[mine]) });
  } else {
    const names = winners.map((index) => playerName(match, index));
    headline = names.length ? interpolate(ngettext("%(names)s won", "%(names)s won", names.length),
      { names: opening(names, match) }) : gettext("Finished");
  }
  let reason;
  if (outcome.reason === "forfeit") {
    reason = leavers(match, log).join(" ") || gettext("A player left the match.");
  } else {
    // How the match ended, as a sentence: the game module's OUTCOME_WORDS (see catalog.js).
    reason = gameModule(match.game).OUTCOME_WORDS?.[outcome.reason]
      || (outcome.reason ? capital(String(outcome.reason).replaceAll("_", " ")) + "." : "");
  }
  if (outcome.title) {
    reason = interpolate(gettext("Solo game over: your rank title is %(title)s."),
      { title: gettext(outcome.title) });
  }
  return { headline, reason };
}

function signed(number) {
  const size = Math.abs(number);
  return number > 0 ? `+${size}` : number < 0 ? `−${size}` : "±0";
}

function ratingList(match) {
  const changes = match.rating_changes || [];
  if (!match.rated) {
    return h("p", { class: "muted", id: "after-rating" },
      gettext("Casual match: ratings do not change."));
  }
  if (!changes.length) {
    return h("p", { class: "muted", id: "after-rating", "aria-busy": "true" },
      gettext("Ratings are being updated…"));
  }
  return h("ul", { class: "plain rating-changes", id: "after-rating" }, changes.map((change) => {
    const you = change.seat !== null && change.seat === match.your_seat;
    return h("li", { class: ["rating-change", you && "mine",
      change.change > 0 ? "up" : change.change < 0 ? "down" : null],
    dataset: { seat: change.seat ?? "", change: change.change } },
    interpolateNodes(gettext("%(who)s: %(before)s → %(after)s %(change)s"), {
      who: you ? gettext("Your rating")
        : link(`/player/${encodeURIComponent(change.username)}`, change.username),
      before: change.rating_before,
      after: change.rating_after,
      change: h("strong", { class: "delta" }, `(${signed(change.change)})`),
    }));
  }));
}

/** The section under the match header; update(match, log) redraws it. */
export function afterMatch(root, { id, navigate, signal }) {
  const section = h("section", { id: "after-match", class: "after-match card", hidden: true,
    "aria-labelledby": "after-match-h" });
  const head = root.querySelector("header");
  if (head) head.after(section);
  else root.prepend(section);
  let current = null;
  let lastLog = [];
  let polls = 0;
  let timer = null;
  let busy = false;

  async function reread() {
    try {
      const fresh = await api.get(`/api/matches/${id}`, { signal });
      update(fresh, lastLog);
    } catch {
      /* the page has its own error handling */
    }
  }

  function waitForRating(match) {
    clearTimeout(timer);
    if (match.status !== "finished" || !match.rated || match.rating_changes?.length) return;
    if (polls >= 30 || signal?.aborted) return;
    polls += 1;
    timer = setTimeout(reread, 2000);
  }
  signal?.addEventListener("abort", () => clearTimeout(timer), { once: true });

  async function act(button, work) {
    if (busy) return;
    busy = true;
    button.disabled = true;
    const error = section.querySelector("#after-error");
    error.textContent = "";
    try {
      await work();
    } catch (err) {
      if (err.name !== "AbortError") error.textContent = err.message;
    } finally {
      busy = false;
      button.disabled = false;
    }
  }

  function rematch(button) {
    return act(button, async () => {
      const made = await api.post(`/api/matches/${id}/rematch`, undefined, { signal });
      navigate(`/match/${made.id}`);
    });
  }

  function playAgain(button) {
    return act(button, async () => {
      const games = knownGames().length ? knownGames() : await loadGames();
      const game = games.find((g) => g.slug === current.game);
      const bot = current.seats.find((seat) => seat.player?.is_bot);
      const level = bot ? Number(bot.player.username.match(/(\d+)$/)?.[1]) || 1 : 1;
      const request = botMatchRequest(game, level, current.config);
      const made = await api.post("/api/matches", request, { signal });
      navigate(`/match/${made.id}`);
    });
  }

  function actions(match) {
    const seated = match.your_seat !== null && match.your_seat !== undefined;
    const box = h("div", { class: "actions after-actions" });
    // A solo match (one seat) has nobody to swap seats with: its rematch is the same game
    // again, and a match against a bot is not "again".
    const solo = match.seats.length === 1;
    if (match.status === "finished" && seated) {
      const label = solo ? gettext("Play again") : match.rematch ? gettext("Go to the rematch")
        : gettext("Rematch (seats swapped)");
      const button = h("button", { type: "button", class: "primary", id: "rematch" }, label);
      button.addEventListener("click", () => rematch(button));
      box.append(button);
    }
    if (seated && !solo) {
      const again = h("button", { type: "button", id: "play-again" },
        interpolate(gettext("Play %(game)s again against a bot"), { game: gameName(match.game) }));
      again.addEventListener("click", () => playAgain(again));
      box.append(again);
    }
    box.append(link(`/lobby`, gettext("New match with other options")));
    return box;
  }

  function update(match, log) {
    current = match;
    if (log) lastLog = log;
    if (match.status !== "finished" && match.status !== "aborted") {
      section.hidden = true;
      return;
    }
    const words = resultWords(match, lastLog);
    // put() skips the absent parts (append would write them as the text "null").
    put(clear(section),
      h("h2", { id: "after-match-h" }, gettext("Result")),
      h("p", { class: "result-headline", id: "after-result" }, h("strong", null, words.headline)),
      words.reason ? h("p", { class: "result-reason", id: "after-reason" }, words.reason) : null,
      match.status === "finished" ? ratingList(match) : null,
      match.rematch && match.your_seat !== null && match.seats.length > 1 ? h("p", { class: "muted", id: "rematch-note" },
        gettext("A rematch has been offered.")) : null,
      match.rematch_of ? h("p", { class: "muted" },
        link(`/match/${match.rematch_of}`, gettext("The match before this one"))) : null,
      actions(match),
      h("p", { class: "error", role: "alert", id: "after-error" }));
    section.hidden = false;
    waitForRating(match);
  }

  return { update, node: section };
}
