// @ts-check
// The inbox: my matches (whose turn, deadlines), invitations, recent results and activity.

import { api } from "../api.js";
import { gameName } from "../catalog.js";
import { timeControlText } from "../clocks.js";
import { clear, deadlineTag, h, link, notice, timeTag } from "../dom.js";
import { gettext, interpolate, ordinal } from "../i18n.js";
import { myTurn, opponents, statusText } from "../matchinfo.js";

/** @typedef {import("../app.js").PageContext} PageContext */
/** @typedef {import("../api.js").Match} Match */
/** @typedef {import("../app.js").FeedEvent} FeedEvent */

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
  deadline_soon: (e) => interpolate(gettext("Deadline soon in %(game)s"), { game: gameName(e.game) }),
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
};

/** @param {Match} match */
function matchRow(match) {
  const yourTurn = myTurn(match);
  return h("tr", { class: yourTurn ? "your-turn" : null, dataset: { match: match.id } },
    h("td", null, link(`/match/${match.id}`, gameName(match.game))),
    h("td", null, opponents(match).join(", ") || "—"),
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
  const by = match.seats.filter((s) => s.player && s.joined)
    .map((s) => /** @type {import("../api.js").PlayerRef} */ (s.player).username);
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
    h("span", null, interpolate(match.rated ? gettext("%(game)s with %(names)s (rated), %(clock)s")
      : gettext("%(game)s with %(names)s (casual), %(clock)s"), {
      game: gameName(match.game), names: by.join(", ") || "?",
      clock: timeControlText(match.time_control),
    })),
    " ",
    h("button", { type: "button", class: "primary", onClick: () => act("join") }, gettext("Accept")),
    " ",
    h("button", { type: "button", onClick: () => act("decline") }, gettext("Decline")));
}

/**
 * @param {HTMLElement} main @param {string[]} _params @param {PageContext} ctx
 */
export async function render(main, _params, ctx) {
  const { signal } = ctx;
  const mine = h("section", { "aria-labelledby": "h-mine" });
  const invites = h("section"); // named by its heading, which is there only with invitations
  const done = h("section", { "aria-labelledby": "h-done" });
  const activity = h("section", { "aria-labelledby": "h-activity" });
  main.append(
    h("div", { class: "title-row" },
      h("h1", null, gettext("Inbox")),
      link("/lobby", gettext("New match or join one"))),
    h("div", { class: "inbox-grid" },
      h("div", null, invites, mine, done),
      h("aside", null, activity)),
  );

  /** @type {Promise<void> | null} */
  let loading = null;
  async function refresh() {
    if (loading) return loading;
    loading = (async () => {
      const [inbox, invitations, finished] = await Promise.all([
        api.get("/api/me/inbox", { signal }),
        api.get("/api/me/invitations", { signal }),
        api.get("/api/matches?scope=mine&status=finished&limit=10", { signal }),
      ]);
      const active = inbox.filter((/** @type {Match} */ m) => !m.invitation_pending);
      clear(invites).removeAttribute("aria-labelledby");
      if (invitations.length) {
        invites.setAttribute("aria-labelledby", "h-invites");
        invites.append(h("h2", { id: "h-invites" }, gettext("Invitations")),
          h("ul", { class: "plain" }, invitations.map((/** @type {Match} */ m) =>
            invitationItem(m, refresh, ctx))));
      }
      clear(mine).append(h("h2", { id: "h-mine" }, gettext("My matches")),
        table(gettext("My active and open matches"), active,
          gettext("No matches in progress. Start one from “New match”.")));
      clear(done).append(h("h2", { id: "h-done" }, gettext("Recently finished")),
        table(gettext("Recently finished matches"), finished.results,
          gettext("Nothing finished yet.")));
      renderActivity();
    })().finally(() => {
      loading = null;
    });
    return loading;
  }

  function renderActivity() {
    clear(activity).append(h("h2", { id: "h-activity" }, gettext("Activity")));
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
      return h("li", null,
        event.match ? link(`/match/${event.match}`, text) : text, " ",
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
