// @ts-check
// One match: the position drawn by the game's module (found by the game's slug, see
// catalog.js), moves by clicking, the move log (moves a plan played marked so), the player's
// plan (plans.js), live updates through the long-poll endpoint, and a move-by-move replay once
// the match is over.

import { api, ApiError, live, markSeen, newKey, request, session } from "../api.js";
import { gameName, loadGameModule } from "../catalog.js";
import { seatClock, tickClocks, timeControlText } from "../clocks.js";
import {
  awayBadge, clear, deadlineTag, h, link, notice, preserveFocus, timeTag, withTime,
} from "../dom.js";
import { gettext, interpolate, ngettext } from "../i18n.js";
import { consistent, goalLine, myTurn, ordinal, seatLabel, statusText } from "../matchinfo.js";
import { afterMatch } from "../aftermatch.js";
import { matchChat } from "../chat.js";
import { keptFor, onOutbox } from "../offline.js";
import { planPanel } from "../plans.js";
import { reportButton } from "../report.js";

const RUNNING = new Set(["open", "active"]);

/** @typedef {import("../app.js").PageContext} PageContext */
/** @typedef {import("../api.js").Match} Match */
/** @typedef {import("../catalog.js").GameModule} GameModule */
/** @typedef {import("../catalog.js").GameUi} GameUi */
/**
 * A move-log entry (GET /api/matches/{id}/moves).
 * @typedef {{seq: number, kind: string, seat: number | null, player?: {username: string} | null,
 *   events?: {type: string}[], payload?: any, by_plan?: boolean}} LogEntry
 */

/** @param {any} error an ApiError, or any error @returns {string} */
function errorText(error) {
  const fields = error.extra?.fields;
  return fields ? `${error.message} ${Object.entries(fields)
    .map(([k, v]) => `${k}: ${[].concat(v).join(" ")}`).join("; ")}` : error.message;
}

/**
 * @param {HTMLElement} main @param {string[]} params the match's id @param {PageContext} ctx
 */
export async function render(main, [id], ctx) {
  const { signal } = ctx;
  const root = h("article", { id: "match", class: "match", "aria-busy": "true" });
  const head = h("header", { class: "match-head" });
  const message = h("div", { id: "move-message", class: "move-message", role: "alert" });
  // tabindex -1: where the keyboard focus goes when the focused control is redrawn disabled
  // (a move in flight), so the game's keys keep working.
  const board = h("section", { id: "board", class: "board-area", "aria-label": gettext("Position"),
    tabindex: "-1" });
  const logList = h("ol", { class: "log", id: "move-log" });
  const logBox = h("section", { class: "log-box", "aria-labelledby": "log-h" },
    h("h2", { id: "log-h" }, gettext("Moves")), logList);
  const replayBox = h("section", { id: "replay", class: "replay", hidden: true,
    "aria-labelledby": "replay-h" });
  const side = h("div", { class: "match-side" }, logBox);
  // The board and the log show with the match's header, at its first drawing: shown before,
  // they would be pushed down by the header arriving (a layout shift).
  const body = h("div", { class: "match-body", hidden: true }, board, side);
  // The player's plan, under the board (its seats' names are the ui's, defined below).
  const plan = planPanel({ id, signal, seatName: (seat) => ui.seatName(seat) });
  root.append(head, message, body, plan.node, replayBox);
  main.append(root);
  const chat = matchChat(side, { id, signal });
  const aftermath = afterMatch(root, { id, navigate: ctx.navigate, signal });

  let match = /** @type {Match | null} */ (null);
  // When the match's answer arrived (ms): its clocks' time_left was true then.
  let receivedAt = Date.now();
  // The seats' clocks count down once a second while the page is shown.
  const ticker = setInterval(() => tickClocks(head, match?.clocks, receivedAt), 1000);
  signal.addEventListener("abort", () => clearInterval(ticker), { once: true });
  /** @type {string | null} */
  let etag = null;
  /** @type {LogEntry[]} */
  let log = [];
  let busy = false;
  // Moves made here without a network, kept on the device until the network is back: the
  // page offers no other move meanwhile (it would answer a position the kept move changes).
  let queued = 0;
  let confirmResign = false;
  /** @type {GameUi} */
  const ui = {
    state: {},
    // A move kept on the device holds the board as busy until it has left.
    get busy() {
      return busy || queued > 0;
    },
    submit: (move) => submit(move),
    rerender: () => renderBoard(),
    say: (text) => say(text),
    seatName: (seat) => (/** @type {Match} */ (match).seats[seat]?.player?.username
      || interpolate(gettext("Seat %(n)s"), { n: seat + 1 })),
    seatIsBot: (seat) => Boolean(/** @type {Match} */ (match).seats[seat]?.player?.is_bot),
    // The newest move-log entry (its events), for the game to mark the last move.
    get lastEntry() {
      return log.findLast((entry) => entry.kind === "move") || null;
    },
    /** The newest event of this type in the log (null: none). */
    lastEvent: (type) => {
      for (let i = log.length - 1; i >= 0; i -= 1) {
        const found = (log[i].events || []).findLast((event) => event.type === type);
        if (found) return found;
      }
      return null;
    },
    boardPicture: () => boardSvg(null),
  };
  /** @type {GameModule | null} */
  let game = null; // the game's module, loaded by the match's slug before the first drawing

  /** @param {Match} m */
  function hasLegalMoves(m) {
    return Boolean(m.legal_moves) && myTurn(m) && queued === 0
      && /** @type {GameModule} */ (game).hasMoves(m.legal_moves, m);
  }

  /** @param {string} text @param {string | null} [rule] @param {string} [kind] */
  function say(text, rule = null, kind = "error") {
    clear(message);
    message.className = `move-message ${kind}`;
    if (rule) message.dataset.rule = rule;
    else delete message.dataset.rule;
    if (!text) return;
    message.append(h("p", null, text));
    // The server's message tells the rule in words; its code is shown for reference.
    if (rule) message.append(h("p", { class: "rule" }, h("code", null, rule)));
  }

  // ---------------------------------------------------------------- moves

  /** Send a move; resolves true when the server accepted it.
   * @param {unknown} move @returns {Promise<boolean>} */
  async function submit(move) {
    if (busy || queued > 0 || !match) return false;
    busy = true;
    root.dataset.busy = "true";
    renderBoard();
    /** @type {{move: unknown, expected_version?: number}} */
    const body = { move };
    if (!/** @type {GameModule} */ (game).simultaneous(match)) body.expected_version = match.version;
    try {
      const answer = await api.post(`/api/matches/${id}/moves`, body,
        { headers: { "Idempotency-Key": newKey() }, signal });
      if (answer.queued) {
        // No network: the service worker keeps the move and sends it when it can.
        queued += 1;
        say(gettext("No connection: your move is saved on this device and will be sent when "
          + "the connection is back."), null, "info");
        renderHead();
        return true;
      }
      say("");
      apply(answer.match);
      return true;
    } catch (error) {
      if (error.name === "AbortError") return false;
      if (error.code === "illegal_move") {
        say(interpolate(gettext("Illegal move: %(message)s"), { message: error.message }),
          error.rule);
      } else if (error.code === "stale_version") {
        say(gettext("The match moved on meanwhile: here is the new position."), null, "info");
        await refresh().catch(() => {});
      } else {
        say(errorText(error));
        if (error.status === 409) await refresh().catch(() => {});
      }
      return false;
    } finally {
      busy = false;
      root.dataset.busy = "false";
      renderBoard();
    }
  }

  /** @param {string} what */
  async function matchAction(what) {
    try {
      const answer = await api.post(`/api/matches/${id}/${what}`, undefined, { signal });
      if (what === "decline") {
        notice(gettext("Invitation declined."));
        ctx.navigate("/");
        return;
      }
      apply(answer);
      if (what === "resign") notice(gettext("You resigned."));
    } catch (error) {
      if (error.name !== "AbortError") say(errorText(error));
    }
  }

  // ---------------------------------------------------------------- reading

  // One read of the match at a time. Asked again while one is under way (a live message that
  // arrives during the read, or while the page's own move is in flight), it reads once more
  // when that one ends, so the page always ends on a read that began after the newest message.
  /** @type {Promise<void> | null} */
  let reading = null;
  let readAgain = false;

  /** @returns {Promise<void>} */
  function refresh() {
    if (reading) {
      readAgain = true;
      return reading;
    }
    reading = (async () => {
      try {
        do {
          readAgain = false;
          await readMatch();
        } while (readAgain && !signal.aborted);
      } finally {
        reading = null;
      }
    })();
    return reading;
  }

  async function readMatch() {
    /** @type {Object<string, string>} */
    const headers = etag ? { "If-None-Match": etag } : {};
    const answer = await request("GET", `/api/matches/${id}`, { headers, signal });
    if (answer.status === 304) return;
    etag = answer.headers.get("ETag");
    game ||= await loadGameModule(answer.data.game);
    apply(answer.data);
  }

  /** @param {Match} next */
  function apply(next) {
    if (match && next.version < match.version && next.status === match.status) return;
    const newVersion = !match || next.version !== match.version || next.status !== match.status;
    const wasRunning = match && RUNNING.has(match.status);
    match = next;
    receivedAt = Date.now();
    if (!consistent(match)) {
      // A torn read (a move committed while the server read the match): read it again.
      setTimeout(() => refresh().catch(() => {}), 300);
    }
    if (newVersion) /** @type {GameModule} */ (game).onNewVersion(ui, match);
    renderHead();
    renderBoard();
    body.hidden = false;
    plan.update(match, /** @type {GameModule} */ (game));
    tellSeen();
    if (wasRunning && !RUNNING.has(match.status)) {
      // Over: the whole log is now revealed (hidden placements, piles), so read it again;
      // and both chat rooms are shown now.
      loadLog(true).then(() => setUpReplay()).catch(() => {});
      chat.reload().catch(() => {});
    }
  }

  // The server hears that a seated player has looked at the match: when the page shows it,
  // and for each new position that arrives (or is waiting) while the page is visible; once
  // per version at most.
  /** @type {number | null} */
  let seenVersion = null;
  function tellSeen() {
    const seated = match && match.your_seat !== null && match.your_seat !== undefined;
    if (!seated || document.visibilityState !== "visible"
      || seenVersion === /** @type {Match} */ (match).version) return;
    seenVersion = /** @type {Match} */ (match).version;
    markSeen(id, signal);
  }
  document.addEventListener("visibilitychange", tellSeen);
  signal.addEventListener("abort", () => document.removeEventListener("visibilitychange",
    tellSeen), { once: true });

  /** @returns {Promise<number>} the next `after` of the log */
  async function loadLog(fromStart = false) {
    let after = fromStart ? 0 : (log.at(-1)?.seq ?? 0);
    const entries = fromStart ? [] : [...log];
    for (;;) {
      const page = await api.get(`/api/matches/${id}/moves?after=${after}&limit=500`, { signal });
      entries.push(...page.moves);
      after = page.next_after;
      if (page.moves.length < 500) break;
    }
    log = entries;
    renderLog();
    return after;
  }

  // ---------------------------------------------------------------- drawing

  function renderHead() {
    const m = /** @type {Match} */ (match);
    const mySeat = m.your_seat;
    const me = mySeat !== null && mySeat !== undefined ? m.seats[mySeat] : null;
    root.dataset.game = m.game;
    root.dataset.client = /** @type {GameModule} */ (game).fallback ? "generic" : m.game;
    root.dataset.status = m.status;
    root.dataset.version = String(m.version);
    root.dataset.yourTurn = hasLegalMoves(m) ? "true" : "false";
    root.dataset.busy = busy ? "true" : "false";
    root.setAttribute("aria-busy", "false");
    document.title = `${myTurn(m) ? "▶ " : ""}${gameName(m.game)} · Boardpost`;

    const seats = h("ul", { class: "seats plain", "aria-label": gettext("Players") }, m.seats.map((seat) => {
      const acting = m.status === "active" && m.to_act.includes(seat.index);
      const name = seat.player ? link(`/player/${encodeURIComponent(seat.player.username)}`,
        seat.player.username) : h("em", null, gettext("open seat"));
      return h("li", { class: ["seat-chip", acting && "acting", seat.index === mySeat && "mine"],
        dataset: { seat: seat.index } },
      h("span", { class: "seat-no" }, `${seat.index + 1}`),
      acting ? h("span", { class: "to-act", title: gettext("to act") }, "▶ ") : null,
      name,
      seat.player?.is_bot ? h("span", { class: "tag" }, gettext("bot")) : null,
      seat.index === mySeat ? h("span", { class: "tag you" }, gettext("you")) : null,
      seat.on_vacation ? awayBadge() : null,
      seat.player && !seat.joined ? h("span", { class: "tag" }, gettext("invited")) : null,
      seat.forfeited ? h("span", { class: "tag" }, gettext("left")) : null,
      m.status === "active" ? seatClock(m.clocks, seat.index, receivedAt) : null,
      seat.rank ? h("span", { class: "tag rank" }, `${ordinal(seat.rank)}`
        + `${seat.score !== null && seat.score !== undefined ? ` · ${seat.score}` : ""}`) : null);
    }));

    const actions = h("div", { class: "actions" });
    if (m.status === "open" && m.invitation_pending) {
      actions.append(
        h("button", { type: "button", class: "primary", onClick: () => matchAction("join") },
          gettext("Accept invitation")),
        h("button", { type: "button", onClick: () => matchAction("decline") }, gettext("Decline")));
    } else if (m.status === "open" && !me && m.seats.some((s) => !s.player)) {
      actions.append(h("button", { type: "button", class: "primary", onClick: () => matchAction("join") },
        gettext("Join this match")));
    }
    const moved = log.some((entry) => entry.kind === "move");
    if (me && me.joined && RUNNING.has(m.status) && !moved) {
      actions.append(h("button", { type: "button", onClick: () => matchAction("abort") },
        gettext("Abort")));
    }
    if (me && m.status === "active" && !me.forfeited && moved) {
      if (confirmResign) {
        actions.append(h("span", null, gettext("Resign this match?"), " "),
          h("button", { type: "button", class: "danger", onClick: () => {
            confirmResign = false;
            matchAction("resign");
          } }, gettext("Yes, resign")),
          h("button", { type: "button", onClick: () => {
            confirmResign = false;
            renderHead();
          } }, gettext("No")));
      } else {
        actions.append(h("button", { type: "button", onClick: () => {
          confirmResign = true;
          renderHead();
          /** @type {HTMLElement | null} */ (head.querySelector(".danger"))?.focus();
        } }, gettext("Resign")));
      }
    }

    const facts = [
      m.unrated_reason === "timeout_run" ? gettext("unrated: a player timed out of matches in a row")
        : m.rated ? gettext("rated") : gettext("casual"),
      timeControlText(m.time_control),
      interpolate(ngettext("%(n)s player", "%(n)s players", m.players), { n: m.players }),
    ];
    clear(head).append(
      h("div", { class: "title-row" },
        h("h1", null, gameName(m.game)),
        h("p", { class: "facts muted" }, facts.join(" · "), " · ",
          m.started_at ? withTime(gettext("started %(time)s"), m.started_at)
            : gettext("not started yet"))),
      seats,
      statusLine(m),
      actions,
      goalLine(m, h, link));
  }

  /** @param {Match} m */
  function statusLine(m) {
    // A game may word a running match its own way (a race has no turns).
    const own = m.status === "active" ? /** @type {GameModule} */ (game).statusText(m) : null;
    const go = own ? own.go : myTurn(m);
    const deadline = m.status === "active" && m.deadline;
    return h("p", { class: ["status-line", go && "go"], id: "status-line" },
      go ? "▶ " : "", own ? own.text : statusText(m),
      deadline ? " · " : "",
      deadline && own?.deadline ? h("span", { class: "deadline" }, `${own.deadline} `,
        timeTag(m.deadline)) : deadline ? deadlineTag(m.deadline) : "");
  }

  function renderBoard() {
    if (!match) return;
    root.dataset.yourTurn = hasLegalMoves(match) ? "true" : "false";
    preserveFocus(() => {
      clear(board);
      if (!match?.view) {
        board.append(h("p", { class: "muted" }, match?.status === "aborted"
          ? gettext("This match was called off before it started.")
          : gettext("The match starts once every seat is taken.")));
        return;
      }
      /** @type {GameModule} */ (game).render(board, match, ui);
    }, board);
  }

  /** @param {LogEntry} entry */
  function actorName(entry) {
    if (entry.player) return entry.player.username;
    if (entry.kind === "system") return gettext("server");
    return entry.seat !== null ? interpolate(gettext("Seat %(n)s"), { n: entry.seat + 1 })
      : gettext("server");
  }

  /** A vacation's entry (the server stopped or restarted a seat's clock), in words; null for
   * any other entry. @param {LogEntry} entry @returns {string | null} */
  function vacationText(entry) {
    const note = entry.kind === "system" ? entry.payload : null;
    if (!match || note?.reason !== "vacation" || typeof note.seat !== "number") return null;
    const name = seatLabel(match, note.seat);
    return note.away ? interpolate(gettext("%(name)s is on vacation: their clock stopped"), { name })
      : interpolate(gettext("%(name)s is back from vacation: their clock runs again"), { name });
  }

  function renderLog() {
    const over = match && !RUNNING.has(match.status);
    clear(logList);
    for (const entry of log) {
      const said = interpolate(gettext("%(who)s: %(move)s"),
        { who: actorName(entry),
          move: vacationText(entry)
            ?? (game ? game.describe(entry, /** @type {Match} */ (match)) : entry.kind) });
      // A move its player's plan played is marked so, for every seat and spectator.
      const text = entry.by_plan ? `${said} ${gettext("(by plan)")}` : said;
      logList.append(h("li", { value: entry.seq,
        dataset: { seq: entry.seq, byPlan: entry.by_plan ? "true" : null } },
        over ? h("button", {
          type: "button", class: "linkish", onClick: () => replayTo(entry.seq),
          "aria-label": interpolate(gettext("Show the position after move %(seq)s: %(move)s"),
            { seq: entry.seq, move: text }),
        }, text) : text));
    }
    if (!log.length) logList.append(h("li", { class: "muted" }, gettext("No moves yet.")));
    logList.scrollTop = logList.scrollHeight;
    if (match) {
      renderHead();
      renderBoard();
      aftermath.update(match, log);
    }
  }

  // ---------------------------------------------------------------- replay

  /** @type {number | null} */
  let replaySeq = null;
  /** @type {string | null} */
  let replayUrl = null;
  let svgMissing = false;
  /** @type {Map<number, Blob>} */
  const svgCache = new Map();

  /** The server's picture of the position after move `seq` (null: the current position).
   * @param {number | null} seq @returns {Promise<Blob>} */
  async function boardSvg(seq) {
    if (seq !== null && svgCache.has(seq)) return /** @type {Blob} */ (svgCache.get(seq));
    const query = seq === null ? "" : `?seq=${seq}`;
    const response = await fetch(`/api/matches/${id}/board.svg${query}`, {
      headers: session.token ? { Authorization: `Token ${session.token}` } : {}, signal,
      credentials: "omit",
    });
    if (!response.ok) {
      let body = null;
      try {
        body = await response.json();
      } catch {
        /* not JSON */
      }
      throw new ApiError(response.status, body);
    }
    const blob = await response.blob();
    if (seq !== null) svgCache.set(seq, blob);
    return blob;
  }

  function setUpReplay() {
    if (!match || RUNNING.has(match.status) || !match.view) return;
    const last = match.version;
    const range = h("input", {
      type: "range", id: "replay-seq", min: 0, max: last, value: last, step: 1,
      "aria-label": gettext("Move number"),
    });
    const output = h("output", { id: "replay-position", for: "replay-seq" });
    const image = h("img", { id: "replay-board", alt: "", class: "replay-board" });
    const caption = h("p", { id: "replay-caption", class: "caption", "aria-live": "polite" });
    // The visible word is the button's name; the arrows are decoration.
    /** @type {(label: string, word: string, to: () => number, before?: string, after?: string)
     * => HTMLButtonElement} */
    const button = (label, word, to, before = "", after = "") => h("button", {
      type: "button", title: label, onClick: () => replayTo(to()),
    }, before ? h("span", { "aria-hidden": "true" }, `${before} `) : null, word,
    after ? h("span", { "aria-hidden": "true" }, ` ${after}`) : null);
    range.addEventListener("input", () => replayTo(Number(range.value)));
    clear(replayBox).append(
      h("h2", { id: "replay-h" }, gettext("Replay")),
      h("div", { class: "replay-controls" },
        button(gettext("The starting position"), gettext("First"), () => 0, "«"),
        button(gettext("The position before"), gettext("Previous"),
          () => Math.max(0, Number(replaySeq) - 1), "◀"),
        range,
        button(gettext("The position after"), gettext("Next"),
          () => Math.min(last, Number(replaySeq) + 1), "", "▶"),
        button(gettext("The final position"), gettext("Last"), () => last, "", "»"),
        output),
      h("figure", null, image, h("figcaption", null, caption)));
    replayBox.hidden = false;
    replayBox.onkeydown = (event) => {
      if (event.target === range) return;
      if (event.key === "ArrowLeft") replayTo(Math.max(0, Number(replaySeq) - 1));
      else if (event.key === "ArrowRight") replayTo(Math.min(last, Number(replaySeq) + 1));
      else return;
      event.preventDefault();
    };
    replayTo(last);
  }

  /** @param {number} seq */
  async function replayTo(seq) {
    if (replayBox.hidden) return;
    replaySeq = seq;
    const m = /** @type {Match} */ (match);
    const range = /** @type {HTMLInputElement} */ (replayBox.querySelector("#replay-seq"));
    const output = /** @type {HTMLOutputElement} */ (replayBox.querySelector("#replay-position"));
    const caption = /** @type {HTMLElement} */ (replayBox.querySelector("#replay-caption"));
    const image = /** @type {HTMLImageElement} */ (replayBox.querySelector("#replay-board"));
    range.value = String(seq);
    output.textContent = seq === 0
      ? interpolate(ngettext("Start of %(n)s move", "Start of %(n)s moves", m.version),
        { n: m.version })
      : interpolate(gettext("After move %(seq)s of %(n)s"), { seq, n: m.version });
    const entry = log.find((e) => e.seq === seq);
    caption.textContent = entry ? `${seq}. ${interpolate(gettext("%(who)s: %(move)s"),
      { who: actorName(entry), move: /** @type {GameModule} */ (game).describe(entry, m) })}`
      : gettext("The starting position.");
    for (const li of logList.querySelectorAll("li")) {
      li.classList.toggle("replay-here", Number(li.dataset.seq) === seq);
    }
    if (svgMissing) return;
    try {
      const blob = await boardSvg(seq);
      if (replaySeq !== seq) return;
      if (replayUrl) URL.revokeObjectURL(replayUrl);
      replayUrl = URL.createObjectURL(blob);
      image.src = replayUrl;
      image.alt = seq === 0 ? gettext("The board at the start")
        : interpolate(gettext("The board after move %(seq)s"), { seq });
      image.dataset.seq = String(seq);
      image.hidden = false;
    } catch (error) {
      if (error.name === "AbortError") return;
      svgMissing = true;
      image.hidden = true;
      caption.after(h("p", { class: "muted" },
        interpolate(gettext("Board pictures are not available (%(error)s); the move list shows "
          + "every move."), { error: error.message })));
    }
  }

  // ---------------------------------------------------------------- moves kept offline

  /** A kept move the server refused when it arrived: why, in the player's language.
   * @param {import("../offline.js").Refusal} refusal */
  function tellRefusal(refusal) {
    const why = refusal.code === "stale_version"
      ? gettext("the match changed before it arrived.") : refusal.message;
    say(interpolate(gettext("Your move made offline was not played: %(why)s"), { why }),
      refusal.rule);
    root.dataset.refused = refusal.code;
  }

  const stopOutbox = onOutbox((news) => {
    const about = news.type === "outbox-sent" ? news.match : news.refusal.match;
    if (about !== id) return;
    queued = Math.max(0, queued - 1);
    if (news.type === "outbox-sent") say(gettext("Your move made offline was sent."), null, "info");
    else tellRefusal(news.refusal);
    refresh().catch(() => {});
  });
  signal.addEventListener("abort", stopOutbox, { once: true });

  // ---------------------------------------------------------------- start

  const kept = await keptFor(id);
  queued = kept.queued;
  try {
    await refresh();
  } catch (error) {
    if (error.status === 404) {
      root.append(h("p", { class: "error" },
        gettext("No such match, or it is private to its players.")));
      root.setAttribute("aria-busy", "false");
      return undefined;
    }
    throw error;
  }
  // Resume the live updates from the version the page shows: a move that commits between the
  // match read and the log read is then in the first answer (and prompts a new read), where
  // resuming from the log's newest entry would wait a whole long-poll for the next one.
  if (queued) {
    say(gettext("No connection: your move is saved on this device and will be sent when "
      + "the connection is back."), null, "info");
  }
  for (const refusal of kept.refused) tellRefusal(refusal);
  const logged = await loadLog();
  chat.start();
  if (session.token) {
    side.append(h("p", { class: "report-match" }, reportButton({ match: id },
      gettext("Report this match"), gettext("Report this match"))));
  }
  let after = Math.min(logged, /** @type {Match} */ (match).version);
  if (!RUNNING.has(/** @type {Match} */ (match).status)) {
    setUpReplay();
  } else {
    // The match's stream, falling back to long-polls where streams do not get through.
    live({
      stream: (/** @type {number} */ cursor) => `/api/matches/${id}/stream?after=${cursor}`,
      poll: (/** @type {number} */ cursor, wait) => `/api/matches/${id}/events?after=${cursor}&wait=${wait}`,
    }, after,
      async (answer) => {
        if (answer.moves.length) {
          log.push(...answer.moves.filter((/** @type {LogEntry} */ m) =>
            m.seq > (log.at(-1)?.seq ?? 0)));
          renderLog();
        }
        if (!match || answer.version !== match.version || answer.status !== match.status) {
          await refresh();
        }
        if (!RUNNING.has(answer.status)) return null; // apply() reloads the log and the replay
        after = answer.next_after;
        return after;
      }, signal);
  }
  // Deadlines move on even when nothing happens.
  const timer = setInterval(() => match && renderHead(), 60000);
  return () => {
    clearInterval(timer);
    if (replayUrl) URL.revokeObjectURL(replayUrl);
  };
}
