// @ts-check
// Reporting a player, a chat line or a match to the moderators: a button that opens a dialog
// with the reason and a note (POST /api/reports). The reported player is never told.

import { api } from "./api.js";
import { h, notice } from "./dom.js";
import { gettext } from "./i18n.js";

/** What a report is about: exactly one of them.
 * @typedef {{username?: string, line?: number, match?: string}} ReportTarget */

/** The reasons, as the API names them, with their labels. */
function reasons() {
  return [["abuse", gettext("Abuse")], ["stalling", gettext("Stalling")],
    ["cheating", gettext("Cheating")], ["other", gettext("Other")]];
}

let dialogs = 0;

/** Open the report dialog for `target`; `about` names it in the dialog's title.
 * @param {ReportTarget} target @param {string} about @param {HTMLElement} [returnTo] */
export function openReport(target, about, returnTo) {
  dialogs += 1;
  const n = dialogs;
  const reason = h("select", { id: `report-reason-${n}`, required: true },
    reasons().map(([value, label]) => h("option", { value }, label)));
  const note = h("textarea", { id: `report-note-${n}`, rows: 3, maxlength: 1000 });
  const status = h("p", { class: "error", role: "alert" });
  const dialog = h("dialog", { class: "report-dialog", "aria-labelledby": `report-h-${n}` });
  const close = () => {
    dialog.close();
    dialog.remove();
    returnTo?.focus();
  };
  const form = h("form", { method: "dialog" },
    h("h2", { id: `report-h-${n}` }, about),
    h("div", { class: "field" }, h("label", { for: `report-reason-${n}` }, gettext("Reason")),
      reason),
    h("div", { class: "field" }, h("label", { for: `report-note-${n}` },
      gettext("What happened (optional)")), note),
    status,
    h("div", { class: "actions" },
      h("button", { type: "submit" }, gettext("Send the report")),
      h("button", { type: "button", class: "secondary", onClick: close }, gettext("Cancel"))));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    status.textContent = "";
    try {
      await api.post("/api/reports", { ...target, reason: reason.value, note: note.value });
      close();
      notice(gettext("Thank you: the moderators will look at it."));
    } catch (error) {
      status.textContent = /** @type {Error} */ (error).message;
    }
  });
  dialog.addEventListener("cancel", (event) => {
    event.preventDefault();
    close();
  });
  dialog.append(form);
  document.body.append(dialog);
  dialog.showModal();
  reason.focus();
}

/** A button that opens the report dialog.
 * @param {ReportTarget} target @param {string} label the button's text
 * @param {string} about the dialog's title @param {string} [className] */
export function reportButton(target, label, about, className = "linkish") {
  const button = h("button", { type: "button", class: className }, label);
  button.addEventListener("click", () => openReport(target, about, button));
  return button;
}
