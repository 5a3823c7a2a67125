// The inbox: my matches (whose turn, deadlines), invitations, recent results and activity.

import { api } from "../api.js";
import { gameName } from "../catalog.js";
import { clear, deadlineTag, h, link, notice, timeTag, turnSecondsText } from "../dom.js";
import { myTurn, opponents, statusText } from "../matchinfo.js";

const FEED_TEXT = {
  invited: (e) => `${e.data.by || "Someone"} invited you to ${gameName(e.game)}`,
  invitation_declined: (e) => `${e.data.by || "A player"} declined your ${gameName(e.game)} invitation`,
  match_started: (e) => `Your ${gameName(e.game)} match started`,
  your_turn: (e) => `Your turn in ${gameName(e.game)}`,
  deadline_soon: (e) => `Deadline soon in ${gameName(e.game)}`,
  timed_out: (e) => `Time ran out in ${gameName(e.game)}`,
  match_finished: (e) => `${gameName(e.game)} finished${e.data.rank ? `: you came #${e.data.rank}` : ""}`,
  match_aborted: (e) => `Your ${gameName(e.game)} match was aborted`,
  rating_changed: (e) => `${gameName(e.game)} rating ${e.data.before ?? "?"} → ${e.data.after ?? "?"}`,
};

function matchRow(match) {
  const yourTurn = myTurn(match);
  return h("tr", { class: yourTurn ? "your-turn" : null, dataset: { match: match.id } },
    h("td", null, link(`/match/${match.id}`, gameName(match.game))),
    h("td", null, opponents(match).join(", ") || "—"),
    h("td", null, h("span", { class: ["status", yourTurn && "go"] },
      yourTurn ? "▶ " : "", statusText(match))),
    h("td", null, match.status === "active" ? deadlineTag(match.deadline)
      : h("span", { class: "muted" }, turnSecondsText(match.turn_seconds))),
    h("td", null, timeTag(match.updated_at)),
  );
}

function table(caption, matches, empty) {
  if (!matches.length) return h("p", { class: "muted" }, empty);
  return h("table", { class: "list" },
    h("caption", { class: "sr-only" }, caption),
    h("thead", null, h("tr", null,
      h("th", { scope: "col" }, "Game"), h("th", { scope: "col" }, "Against"),
      h("th", { scope: "col" }, "Status"), h("th", { scope: "col" }, "Clock"),
      h("th", { scope: "col" }, "Updated"))),
    h("tbody", null, matches.map(matchRow)));
}

function invitationItem(match, refresh, ctx) {
  const by = match.seats.filter((s) => s.player && s.joined).map((s) => s.player.username);
  const act = async (what) => {
    try {
      await api.post(`/api/matches/${match.id}/${what}`);
      if (what === "join") ctx.navigate(`/match/${match.id}`);
      else refresh();
    } catch (error) {
      notice(error.message, "error");
    }
  };
  return h("li", { class: "invitation", dataset: { match: match.id } },
    h("span", null, `${gameName(match.game)} with ${by.join(", ") || "?"}`,
      match.rated ? " (rated)" : " (casual)", ", ", turnSecondsText(match.turn_seconds)),
    " ",
    h("button", { type: "button", class: "primary", onClick: () => act("join") }, "Accept"),
    " ",
    h("button", { type: "button", onClick: () => act("decline") }, "Decline"));
}

export async function render(main, _params, ctx) {
  const { signal } = ctx;
  const mine = h("section", { "aria-labelledby": "h-mine" });
  const invites = h("section"); // named by its heading, which is there only with invitations
  const done = h("section", { "aria-labelledby": "h-done" });
  const activity = h("section", { "aria-labelledby": "h-activity" });
  main.append(
    h("div", { class: "title-row" },
      h("h1", null, "Inbox"),
      link("/lobby", "New match or join one")),
    h("div", { class: "inbox-grid" },
      h("div", null, invites, mine, done),
      h("aside", null, activity)),
  );

  let loading = null;
  async function refresh() {
    if (loading) return loading;
    loading = (async () => {
      const [inbox, invitations, finished] = await Promise.all([
        api.get("/api/me/inbox", { signal }),
        api.get("/api/me/invitations", { signal }),
        api.get("/api/matches?scope=mine&status=finished&limit=10", { signal }),
      ]);
      const active = inbox.filter((m) => !m.invitation_pending);
      clear(invites).removeAttribute("aria-labelledby");
      if (invitations.length) {
        invites.setAttribute("aria-labelledby", "h-invites");
        invites.append(h("h2", { id: "h-invites" }, "Invitations"),
          h("ul", { class: "plain" }, invitations.map((m) => invitationItem(m, refresh, ctx))));
      }
      clear(mine).append(h("h2", { id: "h-mine" }, "My matches"),
        table("My active and open matches", active,
          "No matches in progress. Start one from “New match”."));
      clear(done).append(h("h2", { id: "h-done" }, "Recently finished"),
        table("Recently finished matches", finished.results, "Nothing finished yet."));
      renderActivity();
    })().finally(() => {
      loading = null;
    });
    return loading;
  }

  function renderActivity() {
    clear(activity).append(h("h2", { id: "h-activity" }, "Activity"));
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
      activity.append(h("p", { class: "muted" }, "Nothing yet."));
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
