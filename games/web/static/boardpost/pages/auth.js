// @ts-check
// Sign in and register: POST /api/auth/token and POST /api/auth/register.

import { api, session } from "../api.js";
import { h, link } from "../dom.js";
import { gettext, interpolate } from "../i18n.js";
import { isGuest } from "../playnow.js";

/** @typedef {import("../app.js").PageContext} PageContext */

/** @param {string} label @param {HTMLInputElement} input @param {string} [hint] */
function field(label, input, hint) {
  const id = input.id;
  return h("div", { class: "field" },
    h("label", { for: id }, label), input, hint ? h("small", { id: `${id}-hint` }, hint) : null);
}

/**
 * @param {{id: string, title: string, submitLabel: string, autocomplete: string,
 *   hint?: string, onSubmit: (username: string, password: string) => Promise<void>}} options
 */
function form({ id, title, submitLabel, onSubmit, autocomplete, hint }) {
  const username = h("input", {
    id: `${id}-username`, name: "username", required: true, autocomplete: "username",
    minlength: 3, maxlength: id === "register" ? 30 : 150, spellcheck: "false",
    autocapitalize: "none", pattern: id === "register" ? "[A-Za-z0-9_.\\-]{3,30}" : null,
    "aria-describedby": hint ? `${id}-username-hint` : null,
  });
  const password = h("input", {
    id: `${id}-password`, name: "password", type: "password", required: true, autocomplete,
  });
  const error = h("p", { class: "error", role: "alert", id: `${id}-error` });
  const button = h("button", { type: "submit", class: "primary" }, submitLabel);
  const node = h("form", { id: `${id}-form`, class: "card narrow", novalidate: false },
    h("h2", null, title),
    field(gettext("Username"), username, hint),
    field(gettext("Password"), password),
    error,
    button);
  node.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    button.disabled = true;
    try {
      await onSubmit(username.value.trim(), password.value);
    } catch (err) {
      error.textContent = describe(err);
      password.focus();
    } finally {
      button.disabled = false;
    }
  });
  return node;
}

/** @type {Object<string, string>} */
const FIELD_NAMES = { username: gettext("Username"), password: gettext("Password") };

/** @param {any} err an ApiError, or any error @returns {string} */
function describe(err) {
  const fields = err.extra?.fields;
  if (fields) {
    return Object.entries(fields)
      .map(([name, problems]) => interpolate(gettext("%(field)s: %(problems)s"),
        { field: FIELD_NAMES[name] || name, problems: [].concat(problems).join(" ") })).join(" ");
  }
  return err.message;
}

// The name this client's tokens get in the account's token list (GET /api/auth/tokens).
const TOKEN_NAME = "web client";

/** @param {PageContext} ctx @param {string | null} next */
function guestSignUp(ctx, next) {
  // A guest signs up in place (POST /api/auth/guest/convert): the account keeps its matches.
  const node = form({
    id: "signup", title: gettext("Sign up and keep your matches"), submitLabel: gettext("Sign up"),
    autocomplete: "new-password", hint: gettext("3-30 letters, digits, '_', '.' or '-'."),
    onSubmit: async (username, password) => {
      const body = await api.post("/api/auth/guest/convert",
        { username, password, token_name: TOKEN_NAME });
      ctx.signedIn(body.token, body.username, next || "/");
    },
  });
  /** @type {HTMLElement} */ (node.querySelector("h2")).after(h("p", { class: "muted" },
    interpolate(gettext("You are playing as %(name)s. Choose a name and a password: your "
      + "matches stay yours, and you can then play people and be rated."),
    { name: session.username })));
  return node;
}

/** Sign in (which also opens a disabled account again), with the way to a forgotten password.
 * @param {PageContext} ctx @param {string | null} next */
function signInForm(ctx, next) {
  const node = form({
    id: "signin", title: gettext("Sign in"), submitLabel: gettext("Sign in"),
    autocomplete: "current-password",
    onSubmit: async (username, password) => {
      const body = await api.post("/api/auth/token",
        { username, password, name: TOKEN_NAME }, { auth: false });
      ctx.signedIn(body.token, body.username, next);
    },
  });
  node.append(h("p", null, link("/password/forgot", gettext("Forgot your password?"))));
  return node;
}

/**
 * @param {HTMLElement} main @param {string[]} _params @param {PageContext} ctx
 */
export async function render(main, _params, ctx) {
  const next = ctx.query.get("next");
  if (isGuest()) {
    main.append(h("h1", null, gettext("Sign up")),
      h("div", { class: "columns" }, guestSignUp(ctx, next)));
    return;
  }
  if (session.token) {
    ctx.navigate(next || "/", { replace: true });
    return;
  }
  main.append(
    h("h1", null, gettext("Welcome to Boardpost")),
    h("p", { class: "lead" },
      gettext("Play board games by correspondence or live, against people or bots.")),
    h("div", { class: "columns" },
      signInForm(ctx, next),
      form({
        id: "register", title: gettext("Create an account"), submitLabel: gettext("Register"),
        autocomplete: "new-password", hint: gettext("3-30 letters, digits, '_', '.' or '-'."),
        onSubmit: async (username, password) => {
          const body = await api.post("/api/auth/register",
            { username, password, token_name: TOKEN_NAME }, { auth: false });
          ctx.signedIn(body.token, body.username, next);
        },
      }),
    ),
  );
}
