// @ts-check
// The vacation part of the settings page: start or end a vacation with the bank left, the
// auto-vacation switch, and when to be reminded before a deadline (GET/PUT/DELETE/PATCH
// /api/me/vacation; reminder_offsets of /api/me/notifications).

import { api, request } from "../api.js";
import { clear, dateTime, h } from "../dom.js";
import { gettext, interpolate, ngettext } from "../i18n.js";

/** What GET /api/me/vacation answers (docs/openapi.yaml, Vacation).
 * @typedef {{on_vacation: boolean, since: string | null, left_seconds: number,
 *   runs_out_at: string | null, auto_vacation: boolean, cap_seconds: number,
 *   accrual_seconds_per_day: number, as_of: string}} Vacation */

/** The offsets a player picks from (seconds before a deadline); the server takes at most
 * five, each from 15 minutes to 7 days. */
const OFFSETS = [900, 1800, 3600, 2 * 3600, 4 * 3600, 8 * 3600, 12 * 3600, 86400, 2 * 86400,
  3 * 86400, 7 * 86400];
const MOST_OFFSETS = 5;

/** "3 days 4 hours", "5 hours", "0 hours": the bank in whole days and hours.
 * @param {number} seconds */
export function daysAndHours(seconds) {
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  const dayText = interpolate(ngettext("%(n)s day", "%(n)s days", days), { n: days });
  const hourText = interpolate(ngettext("%(n)s hour", "%(n)s hours", hours), { n: hours });
  if (!days) return hourText;
  return hours ? interpolate(gettext("%(days)s %(hours)s"), { days: dayText, hours: hourText })
    : dayText;
}

/** "15 min", "4 h", "2 d": an offset before a deadline.
 * @param {number} seconds */
function offsetText(seconds) {
  if (seconds % 86400 === 0) return interpolate(gettext("%(n)s d"), { n: seconds / 86400 });
  if (seconds % 3600 === 0) return interpolate(gettext("%(n)s h"), { n: seconds / 3600 });
  return interpolate(gettext("%(n)s min"), { n: seconds / 60 });
}

/**
 * The vacation section, drawn into a <section> it returns and redrawn after each change.
 * @param {number[]} offsets the reminder offsets the notification settings hold
 * @param {(text: string, kind?: string) => void} say the page's notice line
 * @param {AbortSignal} signal
 */
export async function vacationPart(offsets, say, signal) {
  const part = h("section", { "aria-labelledby": "vacation-heading", id: "vacation" });
  /** @param {Vacation} vacation */
  const draw = (vacation) => clear(part).append(
    h("h2", { id: "vacation-heading" }, gettext("Vacation")),
    ...bankPart(vacation),
    autoPart(vacation),
    remindersPart(offsets));

  /** @param {string} method @param {Object<string, unknown>} [body] */
  async function change(method, body) {
    try {
      draw((await request(method, "/api/me/vacation", { body })).data);
    } catch (error) {
      say(error.message, "error");
    }
  }

  /** @param {Vacation} vacation */
  function bankPart(vacation) {
    const left = daysAndHours(vacation.left_seconds);
    const status = vacation.on_vacation
      ? interpolate(gettext("You are on vacation until %(when)s, when your vacation time runs out (%(left)s left)."),
        { when: dateTime(vacation.runs_out_at), left })
      : interpolate(gettext("Vacation time in your bank: %(left)s."), { left });
    return [
      h("p", { id: "vacation-status", "aria-live": "polite" }, status),
      h("p", null, h("button", {
        type: "button", id: "vacation-toggle", "aria-pressed": String(vacation.on_vacation),
        onClick: () => change(vacation.on_vacation ? "DELETE" : "PUT"),
      }, vacation.on_vacation ? gettext("End my vacation") : gettext("Go on vacation"))),
      h("p", { class: "muted" }, interpolate(
        gettext("While you are on vacation your clocks stop in every match that allows it (except against bots only), and the time comes off your bank. You earn %(accrual)s a day off vacation, up to %(cap)s."),
        { accrual: daysAndHours(vacation.accrual_seconds_per_day),
          cap: daysAndHours(vacation.cap_seconds) })),
    ];
  }

  /** @param {Vacation} vacation */
  function autoPart(vacation) {
    return h("p", null, h("label", null, h("input", {
      type: "checkbox", id: "auto-vacation", checked: vacation.auto_vacation,
      onChange: (event) => change("PATCH", {
        auto_vacation: /** @type {HTMLInputElement} */ (event.target).checked }),
    }), " ", gettext("Auto-vacation: when my time would run out, start a vacation instead while my bank has time")));
  }

  /** @param {number[]} chosen */
  function remindersPart(chosen) {
    const mine = new Set(chosen);
    const boxes = [...new Set([...OFFSETS, ...chosen])].sort((a, b) => b - a).map((seconds) => h("label",
      { class: "offset" }, h("input", {
        type: "checkbox", "data-offset": String(seconds), checked: mine.has(seconds),
        onChange: async (event) => {
          const box = /** @type {HTMLInputElement} */ (event.target);
          const next = new Set(mine);
          if (box.checked) next.add(seconds);
          else next.delete(seconds);
          if (next.size > MOST_OFFSETS) {
            box.checked = false;
            say(interpolate(ngettext("Choose at most %(n)s reminder.", "Choose at most %(n)s reminders.",
              MOST_OFFSETS), { n: MOST_OFFSETS }), "error");
            return;
          }
          try {
            const saved = (await request("PATCH", "/api/me/notifications",
              { body: { reminder_offsets: [...next] } })).data;
            offsets = saved.reminder_offsets;
            mine.clear();
            offsets.forEach((offset) => mine.add(offset));
          } catch (error) {
            box.checked = !box.checked;
            say(error.message, "error");
          }
        },
      }), " ", offsetText(seconds)));
    return h("fieldset", { id: "reminder-offsets" },
      h("legend", null, gettext("Remind me before a deadline")),
      h("p", { class: "muted" }, interpolate(
        ngettext("Up to %(n)s reminder, once per deadline, by the channels chosen for a deadline soon.",
          "Up to %(n)s reminders, each once per deadline, by the channels chosen for a deadline soon.",
          MOST_OFFSETS), { n: MOST_OFFSETS })),
      h("div", { class: "offsets" }, boxes));
  }

  draw(await api.get("/api/me/vacation", { signal }));
  return part;
}
