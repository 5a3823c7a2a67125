// @ts-check
// Follows and blocks as the pages show them: follow or unfollow a player, block or unblock one
// (PUT and DELETE /api/me/following/{name} and /api/me/blocks/{name}).

import { api, request } from "./api.js";

/** A person of a list (GET /api/me/following, /followers, /friends).
 * @typedef {{username: string, friend: boolean}} Person */
/** A block (GET /api/me/blocks).
 * @typedef {{username: string, games: boolean, chat: boolean, created: string}} Block */

/** @param {string} username */
const named = (username) => encodeURIComponent(username);

/** @param {string} username @param {boolean} on */
export async function setFollowing(username, on) {
  await request(on ? "PUT" : "DELETE", `/api/me/following/${named(username)}`);
}

/** @param {string} username @param {{games: boolean, chat: boolean} | null} block null: unblock */
export async function setBlock(username, block) {
  if (block) await request("PUT", `/api/me/blocks/${named(username)}`, { body: block });
  else await request("DELETE", `/api/me/blocks/${named(username)}`);
}

/** @param {"following" | "followers" | "friends"} which @param {AbortSignal} [signal]
 * @returns {Promise<Person[]>} */
export async function people(which, signal) {
  return (await api.get(`/api/me/${which}`, { signal })).people;
}

/** @param {AbortSignal} [signal] @returns {Promise<Block[]>} */
export async function blocks(signal) {
  return (await api.get("/api/me/blocks", { signal })).blocks;
}
