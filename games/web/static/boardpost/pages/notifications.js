// @ts-check
// Notification settings: this device's Web Push, the other devices, what is sent by push and
// by mail, the daily digest, vacation and reminders (pages/vacation.js), and the email address
// with its verification.

import { api, request } from "../api.js";
import { clear, h, notice } from "../dom.js";
import { LOCALE, gettext, interpolate } from "../i18n.js";
import * as push from "../push.js";
import { vacationPart } from "./vacation.js";

/** @typedef {import("../app.js").PageContext} PageContext */
/** What GET /api/me/notifications answers (see docs/openapi.yaml, NotificationSettings).
 * @typedef {Object<string, any>} Settings */
/** @typedef {(body: Object<string, unknown>) => Promise<void>} Save */

const KINDS = [
  ["your_turn", gettext("Your turn")],
  ["deadline_soon", gettext("A deadline soon")],
  ["invited", gettext("An invitation")],
  ["match_finished", gettext("A match finished (with the rating change)")],
  ["vacation_ending", gettext("A day of vacation left")],
  ["vacation_ended", gettext("Vacation over")],
  ["auto_vacation_started", gettext("A vacation started instead of a timeout")],
  ["chat", gettext("A line in your match's chat")],
  ["export_ready", gettext("Your data export is ready")],
];

/**
 * @param {HTMLElement} main @param {string[]} _params @param {PageContext} ctx
 */
export async function render(main, _params, ctx) {
  const box = h("div", { id: "notification-settings" });
  main.append(h("h1", null, gettext("Notifications")), box);
  // The page's notice line (notice() draws it and gives nothing back to put anywhere else).
  const say = (/** @type {string} */ text, kind = "info") => notice(text, kind);

  async function draw() {
    const settings = await api.get("/api/me/notifications", { signal: ctx.signal });
    const devices = await api.get("/api/me/push-subscriptions", { signal: ctx.signal });
    const mine = await push.currentSubscription().catch(() => null);
    const vacation = await vacationPart(settings.reminder_offsets, say, ctx.signal);
    clear(box).append(
      devicePart(settings, devices, mine),
      preferencesPart(settings),
      vacation,
      emailPart(settings),
    );
  }

  /**
   * @param {Settings} settings @param {Object<string, any>[]} devices
   * @param {PushSubscription | null} mine
   */
  function devicePart(settings, devices, mine) {
    const part = h("section", { "aria-labelledby": "push-heading" },
      h("h2", { id: "push-heading" }, gettext("This device and your other devices")));
    if (!settings.push_available) {
      part.append(h("p", { class: "muted" }, gettext("This server does not send push notifications.")));
    } else if (push.needsHomeScreen()) {
      part.append(homeScreenGuide());
    } else if (!push.supported()) {
      part.append(h("p", { class: "muted" },
        gettext("This browser cannot receive push notifications.")));
    } else if (!mine) {
      const name = h("input", { id: "device-name", value: guessName(), maxlength: 100 });
      part.append(h("p", null, h("label", { for: "device-name" }, gettext("Name of this device")),
        " ", name),
        h("button", { type: "button", id: "push-enable", onClick: async () => {
          try {
            await push.enable(name.value.trim());
            await draw();
          } catch (error) {
            say(error.message, "error");
          }
        } }, gettext("Notify me on this device")));
    } else {
      part.append(h("p", null, gettext("This device receives push notifications."), " ",
        h("button", { type: "button", id: "push-disable", onClick: async () => {
          // The push service forgets it; the server removes it at its next push (410).
          await push.disable(null);
          await draw();
        } }, gettext("Stop on this device"))));
    }
    const list = h("ul", { class: "devices" });
    for (const device of devices) {
      list.append(h("li", null,
        `${device.name || gettext("Unnamed device")} (${device.endpoint_host})`,
        device.last_used_at ? h("span", { class: "muted" }, " ",
          interpolate(gettext("last used %(date)s"), {
            date: new Date(device.last_used_at).toLocaleDateString(LOCALE, { dateStyle: "medium" }),
          })) : "",
        " ",
        h("button", { type: "button", class: "linkish", onClick: async () => {
          await api.del(`/api/me/push-subscriptions/${device.id}`);
          await draw();
        } }, gettext("Remove"))));
    }
    if (devices.length) part.append(list);
    else part.append(h("p", { class: "muted" }, gettext("No device receives push notifications yet.")));
    return part;
  }

  /** On an iPhone or iPad, push reaches only the app added to the Home Screen: how to add it. */
  function homeScreenGuide() {
    return h("div", { id: "install-guide", class: "card install-guide" },
      h("p", null, gettext("On iPhone and iPad, notifications reach Boardpost only once it is "
        + "added to the Home Screen:")),
      h("ol", null,
        h("li", null, gettext("In Safari, tap the Share button (the square with an arrow).")),
        h("li", null, gettext("Choose “Add to Home Screen”, then “Add”.")),
        h("li", null, gettext("Open Boardpost from its icon on the Home Screen and turn "
          + "notifications on here."))));
  }

  /** @param {Settings} settings */
  function preferencesPart(settings) {
    /** @type {Save} */
    const save = async (body) => {
      try {
        await request("PATCH", "/api/me/notifications", { body });
      } catch (error) {
        say(error.message, "error");
      }
    };
    const rows = KINDS.map(([kind, label]) => h("tr", null,
      h("th", { scope: "row" }, label),
      ...["push", "email"].map((channel) => h("td", null, h("input", {
        type: "checkbox", "data-kind": kind,
        "aria-label": interpolate(channel === "push" ? gettext("%(kind)s by push")
          : gettext("%(kind)s by email"), { kind: label }),
        "data-channel": channel, checked: settings.preferences[kind][channel],
        onChange: (event) => save({ preferences: { [kind]: { [channel]:
          /** @type {HTMLInputElement} */ (event.target).checked } } }),
      })))));
    return h("section", { "aria-labelledby": "pref-heading" },
      h("h2", { id: "pref-heading" }, gettext("What to tell you")),
      h("table", { class: "list" },
        h("thead", null, h("tr", null, ["", gettext("Push"), gettext("Email")].map((t) => h("th",
          { scope: "col" }, t || h("span", { class: "sr-only" }, gettext("Kind")))))),
        h("tbody", null, rows)),
      h("p", null, h("label", null, h("input", {
        type: "checkbox", id: "email-digest", checked: settings.email_digest,
        onChange: (event) => save({
          email_digest: /** @type {HTMLInputElement} */ (event.target).checked }),
      }), " ", gettext("One daily email digest instead of one email each"))),
      digestTime(settings, save),
      h("p", { class: "muted" }, gettext("Nothing is sent about a match you are watching here.")));
  }

  /** @param {Settings} settings @param {Save} save */
  function digestTime(settings, save) {
    const hours = h("select", {
      id: "digest-hour", onChange: (event) => save({
        digest_hour: Number(/** @type {HTMLSelectElement} */ (event.target).value) }),
    }, Array.from({ length: 24 }, (_, hour) => h("option", {
      value: String(hour), selected: hour === settings.digest_hour,
    }, new Date(Date.UTC(2000, 0, 1, hour)).toLocaleTimeString(LOCALE,
      { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC" }))));
    const zones = timeZones(settings.time_zone);
    const zone = h("select", {
      id: "time-zone", onChange: (event) => save({
        time_zone: /** @type {HTMLSelectElement} */ (event.target).value }),
    }, zones.map((name) => h("option", { value: name, selected: name === settings.time_zone }, name)));
    return h("p", null, h("label", { for: "digest-hour" }, gettext("The digest comes at")), " ",
      hours, " ", h("label", { for: "time-zone" }, gettext("in the time zone")), " ", zone);
  }

  /** @param {Settings} settings */
  function emailPart(settings) {
    const input = h("input", { type: "email", id: "email", value: settings.email, maxlength: 254 });
    const status = settings.email
      ? (settings.email_verified ? gettext("verified")
        : gettext("not verified yet: follow the link we mailed you"))
      : gettext("no address");
    return h("section", { "aria-labelledby": "email-heading" },
      h("h2", { id: "email-heading" }, gettext("Email")),
      h("form", { onSubmit: async (event) => {
        event.preventDefault();
        try {
          await request("PUT", "/api/me/email", { body: { email: input.value.trim() } });
          await draw();
          if (input.value.trim()) say(gettext("We mailed you a link to confirm the address."));
        } catch (error) {
          say(error.message, "error");
        }
      } }, h("label", { for: "email" }, gettext("Address")), " ", input, " ",
      h("button", { type: "submit" }, gettext("Save"))),
      h("p", { class: "muted", id: "email-status" },
        interpolate(gettext("Status: %(status)s."), { status })),
      settings.email && !settings.email_verified ? h("button", { type: "button", onClick: async () => {
        await api.post("/api/me/email/verification");
        say(gettext("We mailed you the link again."));
      } }, gettext("Send the link again")) : "");
  }

  await draw();
}

/** @param {string} current @returns {string[]} */
function timeZones(current) {
  const here = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const known = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return [...new Set([current, here, "UTC", ...known].filter(Boolean))].sort();
}

function guessName() {
  const agent = navigator.userAgent;
  const browser = /Firefox/.test(agent) ? "Firefox" : /Edg\//.test(agent) ? "Edge"
    : /Chrome/.test(agent) ? "Chrome" : /Safari/.test(agent) ? "Safari" : gettext("Browser");
  const system = /Android/.test(agent) ? "Android" : /iPhone|iPad/.test(agent) ? "iOS"
    : /Mac/.test(agent) ? "Mac" : /Windows/.test(agent) ? "Windows" : /Linux/.test(agent) ? "Linux" : "";
  return system ? interpolate(gettext("%(browser)s on %(system)s"), { browser, system }) : browser;
}
