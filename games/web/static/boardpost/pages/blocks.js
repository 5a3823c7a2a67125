// @ts-check
// Blocked players: block one (for games, for chat or both), and the list with unblock buttons.
// A blocked player is never told.

import { clear, h, link, put } from "../dom.js";
import { gettext, interpolate } from "../i18n.js";
import { blocks, setBlock } from "../people.js";

/** @typedef {import("../app.js").PageContext} PageContext */
/** @typedef {import("../people.js").Block} Block */

/** @param {Block} block */
function covers(block) {
  if (block.games && block.chat) return gettext("games and chat");
  if (block.games) return gettext("games");
  if (block.chat) return gettext("chat");
  return gettext("nothing");
}

/**
 * @param {HTMLElement} main @param {string[]} _params @param {PageContext} ctx
 */
export async function render(main, _params, ctx) {
  const { signal } = ctx;
  const list = h("div", { id: "blocks-list" });
  const status = h("p", { role: "status", id: "block-status" });
  const name = h("input", { id: "block-name", autocomplete: "off", required: true,
    maxlength: 150 });
  const games = h("input", { type: "checkbox", id: "block-games", checked: true });
  const chat = h("input", { type: "checkbox", id: "block-chat", checked: true });
  const form = h("form", { class: "card", "aria-labelledby": "block-h" },
    h("h2", { id: "block-h" }, gettext("Block a player")),
    h("div", { class: "field" }, h("label", { for: "block-name" }, gettext("Username")), name),
    h("div", { class: "field check" }, games, h("label", { for: "block-games" },
      gettext("Games: no invitations or rematch offers from them, never seated together"))),
    h("div", { class: "field check" }, chat, h("label", { for: "block-chat" },
      gettext("Chat: hide their lines from me"))),
    h("button", { type: "submit" }, gettext("Block")), status);

  async function load() {
    const found = await blocks(signal);
    put(clear(list), h("section", { class: "card", "aria-labelledby": "blocked-h" },
      h("h2", { id: "blocked-h" }, gettext("Blocked players")),
      found.length ? h("ul", { class: "people" }, found.map((block) => {
        const unblock = h("button", { type: "button", class: "linkish" },
          interpolate(gettext("Unblock %(name)s"), { name: block.username }));
        unblock.addEventListener("click", async () => {
          unblock.disabled = true;
          try {
            await setBlock(block.username, null);
            await load();
          } catch (error) {
            status.textContent = /** @type {Error} */ (error).message;
            unblock.disabled = false;
          }
        });
        return h("li", null, link(`/player/${encodeURIComponent(block.username)}`,
          block.username), ` (${covers(block)}) `, unblock);
      })) : h("p", { class: "muted" }, gettext("Nobody is blocked."))));
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    status.textContent = "";
    const who = name.value.trim();
    try {
      await setBlock(who, { games: games.checked, chat: chat.checked });
      status.textContent = interpolate(gettext("%(name)s is blocked."), { name: who });
      name.value = "";
      await load();
    } catch (error) {
      status.textContent = /** @type {Error} */ (error).message;
    }
  });

  put(main, h("h1", null, gettext("Blocked players")),
    h("p", null, gettext("A blocked player is never told. Blocking for games also keeps you "
      + "apart in tournament pairings where the format allows.")),
    form, list, h("p", null, link("/friends", gettext("Friends"))));
  await load();
}
