// After a match, on the match page: the result and how it came about in words, each seat's
// rating change (+/-), a rematch (the same players and options, seats swapped; POST
// /api/matches/{id}/rematch makes it once, whoever asks) and "play again".
//
// The match page calls afterMatch(root, {id, navigate, signal}) once and update(match, log)
// with every new answer; the section shows itself once the match is over.

import { api } from "./api.js";
import { gameModule, gameName, knownGames, loadGames } from "./catalog.js";
import { clear, h, link } from "./dom.js";
import { botMatchRequest } from "./playnow.js";

const ORDINALS = ["", "1st", "2nd", "3rd", "4th"];

function playerName(match, index) {
  if (index === match.your_seat) return "you";
  return match.seats[index]?.player?.username || `Seat ${index + 1}`;
}

function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** A name at the start of a sentence: "You" and "A player", but a username as it is written. */
function opening(name, match) {
  const usernames = new Set(match.seats.map((seat) => seat.player?.username).filter(Boolean));
  return usernames.has(name.split(" and ")[0]) ? name : capital(name);
}

/** Who left, from the move log's forfeit entries: "bob resigned", "you ran out of time". */
function leavers(match, log) {
  return (log || []).filter((entry) => entry.kind === "forfeit").map((entry) => {
    const who = entry.seat !== null && entry.seat !== undefined
      ? playerName(match, entry.seat) : "a player";
    const how = entry.payload?.reason === "timeout" ? "ran out of time" : "resigned";
    return `${opening(who, match)} ${how}.`;
  });
}

/** The result in words: {headline, reason}. */
export function resultWords(match, log = []) {
  const outcome = match.outcome || {};
  if (match.status === "aborted") {
    return {
      headline: "Called off",
      reason: outcome.reason === "timeout" ? "Nobody moved in time, so the match was called off."
        : "The match was called off before anyone moved.",
    };
  }
  const ranks = outcome.ranks || match.seats.map((seat) => seat.rank);
  const scores = outcome.scores || match.seats.map((seat) => seat.score);
  const winners = outcome.winners || ranks.flatMap((rank, index) => (rank === 1 ? [index] : []));
  const mine = match.your_seat;
  let headline;
  if (outcome.title) {
    const points = scores?.[0];
    headline = `${outcome.title}${points !== null && points !== undefined ? ` (${points} points)` : ""}`;
  } else if (mine !== null && mine !== undefined && winners.includes(mine)) {
    headline = winners.length > 1 ? "You shared the win" : "You won";
  } else if (mine !== null && mine !== undefined && ranks[mine]) {
    const names = winners.map((index) => playerName(match, index)).join(" and ");
    headline = `${opening(names, match)} won; you came ${ORDINALS[ranks[mine]] || `#${ranks[mine]}`}`;
  } else {
    const names = winners.map((index) => playerName(match, index));
    headline = names.length ? `${opening(names.join(" and "), match)} won` : "Finished";
  }
  let reason;
  if (outcome.reason === "forfeit") {
    reason = leavers(match, log).join(" ") || "A player left the match.";
  } else {
    // How the match ended, as a sentence: the game module's OUTCOME_WORDS (see catalog.js).
    reason = gameModule(match.game).OUTCOME_WORDS?.[outcome.reason]
      || (outcome.reason ? capital(String(outcome.reason).replaceAll("_", " ")) + "." : "");
  }
  if (outcome.title) {
    reason = `Solo game over: your rank title is ${outcome.title}.`;
  }
  return { headline, reason };
}

function signed(number) {
  return number > 0 ? `+${number}` : number < 0 ? `−${Math.abs(number)}` : "±0";
}

function ratingList(match) {
  const changes = match.rating_changes || [];
  if (!match.rated) {
    return h("p", { class: "muted", id: "after-rating" }, "Casual match: ratings do not change.");
  }
  if (!changes.length) {
    return h("p", { class: "muted", id: "after-rating", "aria-busy": "true" },
      "Ratings are being updated…");
  }
  return h("ul", { class: "plain rating-changes", id: "after-rating" }, changes.map((change) => {
    const you = change.seat !== null && change.seat === match.your_seat;
    return h("li", { class: ["rating-change", you && "mine",
      change.change > 0 ? "up" : change.change < 0 ? "down" : null],
    dataset: { seat: change.seat ?? "", change: change.change } },
    you ? "Your rating" : link(`/player/${encodeURIComponent(change.username)}`, change.username),
    `: ${change.rating_before} → ${change.rating_after} `,
    h("strong", { class: "delta" }, `(${signed(change.change)})`));
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
    if (match.status === "finished" && seated) {
      const label = match.rematch ? "Go to the rematch" : "Rematch (seats swapped)";
      const button = h("button", { type: "button", class: "primary", id: "rematch" }, label);
      button.addEventListener("click", () => rematch(button));
      box.append(button);
    }
    if (seated) {
      const again = h("button", { type: "button", id: "play-again" },
        `Play ${gameName(match.game)} again against a bot`);
      again.addEventListener("click", () => playAgain(again));
      box.append(again);
    }
    box.append(link(`/lobby`, "New match with other options"));
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
    clear(section).append(
      h("h2", { id: "after-match-h" }, "Result"),
      h("p", { class: "result-headline", id: "after-result" }, h("strong", null, words.headline)),
      words.reason ? h("p", { class: "result-reason", id: "after-reason" }, words.reason) : null,
      match.status === "finished" ? ratingList(match) : null,
      match.rematch && match.your_seat !== null ? h("p", { class: "muted", id: "rematch-note" },
        "A rematch has been offered.") : null,
      match.rematch_of ? h("p", { class: "muted" },
        link(`/match/${match.rematch_of}`, "The match before this one")) : null,
      actions(match),
      h("p", { class: "error", role: "alert", id: "after-error" }));
    section.hidden = false;
    waitForRating(match);
  }

  return { update, node: section };
}
