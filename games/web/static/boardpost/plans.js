// @ts-check
// The match page's plan (conditional moves, docs/plans.md): the seat's replies decided ahead,
// played by the server the moment the other seat moves. The saved plan (GET .../plan) is shown
// as a nested list; in plan mode the player builds a draft: the other seat's move tried in the
// game module's picker (a board, or a list of actions where a game has no board), then the
// reply, branch after branch, each node with its remove button, and saves it (PUT .../plan
// with the version it was made for). During the player's own turn the lines start with the
// player's own move.
//
// The match page calls planPanel({id, signal, seatName}) once, puts its `node` on the page and
// calls update(match, game) with every new answer; the panel shows itself only where plans
// apply (a match created with plans, running, the caller seated, a game module with a planner
// that says they apply).

import { api, request } from "./api.js";
import { clear, h, preserveFocus } from "./dom.js";
import { gettext, interpolate } from "./i18n.js";

/** @typedef {import("./api.js").Match} Match */
/** @typedef {import("./catalog.js").GameModule} GameModule */
/** @typedef {import("./catalog.js").GamePlanner} GamePlanner */
/** @typedef {import("./catalog.js").LineMove} LineMove */
/**
 * A node of a plan as the server writes it: a branch (`on`: the other seat's move; `reply`:
 * the planner's moves) or, at the root during the planner's own turn, an opening (`mine`: the
 * planner's next moves); `then`: the branches that follow.
 * @typedef {{on?: unknown, reply?: unknown[], mine?: unknown[], then: PlanNode[]}} PlanNode
 */

/** Whether two moves (or paths) are the same JSON. @param {unknown} a @param {unknown} b */
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** @param {PlanNode[]} tree @returns {PlanNode[]} */
const copy = (tree) => JSON.parse(JSON.stringify(tree));

/** The node at `path` (indices from the root), or null for the root itself.
 * @param {PlanNode[]} tree @param {number[]} path @returns {PlanNode | null} */
function nodeAt(tree, path) {
  let level = tree;
  /** @type {PlanNode | null} */
  let node = null;
  for (const index of path) {
    node = level[index];
    if (!node) return null;
    level = node.then;
  }
  return node;
}

/** The moves from the current position to the end of the node at `path`.
 * @param {PlanNode[]} tree @param {number[]} path @returns {LineMove[]} */
function lineTo(tree, path) {
  /** @type {LineMove[]} */
  const line = [];
  let level = tree;
  for (const index of path) {
    const node = level[index];
    if (node.mine) line.push(...node.mine.map((move) => ({ mine: true, move })));
    else line.push({ mine: false, move: node.on }, ...(node.reply || []).map((move) => ({ mine: true, move })));
    level = node.then;
  }
  return line;
}

/**
 * @param {{id: string, signal: AbortSignal, seatName: (seat: number) => string}} options
 */
export function planPanel({ id, signal, seatName }) {
  const message = h("div", { id: "plan-message", class: "plan-message", role: "status" });
  const tree = h("div", { id: "plan-tree" });
  const builder = h("div", { id: "plan-builder", class: "plan-builder" });
  const controls = h("div", { class: "actions plan-actions" });
  // tabindex -1: where the focus goes when the focused control is redrawn away.
  const node = h("section", { id: "plan", class: "plan", hidden: true, tabindex: "-1",
    "aria-labelledby": "plan-h" },
    h("h2", { id: "plan-h" }, gettext("Plan")),
    h("p", { class: "muted" }, gettext("Decide your replies ahead: when your opponent makes a move "
      + "your plan covers, your reply is played at once. Nobody else sees your plan.")),
    message, tree, builder, controls);

  /** @type {Match | null} */
  let match = null;
  /** @type {GamePlanner | null} */
  let planner = null;
  /** @type {PlanNode[]} */
  let saved = [];
  /** @type {number | null} the match's version the saved plan was read at */
  let readAt = null;
  let editing = false;
  /** @type {PlanNode[]} */
  let draft = [];
  /** @type {number[] | null} where the next move goes (null: the root) */
  let cursor = null;
  /** @type {PlanNode[][]} the drafts before each change, for undo */
  let history = [];
  /** @type {Object<string, any>} what the game's picker keeps across redraws (a selection) */
  let pickState = {};
  let busy = false;

  /** @param {string} text @param {string} [kind] */
  function say(text, kind = "info") {
    clear(message);
    message.className = `plan-message ${kind}`;
    message.setAttribute("role", kind === "error" ? "alert" : "status");
    if (text) message.append(h("p", null, text));
  }

  /** @param {Match} m @param {GameModule} game */
  function applies(m, game) {
    const seated = m.your_seat !== null && m.your_seat !== undefined;
    return Boolean(m.plans && m.status === "active" && seated && m.view && game.planner
      && game.planner.applies(m));
  }

  const ownTurn = () => Boolean(match && match.to_act.length === 1
    && match.to_act[0] === match.your_seat);
  const other = () => 1 - Number(match?.your_seat);

  async function read() {
    const version = match?.version ?? null;
    const answer = await api.get(`/api/matches/${id}/plan`, { signal });
    saved = answer.plan;
    readAt = version;
    render();
  }

  /** @param {Match} m @param {GameModule} game */
  function update(m, game) {
    const moved = match !== null && m.version !== match.version;
    match = m;
    planner = game.planner || null;
    node.hidden = !applies(m, game);
    if (node.hidden) {
      editing = false;
      return;
    }
    if (moved) {
      // What was said of the plan is about the position before.
      say(editing ? gettext("The match moved on: here is what is left of your plan.") : "");
      editing = false;
    }
    if (readAt !== m.version) {
      read().catch((error) => {
        if (error.name !== "AbortError") say(error.message, "error");
      });
    } else {
      render();
    }
  }

  // ---------------------------------------------------------------- editing

  /** @param {() => void} change */
  function edit(change) {
    history.push(copy(draft));
    change();
    say("");
    pickState = {};
    render();
  }

  /** @param {unknown} move @param {boolean} mine */
  function add(move, mine) {
    edit(() => {
      const at = cursor === null ? null : nodeAt(draft, cursor);
      const path = cursor || [];
      if (mine && at) {
        if (at.mine) at.mine.push(move);
        else (at.reply ||= []).push(move);
        return;
      }
      const level = at ? at.then : draft;
      const found = level.findIndex((n) => (mine ? n.mine && same(n.mine, [move]) : same(n.on, move)));
      if (found >= 0) {
        cursor = [...path, found];
        return;
      }
      level.push(mine ? { mine: [move], then: [] } : { on: move, reply: [], then: [] });
      cursor = [...path, level.length - 1];
    });
  }

  /** @param {number[]} path */
  function remove(path) {
    edit(() => {
      const parent = path.length > 1 ? nodeAt(draft, path.slice(0, -1)) : null;
      (parent ? parent.then : draft).splice(/** @type {number} */ (path.at(-1)), 1);
      cursor = null;
    });
  }

  function start() {
    editing = true;
    draft = copy(saved);
    cursor = null;
    history = [];
    pickState = {};
    say("");
    render();
  }

  async function save() {
    if (!match || busy) return;
    busy = true;
    render();
    try {
      const { data: answer } = await request("PUT", `/api/matches/${id}/plan`,
        { body: { plan: draft, expected_version: match.version }, signal });
      saved = answer.plan;
      readAt = answer.version;
      editing = false;
      say(saved.length ? gettext("Plan saved.") : gettext("Plan deleted."));
    } catch (error) {
      if (error.name === "AbortError") return;
      const where = Array.isArray(error.extra?.path) && error.extra.path.length
        ? ` (${error.extra.path.join(" › ")})` : "";
      say(`${error.message}${where}`, "error");
      if (error.code === "plan_stale") {
        editing = false;
        await read().catch(() => {});
      }
    } finally {
      busy = false;
      render();
    }
  }

  async function drop() {
    if (busy) return;
    busy = true;
    try {
      await api.del(`/api/matches/${id}/plan`, { signal });
      saved = [];
      editing = false;
      say(gettext("Plan deleted."));
    } catch (error) {
      if (error.name !== "AbortError") say(error.message, "error");
    } finally {
      busy = false;
      render();
    }
  }

  // ---------------------------------------------------------------- drawing

  /** @param {boolean} mine @param {unknown} move */
  function moveText(mine, move) {
    const m = /** @type {Match} */ (match);
    return interpolate(gettext("%(who)s: %(move)s"), {
      who: mine ? gettext("you") : seatName(other()),
      move: /** @type {GamePlanner} */ (planner).describe(move, m),
    });
  }

  /** @param {PlanNode[]} level @param {number[]} path @returns {HTMLElement} */
  function list(level, path) {
    return h("ul", { class: "plan-tree" }, level.map((n, index) => {
      const here = [...path, index];
      const key = here.join("-");
      const moves = n.mine ? n.mine.map((move) => moveText(true, move))
        : [moveText(false, n.on), ...(n.reply || []).map((move) => moveText(true, move))];
      const current = editing && cursor !== null && same(cursor, here);
      return h("li", { dataset: { path: key }, "aria-current": current ? "true" : null,
        class: current && "current" },
      h("div", { class: "plan-node" },
        h("span", { id: `plan-node-${key}`, class: "plan-moves" }, moves.join(" → ")),
        editing ? h("span", { class: "plan-node-actions" },
          h("button", { type: "button", class: "linkish", "aria-describedby": `plan-node-${key}`,
            dataset: { planContinue: key }, onClick: () => {
              cursor = here;
              pickState = {};
              render();
            } }, gettext("Continue here")),
          h("button", { type: "button", class: "linkish", "aria-describedby": `plan-node-${key}`,
            dataset: { planRemove: key }, onClick: () => remove(here) }, gettext("Remove")))
          : null),
      n.then.length ? list(n.then, here) : null);
    }));
  }

  function renderBuilder() {
    const m = /** @type {Match} */ (match);
    const line = cursor === null ? [] : lineTo(draft, cursor);
    const next = cursor === null ? { mine: ownTurn(), theirs: !ownTurn() }
      : /** @type {GamePlanner} */ (planner).next?.(line, m) || { mine: true, theirs: true };
    const where = cursor === null ? gettext("From the current position.")
      : interpolate(gettext("After: %(moves)s"), {
        moves: line.map((step) => moveText(step.mine, step.move)).join(" → ") });
    const picker = h("div", { class: "plan-picker" });
    /** @type {GamePlanner} */ (planner).pick(picker, {
      match: m, line, mine: next.mine, theirs: next.theirs, state: pickState,
      add, rerender: render, seatName,
    });
    clear(builder).append(
      h("p", { id: "plan-where", class: "plan-where" }, where, " ",
        cursor !== null ? h("button", { type: "button", class: "linkish", id: "plan-to-start",
          onClick: () => {
            cursor = null;
            pickState = {};
            render();
          } }, gettext("Back to the current position")) : null),
      picker);
  }

  function render() {
    if (!match || node.hidden || !planner) return;
    preserveFocus(draw, node);
  }

  function draw() {
    const shown = editing ? draft : saved;
    clear(tree).append(shown.length ? list(shown, [])
      : h("p", { class: "muted", id: "plan-empty" }, editing ? gettext("The plan is empty.")
        : gettext("No plan.")));
    clear(builder);
    clear(controls);
    if (editing) {
      renderBuilder();
      controls.append(
        h("button", { type: "button", class: "primary", id: "plan-save", disabled: busy,
          dataset: { focus: "plan-save" },
          onClick: save }, gettext("Save plan")),
        h("button", { type: "button", id: "plan-undo", disabled: busy || !history.length,
          dataset: { focus: "plan-undo" },
          onClick: () => {
            draft = /** @type {PlanNode[]} */ (history.pop());
            cursor = null;
            say("");
            render();
          } }, gettext("Undo")),
        h("button", { type: "button", id: "plan-cancel", disabled: busy, onClick: () => {
          editing = false;
          say("");
          render();
        } }, gettext("Cancel")));
    } else {
      controls.append(h("button", { type: "button", id: "plan-edit", onClick: start }, saved.length ? gettext("Change the plan") : gettext("Make a plan")));
      if (saved.length) {
        controls.append(h("button", { type: "button", id: "plan-delete", disabled: busy,
          onClick: drop }, gettext("Delete plan")));
      }
    }
  }

  return { node, update };
}
