// @ts-check
// The chat of the match page: the seats' room and the spectators' room as tabs (a reader gets
// only the rooms the server shows them: while the match runs a seat its own and a spectator
// theirs, both once it is over), the lines as they come (the chat's stream, or its long-poll),
// a line to say, a mute switch and a report button on each line of others.

import { api, ApiError, live, request, session } from "./api.js";
import { clear, h, timeTag } from "./dom.js";
import { gettext, interpolate } from "./i18n.js";
import { reportButton } from "./report.js";

/** A chat line (GET /api/matches/{id}/chat).
 * @typedef {{id: number, room: string, author: string, body: string, created_at: string}} Line */

const MAX_CHARS = 200;

/** @param {string} room */
function roomName(room) {
  return room === "players" ? gettext("Players") : gettext("Spectators");
}

/**
 * The chat section, appended to `parent`; `reload()` reads every line again (when the match
 * ends, the rooms shown grow).
 * @param {HTMLElement} parent @param {{id: string, signal: AbortSignal}} options
 */
export function matchChat(parent, { id, signal }) {
  /** @type {Line[]} */
  let lines = [];
  /** @type {string[]} */
  let rooms = [];
  /** @type {string | null} */
  let myRoom = null;
  let shown = "";
  let muted = false;
  let after = 0;
  let following = false;
  const tabs = h("div", { role: "tablist", class: "chat-tabs",
    "aria-label": gettext("Chat rooms") });
  const list = h("ol", { class: "chat-lines", id: "chat-lines" });
  const panel = h("div", { role: "tabpanel", id: "chat-panel", tabindex: "0" }, list);
  const input = h("input", { id: "chat-input", maxlength: MAX_CHARS, autocomplete: "off" });
  const inputLabel = h("label", { for: "chat-input" }, gettext("Say something"));
  const error = h("p", { class: "error", role: "alert", id: "chat-error" });
  const form = h("form", { class: "chat-form" }, inputLabel,
    h("div", { class: "chat-say" }, input, h("button", { type: "submit" }, gettext("Send"))),
    error);
  const muteButton = h("button", { type: "button", class: "linkish", id: "chat-mute",
    "aria-pressed": "false" }, gettext("Mute this chat"));
  const section = h("section", { class: "chat card", id: "chat", "aria-labelledby": "chat-h" },
    h("h2", { id: "chat-h" }, gettext("Chat")), tabs, panel, session.token ? form : null,
    session.token ? h("p", null, muteButton) : null);
  parent.append(section);

  function renderTabs() {
    clear(tabs);
    tabs.hidden = rooms.length < 2;
    for (const room of rooms) {
      const selected = room === shown;
      const tab = h("button", { type: "button", role: "tab", id: `chat-tab-${room}`,
        "aria-selected": String(selected), "aria-controls": "chat-panel",
        tabindex: selected ? "0" : "-1" }, roomName(room));
      tab.addEventListener("click", () => {
        shown = room;
        renderTabs();
        renderLines();
      });
      tab.addEventListener("keydown", (event) => {
        if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
        const next = rooms[(rooms.indexOf(room) + 1) % rooms.length];
        shown = next;
        renderTabs();
        renderLines();
        /** @type {HTMLElement | null} */ (tabs.querySelector(`#chat-tab-${next}`))?.focus();
      });
      tabs.append(tab);
    }
    panel.setAttribute("aria-labelledby", rooms.length > 1 ? `chat-tab-${shown}` : "chat-h");
  }

  function renderLines() {
    const here = lines.filter((line) => line.room === shown);
    clear(list).append(...here.map((line) => h("li", { dataset: { line: String(line.id) } },
      h("span", { class: "chat-author" }, line.author), " ",
      h("span", { class: "chat-body" }, line.body), " ", timeTag(line.created_at),
      session.token && line.author !== session.username ? reportButton(
        { line: line.id }, gettext("Report"),
        interpolate(gettext("Report this line by %(name)s"), { name: line.author })) : null)));
    if (!here.length) {
      list.append(h("li", { class: "muted" }, muted ? gettext("You muted this chat.")
        : gettext("Nothing said yet.")));
    }
    list.scrollTop = list.scrollHeight;
  }

  /** @param {{lines: Line[], next_after: number, rooms: string[], room: string | null,
   *   muted: boolean}} answer */
  function take(answer) {
    const known = new Set(lines.map((line) => line.id));
    lines.push(...answer.lines.filter((line) => !known.has(line.id)));
    const grew = answer.rooms.length !== rooms.length;
    rooms = answer.rooms;
    myRoom = answer.room;
    muted = answer.muted;
    if (!rooms.includes(shown)) shown = myRoom && rooms.includes(myRoom) ? myRoom : rooms[0];
    muteButton.setAttribute("aria-pressed", String(muted));
    muteButton.textContent = muted ? gettext("Unmute this chat") : gettext("Mute this chat");
    inputLabel.textContent = myRoom === "spectators" ? gettext("Say something to the spectators")
      : gettext("Say something to the players");
    after = Math.max(after, answer.next_after);
    renderTabs();
    renderLines();
    return grew;
  }

  async function reload() {
    lines = [];
    after = 0;
    for (;;) {
      const answer = await api.get(`/api/matches/${id}/chat?after=${after}&limit=500`,
        { signal });
      take(answer);
      if (answer.lines.length < 500) break;
    }
  }

  function follow() {
    if (following || !session.token) return;
    following = true;
    live({
      stream: (/** @type {number} */ cursor) => `/api/matches/${id}/chat/stream?after=${cursor}`,
      poll: (/** @type {number} */ cursor, wait) => `/api/matches/${id}/chat/events?after=${cursor}&wait=${wait}`,
    }, after, (answer) => {
      take(answer);
      return after;
    }, signal).catch(() => {});
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    error.textContent = "";
    try {
      const line = await api.post(`/api/matches/${id}/chat`, { body: text });
      input.value = "";
      take({ lines: [line], next_after: after, rooms, room: myRoom, muted });
    } catch (failure) {
      error.textContent = failure instanceof ApiError && failure.code === "throttled"
        ? gettext("You are writing too fast; wait a moment.") : /** @type {Error} */ (failure).message;
    }
  });

  muteButton.addEventListener("click", async () => {
    muteButton.disabled = true;
    try {
      await request(muted ? "DELETE" : "PUT", `/api/matches/${id}/chat/mute`);
      await reload();
    } catch (failure) {
      error.textContent = /** @type {Error} */ (failure).message;
    } finally {
      muteButton.disabled = false;
    }
  });

  return {
    /** Read the chat and follow it live. */
    async start() {
      try {
        await reload();
      } catch {
        section.hidden = true;
        return;
      }
      follow();
    },
    reload,
  };
}
