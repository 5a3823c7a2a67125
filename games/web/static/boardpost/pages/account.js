// @ts-check
// The account page: change the password (POST /api/me/password), ask for and download one's
// data (GET/POST /api/me/exports, GET /api/me/exports/{id}/archive), and close the account,
// disabled or deleted after the grace period (GET /api/me/account, POST /api/me/account/close).

import { api, request, session } from "../api.js";
import { actionForm, clear, dateTime, h, notice } from "../dom.js";
import { gettext, interpolate, ngettext } from "../i18n.js";

/** @typedef {import("../app.js").PageContext} PageContext */
/** What GET /api/me/account answers (docs/openapi.yaml, Account).
 * @typedef {{deletion_grace_days: number, export_keep_days: number, can_close: boolean}} Account */
/** One data export (docs/openapi.yaml, DataExport).
 * @typedef {{id: string, status: string, requested_at: string, ready_at: string | null,
 *   expires_at: string | null, size: number}} DataExport */

/** @param {string} id @param {string} label @param {string} autocomplete */
function passwordField(id, label, autocomplete) {
  const input = h("input", { id, type: "password", required: true, autocomplete, maxlength: 128 });
  return { input, node: h("div", { class: "field" }, h("label", { for: id }, label), input) };
}

function passwordPart() {
  const current = passwordField("current-password", gettext("Current password"), "current-password");
  const next = passwordField("new-password", gettext("New password"), "new-password");
  return h("section", { "aria-labelledby": "password-heading", class: "card" },
    h("h2", { id: "password-heading" }, gettext("Password")),
    actionForm({ id: "password-form", children: [current.node, next.node],
      label: gettext("Change the password"), action: async () => {
        await api.post("/api/me/password",
          { current_password: current.input.value, new_password: next.input.value });
        current.input.value = next.input.value = "";
        notice(gettext("Your password is changed; your other devices are signed out."));
      } }));
}

/** @param {number} bytes */
function size(bytes) {
  const kb = Math.max(1, Math.round(bytes / 1024));
  return interpolate(gettext("%(n)s KB"), { n: kb });
}

/** @param {DataExport} item */
async function download(item) {
  const { data } = await request("GET", `/api/me/exports/${item.id}/archive`);
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const a = h("a", { href: url, download: `boardpost-${session.username}-${item.id}.json` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/** @param {Account} account @param {AbortSignal} signal */
async function exportPart(account, signal) {
  const list = h("ul", { id: "export-list", class: "plain" });
  const part = h("section", { "aria-labelledby": "export-heading", class: "card" },
    h("h2", { id: "export-heading" }, gettext("Your data")),
    h("p", { class: "muted" }, interpolate(ngettext(
      "A file (JSON) of everything Boardpost keeps about you: profile, settings, token names, matches and moves as you saw them, ratings, notifications, follows, blocks, chat lines, reports and tournaments. It is prepared in the background; you are notified when it is ready, and it can be downloaded for %(n)s day.",
      "A file (JSON) of everything Boardpost keeps about you: profile, settings, token names, matches and moves as you saw them, ratings, notifications, follows, blocks, chat lines, reports and tournaments. It is prepared in the background; you are notified when it is ready, and it can be downloaded for %(n)s days.",
      account.export_keep_days), { n: account.export_keep_days })),
    list);

  /** @param {DataExport[]} items */
  function draw(items) {
    clear(list).append(...items.map((item) => h("li", { "data-export": item.id },
      item.status === "ready"
        ? [interpolate(gettext("Ready, %(size)s, until %(when)s."),
          { size: size(item.size), when: dateTime(item.expires_at) }), " ",
        h("button", { type: "button", class: "download", onClick: () => download(item)
          .catch((err) => notice(err.message, "error")) }, gettext("Download"))]
        : interpolate(gettext("Asked for %(when)s: being prepared."),
          { when: dateTime(item.requested_at) }))));
  }

  const ask = h("button", { type: "button", id: "export-ask", onClick: async () => {
    try {
      await api.post("/api/me/exports");
      notice(gettext("Your data is being prepared; you will be notified when it is ready."));
    } catch (err) {
      notice(err.message, "error");
    }
    draw(await api.get("/api/me/exports"));
  } }, gettext("Ask for my data"));
  part.append(h("p", null, ask));
  draw(await api.get("/api/me/exports", { signal }));
  return part;
}

/** @param {Account} account @param {PageContext} ctx */
function closePart(account, ctx) {
  const part = h("section", { "aria-labelledby": "close-heading", class: "card" },
    h("h2", { id: "close-heading" }, gettext("Close your account")));
  if (!account.can_close) {
    part.append(h("p", { class: "muted" }, gettext("A guest account is deleted by itself after a while without play; sign up to keep it.")));
    return part;
  }
  const days = account.deletion_grace_days;
  /** @param {string} value @param {string} label @param {string} hint */
  const choice = (value, label, hint) => h("div", { class: "field" },
    h("label", null, h("input", { type: "radio", name: "close-kind", value,
      checked: value === "disable", "aria-describedby": `close-${value}-hint` }), " ", label),
    h("small", { id: `close-${value}-hint` }, hint));
  const kinds = h("fieldset", { id: "close-kind" },
    h("legend", null, gettext("How")),
    choice("disable", gettext("Disable my account"),
      gettext("Sign in again to open it, as it was.")),
    choice("delete", gettext("Delete my account"), interpolate(ngettext(
      "Deleted %(n)s day from now: until then, signing in cancels it. Then your email, tokens, devices, ratings, notifications, follows, blocks and chat lines are deleted, your name is never used again, and your matches show you under a pseudonym.",
      "Deleted %(n)s days from now: until then, signing in cancels it. Then your email, tokens, devices, ratings, notifications, follows, blocks and chat lines are deleted, your name is never used again, and your matches show you under a pseudonym.",
      days), { n: days })));
  const password = passwordField("close-password", gettext("Your password"), "current-password");
  part.append(
    h("p", { class: "muted" }, gettext("Either way you resign every running match, leave your tournaments and the leaderboards, and are signed out everywhere.")),
    actionForm({ id: "close-form", children: [kinds, password.node],
      label: gettext("Close my account"), action: async () => {
        const kind = /** @type {HTMLInputElement} */ (
          kinds.querySelector("input[name=close-kind]:checked")).value;
        const closed = await api.post("/api/me/account/close",
          { kind, password: password.input.value });
        session.clear();
        ctx.feed.stop();
        notice(closed.deletion_due_at
          ? interpolate(gettext("Your account will be deleted on %(when)s. Sign in before then to keep it."),
            { when: dateTime(closed.deletion_due_at) })
          : gettext("Your account is disabled. Sign in to open it again."));
        ctx.navigate("/signin");
      } }));
  return part;
}

/**
 * @param {HTMLElement} main @param {string[]} _params @param {PageContext} ctx
 */
export async function render(main, _params, ctx) {
  /** @type {Account} */
  const account = await api.get("/api/me/account", { signal: ctx.signal });
  main.append(h("h1", null, gettext("Your account")));
  if (account.can_close) main.append(passwordPart());
  main.append(await exportPart(account, ctx.signal), closePart(account, ctx));
}
