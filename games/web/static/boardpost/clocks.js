// @ts-check
// Correspondence clocks in words: a match's time control ("3 d per turn", "3 d + 1 d a move,
// up to 7 d") and each seat's time left (GET /api/matches/{id} `clocks`), counting down on the
// match page while the seat's clock counts. The server computes every figure; this only
// subtracts the seconds that passed since the answer arrived.

import { h } from "./dom.js";
import { gettext, interpolate, ngettext } from "./i18n.js";

/** @typedef {import("./api.js").TimeControl} TimeControl */
/** @typedef {import("./api.js").MatchClocks} MatchClocks */

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86400;

/** A length of time, short: "3 d", "4 h", "1 d 12 h", "1 h 30 min", "45 min".
 * @param {number} seconds */
export function durationText(seconds) {
  if (seconds >= DAY && seconds % DAY === 0) {
    return interpolate(gettext("%(n)s d"), { n: seconds / DAY });
  }
  if (seconds >= DAY) {
    return interpolate(gettext("%(d)s d %(h)s h"),
      { d: Math.floor(seconds / DAY), h: Math.floor((seconds % DAY) / HOUR) });
  }
  if (seconds >= HOUR && seconds % HOUR === 0) {
    return interpolate(gettext("%(n)s h"), { n: seconds / HOUR });
  }
  if (seconds >= HOUR) {
    return interpolate(gettext("%(h)s h %(m)s min"),
      { h: Math.floor(seconds / HOUR), m: Math.floor((seconds % HOUR) / MINUTE) });
  }
  return interpolate(gettext("%(n)s min"), { n: Math.ceil(seconds / MINUTE) });
}

/** What a match's clock is: per move or a bank, and whether weekends pause it.
 * @param {TimeControl | null | undefined} control */
export function timeControlText(control) {
  if (!control) return gettext("no time control");
  let text;
  if (control.kind === "per_move") {
    const turn = control.turn_seconds;
    if (turn % DAY === 0) {
      text = interpolate(ngettext("%(n)s d per turn", "%(n)s d per turn", turn / DAY),
        { n: turn / DAY });
    } else if (turn % HOUR === 0) {
      text = interpolate(ngettext("%(n)s h per turn", "%(n)s h per turn", turn / HOUR),
        { n: turn / HOUR });
    } else {
      text = interpolate(gettext("%(time)s per turn"), { time: durationText(turn) });
    }
  } else {
    text = control.increment_seconds
      ? interpolate(gettext("%(initial)s + %(increment)s a move, up to %(maximum)s"), {
        initial: durationText(control.initial_seconds),
        increment: durationText(control.increment_seconds),
        maximum: durationText(control.maximum_seconds),
      })
      : interpolate(gettext("%(initial)s in all"),
        { initial: durationText(control.initial_seconds) });
  }
  return control.weekend_pause ? `${text} · ${gettext("weekends off")}` : text;
}

/** A seat's time left, to the minute above an hour and to the second below.
 * @param {number} seconds */
export function timeLeftText(seconds) {
  const left = Math.max(0, Math.floor(seconds));
  if (left >= DAY) {
    return interpolate(gettext("%(d)s d %(h)s h"),
      { d: Math.floor(left / DAY), h: Math.floor((left % DAY) / HOUR) });
  }
  if (left >= HOUR) {
    return interpolate(gettext("%(h)s h %(m)s min"),
      { h: Math.floor(left / HOUR), m: Math.floor((left % HOUR) / MINUTE) });
  }
  return interpolate(gettext("%(m)s min %(s)s s"),
    { m: Math.floor(left / MINUTE), s: left % MINUTE });
}

/** The seconds left on a seat's clock now, the answer having arrived at `receivedAt` (ms).
 * @param {MatchClocks} clocks @param {number} seat @param {number} receivedAt */
export function secondsLeft(clocks, seat, receivedAt) {
  const clock = clocks.seats[seat];
  if (!clock.counting) return clock.time_left;
  return Math.max(0, clock.time_left - Math.floor((Date.now() - receivedAt) / 1000));
}

/** A seat's clock for the match page's seat list; null without a clock or when it is not the
 * seat's turn. Counting clocks carry data-counting so `tickClocks` can count them down.
 * @param {MatchClocks | null | undefined} clocks @param {number} seat @param {number} receivedAt
 * @returns {HTMLElement | null} */
export function seatClock(clocks, seat, receivedAt) {
  const clock = clocks?.seats[seat];
  if (!clocks || !clock || !clock.on_turn) return null;
  const left = secondsLeft(clocks, seat, receivedAt);
  const note = clock.vacation ? gettext("stopped")
    : !clock.counting ? gettext("paused for the weekend") : null;
  return h("span", {
    class: ["tag", "clock", clock.counting && "running", clock.counting && left < HOUR && "low"],
    role: "timer",
    title: gettext("Time left"),
    dataset: { clockSeat: seat, counting: clock.counting ? "true" : "false" },
  }, h("span", { class: "clock-left" }, timeLeftText(left)), note ? ` (${note})` : "");
}

/** Count the page's running clocks down (call once a second).
 * @param {ParentNode} root @param {MatchClocks | null | undefined} clocks
 * @param {number} receivedAt */
export function tickClocks(root, clocks, receivedAt) {
  if (!clocks) return;
  for (const node of root.querySelectorAll("[data-clock-seat][data-counting='true']")) {
    const seat = Number(/** @type {HTMLElement} */ (node).dataset.clockSeat);
    const left = secondsLeft(clocks, seat, receivedAt);
    const text = node.querySelector(".clock-left");
    if (text) text.textContent = timeLeftText(left);
    node.classList.toggle("low", left < HOUR);
  }
}

// The clocks the lobby's create form offers: per move (hours up to half a day, then whole
// days) and banks of time (an initial bank, an increment a move and a maximum, in seconds).
export const PER_MOVE_HOURS = [1, 2, 4, 8, 12];
export const PER_MOVE_DAYS = [1, 2, 3, 5, 7, 14];
/** @type {[number, number, number][]} */
export const BANKS = [
  [DAY, 4 * HOUR, 2 * DAY],
  [3 * DAY, DAY, 7 * DAY],
  [7 * DAY, 2 * DAY, 14 * DAY],
];

/** The create form's clock choice as the request's time_control (null: none). A choice is
 * "h<hours>", "d<days>" or "b<initial>-<increment>-<maximum>" (seconds).
 * @param {string} choice @param {boolean} weekendPause
 * @returns {Object<string, unknown> | null} */
export function chosenTimeControl(choice, weekendPause) {
  if (!choice) return null;
  const pause = weekendPause ? { weekend_pause: true } : {};
  if (choice[0] === "b") {
    const [initial, increment, maximum] = choice.slice(1).split("-").map(Number);
    return { kind: "bank", initial_seconds: initial, increment_seconds: increment,
      maximum_seconds: maximum, ...pause };
  }
  const amount = Number(choice.slice(1));
  return { kind: "per_move", turn_seconds: amount * (choice[0] === "h" ? HOUR : DAY), ...pause };
}

/** The create form's clock select: none, per move, or a bank (by id "clock"). */
export function clockSelect() {
  return h("select", { id: "clock", name: "clock" },
    h("option", { value: "" }, gettext("No time limit")),
    h("optgroup", { label: gettext("Per move") },
      PER_MOVE_HOURS.map((n) => h("option", { value: `h${n}` },
        interpolate(ngettext("%(n)s hour per move", "%(n)s hours per move", n), { n }))),
      PER_MOVE_DAYS.map((n) => h("option", { value: `d${n}` },
        interpolate(ngettext("%(n)s day per move", "%(n)s days per move", n), { n })))),
    h("optgroup", { label: gettext("Time bank") },
      BANKS.map(([initial, increment, maximum]) => h("option", {
        value: `b${initial}-${increment}-${maximum}`,
      }, timeControlText({ kind: "bank", initial_seconds: initial, increment_seconds: increment,
        maximum_seconds: maximum, weekend_pause: false, vacation_allowed: true })))));
}
