// @ts-check
// A forgotten password: ask for the mail (POST /api/auth/password/forgot, at /password/forgot),
// and choose a new password with its link (POST /api/auth/password/reset, at /password/reset,
// the link's uid and token in the query).

import { api } from "../api.js";
import { actionForm, h, link, notice } from "../dom.js";
import { gettext } from "../i18n.js";

/** @typedef {import("../app.js").PageContext} PageContext */

/** @param {string} id @param {string} title @param {HTMLInputElement} input @param {string} label
 * @param {string} submit @param {() => Promise<void>} action */
function form(id, title, input, label, submit, action) {
  return actionForm({ id, className: "card narrow", label: submit, action, children: [
    h("h2", null, title),
    h("div", { class: "field" }, h("label", { for: input.id }, label), input)] });
}

/** @param {HTMLElement} main */
function forgot(main) {
  const email = h("input", { id: "forgot-email", type: "email", required: true,
    autocomplete: "email", maxlength: 254 });
  const done = h("p", { id: "forgot-done", role: "status" });
  main.append(h("h1", null, gettext("Forgot your password?")),
    h("p", { class: "lead" }, gettext("Give the email address of your account: a mail with a link to choose a new password goes to it.")),
    form("forgot-form", gettext("Send the link"), email, gettext("Email address"),
      gettext("Send"), async () => {
        const answer = await api.post("/api/auth/password/forgot", { email: email.value.trim() },
          { auth: false });
        done.textContent = answer.message;
      }),
    done);
}

/** @param {HTMLElement} main @param {PageContext} ctx */
function reset(main, ctx) {
  const password = h("input", { id: "reset-password", type: "password", required: true,
    autocomplete: "new-password", maxlength: 128 });
  main.append(h("h1", null, gettext("Choose a new password")),
    form("reset-form", gettext("New password"), password, gettext("New password"),
      gettext("Save the password"), async () => {
        await api.post("/api/auth/password/reset", {
          uid: ctx.query.get("uid") || "", token: ctx.query.get("token") || "",
          password: password.value,
        }, { auth: false });
        notice(gettext("Your password is changed. Sign in with it."));
        ctx.navigate("/signin");
      }),
    h("p", null, link("/password/forgot", gettext("Ask for a new link"))));
}

/**
 * @param {HTMLElement} main @param {string[]} params @param {PageContext} ctx
 */
export async function render(main, params, ctx) {
  if (params[0] === "reset") reset(main, ctx);
  else forgot(main);
}
