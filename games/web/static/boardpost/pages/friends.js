// @ts-check
// Friends: who may invite me, follow a player, and the lists of friends (players I follow who
// follow me back), of the players I follow and of those who follow me.

import { api, request } from "../api.js";
import { clear, h, link, put } from "../dom.js";
import { gettext, interpolate } from "../i18n.js";
import { people, setFollowing } from "../people.js";

/** @typedef {import("../app.js").PageContext} PageContext */
/** @typedef {import("../people.js").Person} Person */

/** Who may invite me (PATCH /api/me/settings).
 * @param {AbortSignal} signal */
async function invitationsSection(signal) {
  const settings = await api.get("/api/me/settings", { signal });
  const choices = [["everyone", gettext("Everyone")], ["friends", gettext("Friends only")],
    ["nobody", gettext("Nobody")]];
  const select = h("select", { id: "invitations" },
    choices.map(([value, label]) => h("option", { value, selected: settings.invitations === value },
      label)));
  const status = h("p", { class: "muted", role: "status", id: "invitations-status" });
  select.addEventListener("change", async () => {
    select.disabled = true;
    status.textContent = "";
    try {
      await request("PATCH", "/api/me/settings", { body: { invitations: select.value } });
      status.textContent = gettext("Saved.");
    } catch (error) {
      status.textContent = /** @type {Error} */ (error).message;
    } finally {
      select.disabled = false;
    }
  });
  return h("section", { class: "card", "aria-labelledby": "invitations-h" },
    h("h2", { id: "invitations-h" }, gettext("Invitations")),
    h("div", { class: "field" }, h("label", { for: "invitations" },
      gettext("Who may invite me to a match or offer me a rematch")), select),
    h("small", null, gettext("Friends are players you follow who follow you back. Others are "
      + "told only that you are not accepting invitations.")), status);
}

/**
 * @param {string} id @param {string} title @param {Person[]} list
 * @param {(person: Person) => HTMLElement | null} action
 */
function listSection(id, title, list, action) {
  return h("section", { class: "card", "aria-labelledby": `${id}-h`, id },
    h("h2", { id: `${id}-h` }, title),
    list.length ? h("ul", { class: "people" }, list.map((person) => h("li", null,
      link(`/player/${encodeURIComponent(person.username)}`, person.username), " ",
      action(person))))
      : h("p", { class: "muted" }, gettext("Nobody yet.")));
}

/**
 * @param {HTMLElement} main @param {string[]} _params @param {PageContext} ctx
 */
export async function render(main, _params, ctx) {
  const { signal } = ctx;
  const lists = h("div", { id: "people-lists" });
  const name = h("input", { id: "follow-name", autocomplete: "off", required: true,
    maxlength: 150 });
  const status = h("p", { role: "status", id: "follow-status" });
  const form = h("form", { class: "card", "aria-labelledby": "follow-h" },
    h("h2", { id: "follow-h" }, gettext("Follow a player")),
    h("div", { class: "field" }, h("label", { for: "follow-name" }, gettext("Username")), name),
    h("button", { type: "submit" }, gettext("Follow")), status);

  async function load() {
    const [friends, following, followers] = await Promise.all([
      people("friends", signal), people("following", signal), people("followers", signal)]);
    const mine = new Set(following.map((p) => p.username));
    /** @param {Person} person @param {boolean} on @param {string} label */
    const toggle = (person, on, label) => {
      const button = h("button", { type: "button", class: "linkish" }, label);
      button.addEventListener("click", async () => {
        button.disabled = true;
        try {
          await setFollowing(person.username, on);
          await load();
        } catch (error) {
          status.textContent = /** @type {Error} */ (error).message;
          button.disabled = false;
        }
      });
      return button;
    };
    const unfollow = (/** @type {Person} */ p) => toggle(p, false,
      interpolate(gettext("Unfollow %(name)s"), { name: p.username }));
    put(clear(lists),
      listSection("friends", gettext("Friends"), friends, unfollow),
      listSection("following", gettext("Following"), following, unfollow),
      listSection("followers", gettext("Followers"), followers, (p) => (mine.has(p.username)
        ? null : toggle(p, true, interpolate(gettext("Follow %(name)s back"),
          { name: p.username })))));
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    status.textContent = "";
    try {
      await setFollowing(name.value.trim(), true);
      status.textContent = interpolate(gettext("You follow %(name)s."), { name: name.value.trim() });
      name.value = "";
      await load();
    } catch (error) {
      status.textContent = /** @type {Error} */ (error).message;
    }
  });

  put(main, h("h1", null, gettext("Friends")), await invitationsSection(signal), form, lists,
    h("p", null, link("/blocks", gettext("Blocked players"))));
  await load();
}
