// @ts-check
// The inbox: my matches (whose turn, deadlines; running, my turn or finished, by game, in the
// order chosen: matchlists.js), invitations, recent results by the day they ended, and activity.

import { api, sameOrigin } from "../api.js";
import { gameName, knownGames } from "../catalog.js";
import { timeControlText } from "../clocks.js";
import { clear, deadlineTag, h, link, notice, timeTag } from "../dom.js";
import { gettext, interpolate, interpolateNodes, ordinal } from "../i18n.js";
import { choicePath, choiceSearch, dayGroups, listControls, readChoice } from "../matchlists.js";
import { myTurn, opponentNodes, statusText } from "../matchinfo.js";
import { withdrawnText } from "../tournaments.js";

/** @typedef {import("../app.js").PageContext} PageContext */
/** @typedef {import("../api.js").Match} Match */
/** @typedef {import("../app.js").FeedEvent} FeedEvent */

/** About how long a reminder said was left, as the notification rounds it: "15 min", "4 h",
 * "2 d". @param {number} seconds */
function aboutLeft(seconds) {
  const minutes = Math.max(1, Math.round(seconds / 60));
  if (minutes < 55) return interpolate(gettext("%(n)s min"), { n: minutes });
  const hours = Math.max(1, Math.round(seconds / 3600));
  if (hours < 48) return interpolate(gettext("%(n)s h"), { n: hours });
  return interpolate(gettext("%(n)s d"), { n: Math.round(seconds / 86400) });
}

/** @type {Object<string, (event: FeedEvent) => string>} */
const FEED_TEXT = {
  invited: (e) => (e.data.by
    ? interpolate(gettext("%(name)s invited you to %(game)s"), { name: e.data.by, game: gameName(e.game) })
    : interpolate(gettext("Someone invited you to %(game)s"), { game: gameName(e.game) })),
  invitation_declined: (e) => (e.data.by
    ? interpolate(gettext("%(name)s declined your %(game)s invitation"),
      { name: e.data.by, game: gameName(e.game) })
    : interpolate(gettext("A player declined your %(game)s invitation"), { game: gameName(e.game) })),
  match_started: (e) => interpolate(gettext("Your %(game)s match started"), { game: gameName(e.game) }),
  your_turn: (e) => interpolate(gettext("Your turn in %(game)s"), { game: gameName(e.game) }),
  deadline_soon: (e) => (typeof e.data.left_seconds === "number" && e.data.left_seconds > 0
    ? interpolate(gettext("%(game)s: about %(time)s left to move"),
      { game: gameName(e.game), time: aboutLeft(e.data.left_seconds) })
    : interpolate(gettext("Deadline soon in %(game)s"), { game: gameName(e.game) })),
  timed_out: (e) => interpolate(gettext("Time ran out in %(game)s"), { game: gameName(e.game) }),
  match_finished: (e) => (e.data.rank
    ? interpolate(gettext("%(game)s finished: you came %(rank)s"),
      { game: gameName(e.game), rank: ordinal(e.data.rank) })
    : interpolate(gettext("%(game)s finished"), { game: gameName(e.game) })),
  match_aborted: (e) => interpolate(gettext("Your %(game)s match was aborted"), { game: gameName(e.game) }),
  rating_changed: (e) => interpolate(gettext("%(game)s rating %(before)s → %(after)s"),
    { game: gameName(e.game), before: e.data.before ?? "?", after: e.data.after ?? "?" }),
  vacation_ending: () => gettext("Your vacation ends in a day"),
  vacation_ended: () => gettext("Your vacation is over: your clocks run again"),
  auto_vacation_started: (e) => interpolate(gettext("Your time ran out in %(game)s: your vacation started instead"),
    { game: gameName(e.game) }),
  chat: (e) => interpolate(gettext("%(name)s wrote in the chat of your %(game)s match"),
    { name: e.data.by, game: gameName(e.game) }),
  warned: () => gettext("A moderator warned you: keep to the rules of fair play and courtesy"),
  tournament_starts_soon: (e) => interpolate(gettext("%(name)s starts soon"), { name: e.data.name }),
  tournament_round: (e) => (e.data.round
    ? interpolate(gettext("%(name)s: your match of round %(round)s"),
      { name: e.data.name, round: e.data.round })
    : interpolate(gettext("%(name)s: your ladder challenge"), { name: e.data.name })),
  tournament_withdrawn: (e) => interpolate(gettext("%(name)s: %(why)s"),
    { name: e.data.name, why: withdrawnText(e.data.reason) }),
  tournament_finished: (e) => (e.data.cancelled
    ? interpolate(gettext("%(name)s was cancelled"), { name: e.data.name })
    : e.data.place ? interpolate(gettext("%(name)s finished: you came %(rank)s"),
      { name: e.data.name, rank: ordinal(e.data.place) })
      : interpolate(gettext("%(name)s finished"), { name: e.data.name })),
};

/** Where a feed entry leads: its match, else its tournament. @param {FeedEvent} event */
function eventLink(event) {
  if (event.match) return `/match/${event.match}`;
  return event.data?.tournament ? `/tournament/${event.data.tournament}` : null;
}

/** The opponents' names, each marked when the player is on vacation; "—" for none.
 * @param {Match} match */
function against(match) {
  const names = opponentNodes(match);
  return names.length ? names : "—";
}

/** @param {Match} match */
function matchRow(match) {
  const yourTurn = myTurn(match);
  return h("tr", { class: yourTurn ? "your-turn" : null, dataset: { match: match.id } },
    h("td", null, link(`/match/${match.id}`, gameName(match.game))),
    h("td", null, against(match)),
    h("td", null, h("span", { class: ["status", yourTurn && "go"] },
      yourTurn ? "▶ " : "", statusText(match))),
    h("td", null, match.status === "active" ? deadlineTag(match.deadline)
      : h("span", { class: "muted" }, timeControlText(match.time_control))),
    h("td", null, timeTag(match.updated_at)),
  );
}

/** @param {string} caption @param {Match[]} matches @param {string} empty */
function table(caption, matches, empty) {
  if (!matches.length) return h("p", { class: "muted" }, empty);
  return h("table", { class: "list" },
    h("caption", { class: "sr-only" }, caption),
    h("thead", null, h("tr", null,
      h("th", { scope: "col" }, gettext("Game")), h("th", { scope: "col" }, gettext("Against")),
      h("th", { scope: "col" }, gettext("Status")), h("th", { scope: "col" }, gettext("Clock")),
      h("th", { scope: "col" }, gettext("Updated")))),
    h("tbody", null, matches.map(matchRow)));
}

/** @param {Match} match @param {() => Promise<void>} refresh @param {PageContext} ctx */
function invitationItem(match, refresh, ctx) {
  const by = opponentNodes(match, (s) => Boolean(s.player && s.joined));
  const act = async (/** @type {string} */ what) => {
    try {
      await api.post(`/api/matches/${match.id}/${what}`);
      if (what === "join") ctx.navigate(`/match/${match.id}`);
      else refresh();
    } catch (error) {
      notice(error.message, "error");
    }
  };
  return h("li", { class: "invitation", dataset: { match: match.id } },
    h("span", null, interpolateNodes(match.rated
      ? gettext("%(game)s with %(names)s (rated), %(clock)s")
      : gettext("%(game)s with %(names)s (casual), %(clock)s"), {
      game: gameName(match.game), names: by.length ? h("span", null, by) : "?",
      clock: timeControlText(match.time_control),
    })),
    " ",
    h("button", { type: "button", class: "primary", onClick: () => act("join") }, gettext("Accept")),
    " ",
    h("button", { type: "button", onClick: () => act("decline") }, gettext("Decline")));
}

// Finished matches a page at a time; the inbox's own "Recently finished" shows the last few.
const FINISHED_PAGE = 20;
const RECENT = 10;

/** A finished match: its game, opponents, result and when it ended.
 * @param {Match} match */
function finishedRow(match) {
  return h("tr", { dataset: { match: match.id } },
    h("td", null, link(`/match/${match.id}`, gameName(match.game))),
    h("td", null, against(match)),
    h("td", null, statusText(match)),
    h("td", null, timeTag(match.finished_at)));
}

/** An empty table of finished matches, for dayGroups.
 * @param {string} caption */
function finishedTable(caption) {
  const body = h("tbody");
  const table = h("table", { class: "list finished" },
    h("caption", { class: "sr-only" }, caption),
    h("thead", null, h("tr", null, [gettext("Game"), gettext("Against"), gettext("Result"),
      gettext("Ended")].map((text) => h("th", { scope: "col" }, text)))),
    body);
  return { table, body };
}

/** Finished matches into `box`, under a heading per day they ended when `byDay`.
 * @param {HTMLElement} box @param {Match[]} matches @param {boolean} byDay
 * @returns {{add: (matches: Match[]) => void}} */
function finishedList(box, matches, byDay) {
  const groups = dayGroups(box, byDay, finishedTable, finishedRow);
  groups.add(matches);
  return groups;
}

/**
 * @param {HTMLElement} main @param {string[]} _params @param {PageContext} ctx
 */
export async function render(main, _params, ctx) {
  const { signal } = ctx;
  const slugs = knownGames().map((game) => game.slug);
  let choice = readChoice(ctx.query, slugs);
  const listBox = h("div", { id: "match-list" });
  const more = h("button", { type: "button", id: "list-more", hidden: true }, gettext("More"));
  const mine = h("section", { "aria-labelledby": "h-mine" },
    h("h2", { id: "h-mine" }, gettext("My matches")),
    listControls(choice, slugs, (next) => {
      choice = next;
      pagedOn = false;
      history.replaceState(null, "", location.pathname + choiceSearch(choice));
      refresh().catch(() => {});
    }),
    listBox, more);
  const invites = h("section"); // named by its heading, which is there only with invitations
  // Each section is named by its heading once it has one (a name that points at nothing, while
  // the first load is under way, is an error for assistive technology).
  const done = h("section");
  const activity = h("section");
  main.append(
    h("div", { class: "title-row" },
      h("h1", null, gettext("Inbox")),
      link("/lobby", gettext("New match or join one"))),
    h("div", { class: "inbox-grid" },
      h("div", null, invites, mine, done),
      h("aside", null, activity)),
  );

  // Finished matches paged on with "More" stay as they are when the inbox refreshes.
  let pagedOn = false;

  /** @param {any} list the answer of choicePath(choice) */
  function renderList(list) {
    clear(listBox).dataset.show = choice.show;
    more.hidden = true;
    if (choice.show !== "finished") {
      const shown = list.filter((/** @type {Match} */ m) => !m.invitation_pending);
      listBox.append(choice.show === "my_turn"
        ? table(gettext("Matches waiting for my move"), shown,
          gettext("No match is waiting for your move."))
        : table(gettext("My active and open matches"), shown,
          gettext("No matches in progress. Start one from “New match”.")));
      return;
    }
    if (!list.results.length) {
      listBox.append(h("p", { class: "muted" }, gettext("Nothing finished yet.")));
      return;
    }
    const groups = finishedList(listBox, list.results, choice.sort === "ended");
    /** @param {string | null} next */
    const offer = (next) => {
      more.hidden = !next;
      more.onclick = next ? async () => {
        const page = await api.get(sameOrigin(next), { signal });
        pagedOn = true;
        groups.add(page.results);
        offer(page.next);
      } : null;
    };
    offer(list.next);
  }

  /** @param {any} recent the last finished matches, or null when the list shows them */
  function renderRecent(recent) {
    clear(done).hidden = recent === null;
    if (recent === null) return;
    done.append(h("h2", { id: "h-done" }, gettext("Recently finished")));
    done.setAttribute("aria-labelledby", "h-done");
    if (!recent.results.length) {
      done.append(h("p", { class: "muted" }, gettext("Nothing finished yet.")));
      return;
    }
    finishedList(done, recent.results, true);
    const all = new URLSearchParams({ show: "finished", ...(choice.game && { game: choice.game }) });
    if (recent.next) {
      done.append(h("p", null, link(`${location.pathname}?${all}`,
        gettext("All finished matches"))));
    }
  }

  async function load() {
    const wanted = choice;
    const finished = wanted.show === "finished";
    const recentPath = `/api/matches?scope=mine&status=finished&sort=ended&limit=${RECENT}${
      wanted.game ? `&game=${wanted.game}` : ""}`;
    const [list, invitations, recent] = await Promise.all([
      finished && pagedOn ? null : api.get(choicePath(wanted, FINISHED_PAGE), { signal }),
      api.get("/api/me/invitations", { signal }),
      finished ? null : api.get(recentPath, { signal }),
    ]);
    if (wanted !== choice) return; // another choice came meanwhile: its load draws it
    clear(invites).removeAttribute("aria-labelledby");
    if (invitations.length) {
      invites.setAttribute("aria-labelledby", "h-invites");
      invites.append(h("h2", { id: "h-invites" }, gettext("Invitations")),
        h("ul", { class: "plain" }, invitations.map((/** @type {Match} */ m) =>
          invitationItem(m, refresh, ctx))));
    }
    if (list !== null) renderList(list);
    renderRecent(recent);
    renderActivity();
  }

  /** @type {Promise<void> | null} */
  let loading = null;
  let again = false;
  /** Load and draw the page; a call while a load runs loads again once it is done.
   * @returns {Promise<void>} */
  function refresh() {
    if (loading) {
      again = true;
      return loading;
    }
    loading = load().finally(() => {
      loading = null;
      if (again) {
        again = false;
        refresh().catch(() => {});
      }
    });
    return loading;
  }

  function renderActivity() {
    clear(activity).append(h("h2", { id: "h-activity" }, gettext("Activity")));
    activity.setAttribute("aria-labelledby", "h-activity");
    // One "Your turn" line per match: a bot's every move hands the turn back, and only the
    // newest of those says anything.
    const seenTurn = new Set();
    const events = [...ctx.feed.recent].reverse().filter((event) => {
      if (event.type !== "your_turn") return true;
      if (seenTurn.has(event.match)) return false;
      seenTurn.add(event.match);
      return true;
    });
    if (!events.length) {
      activity.append(h("p", { class: "muted" }, gettext("Nothing yet.")));
      return;
    }
    activity.append(h("ul", { class: "plain activity" }, events.map((event) => {
      const text = (FEED_TEXT[event.type] || (() => event.type))(event);
      const href = eventLink(event);
      return h("li", null, href ? link(href, text) : text, " ",
        timeTag(event.created_at));
    })));
  }

  await refresh();
  const unsubscribe = ctx.feed.subscribe(() => refresh().catch(() => {}));
  // Deadlines move on even when nothing happens.
  const timer = setInterval(() => refresh().catch(() => {}), 60000);
  return () => {
    unsubscribe();
    clearInterval(timer);
  };
}
