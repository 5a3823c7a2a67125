// @ts-check
// Small DOM helpers. Text always goes in through textContent: nothing from the server is ever
// parsed as HTML.

import { LOCALE, gettext, interpolate, interpolateNodes } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * What h(), s() and put() take as children: nodes, text, numbers, nested arrays; null,
 * undefined and false are skipped.
 * @typedef {Node | string | number | boolean | null | undefined
 *   | {readonly [index: number]: Child, readonly length: number}} Child
 */
/**
 * Attributes: "class" (a string or a list, falsy items dropped), "dataset", "style" (an
 * object of properties), on<Event> listeners; null, undefined and false leave one out, true
 * sets it empty.
 * @typedef {Object<string, any> & {
 *   onClick?: (event: MouseEvent) => unknown, onChange?: (event: Event) => unknown,
 *   onInput?: (event: Event) => unknown, onFocus?: (event: FocusEvent) => unknown,
 *   onMouseenter?: (event: MouseEvent) => unknown, onSubmit?: (event: SubmitEvent) => unknown,
 * }} Attrs
 */

/** @param {Element} node @param {Child[]} children */
function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** @param {HTMLElement | SVGElement} node @param {Attrs | null | undefined} attrs */
function setAttributes(node, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "class") {
      node.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    } else if (key === "dataset") {
      for (const [name, item] of Object.entries(value)) {
        if (item !== null && item !== undefined) node.dataset[name] = String(item);
      }
    } else if (key === "style" && typeof value === "object") {
      for (const [name, item] of Object.entries(value)) node.style.setProperty(name, item);
    } else if (value === true) {
      node.setAttribute(key, "");
    } else {
      node.setAttribute(key, String(value));
    }
  }
}

/**
 * h("button", {class: "x", onClick: fn}, "text", child, [more])
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag @param {Attrs | null} [attrs] @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  setAttributes(node, attrs);
  append(node, children);
  return node;
}

/**
 * The same for SVG elements.
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag @param {Attrs | null} [attrs] @param {...Child} children
 * @returns {SVGElementTagNameMap[K]}
 */
export function s(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttributes(node, attrs);
  append(node, children);
  return node;
}

/** @template {Node} N @param {N} node @returns {N} */
export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
  return node;
}

/** Append children (nested arrays flattened, null skipped), unlike Element.append.
 * @template {Element} E @param {E} node @param {...Child} children @returns {E} */
export function put(node, ...children) {
  append(node, children);
  return node;
}

/** A link the router follows without reloading the page.
 * @param {string} href @param {...Child} children */
export function link(href, ...children) {
  return h("a", { href, "data-link": true }, ...children);
}

/** A form of `children`, an alert line and a submit button saying `label`; submitting runs
 * `action` with the button disabled meanwhile, and a failure's message goes to the alert line.
 * @param {{id: string, children: (Node | null)[], label: string,
 *   action: () => Promise<void>, className?: string}} options */
export function actionForm({ id, children, label, action, className }) {
  const error = h("p", { class: "error", role: "alert", id: `${id}-error` });
  const button = h("button", { type: "submit", class: "primary" }, label);
  const node = h("form", { id, class: className || null }, ...children, error, button);
  node.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    button.disabled = true;
    try {
      await action();
    } catch (err) {
      error.textContent = /** @type {Error} */ (err).message;
    } finally {
      button.disabled = false;
    }
  });
  return node;
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let noticeTimer;

/** A short polite message at the top of the page.
 * @param {string} text @param {string} [kind] */
export function notice(text, kind = "info") {
  const box = document.getElementById("notice");
  if (!box) return;
  clear(box);
  box.className = `notice ${kind}`;
  if (text) box.append(h("p", null, text));
  clearTimeout(noticeTimer);
  if (text && kind !== "error") noticeTimer = setTimeout(() => notice(""), 6000);
}

/** The badge after the name of a player who is on vacation (a seat's or a profile's
 * `on_vacation`), on the match page, in the lists and on the player page. */
export function awayBadge() {
  return h("span", { class: "tag away", dataset: { away: "true" } }, gettext("on vacation"));
}

/** @param {{player?: {username: string} | null} | null | undefined} seat */
export function playerName(seat) {
  if (!seat || !seat.player) return gettext("open seat");
  return seat.player.username;
}

/** @type {[number, (n: number) => string][]} */
const UNITS = [
  [86400, (n) => interpolate(gettext("%(n)s d"), { n })],
  [3600, (n) => interpolate(gettext("%(n)s h"), { n })],
  [60, (n) => interpolate(gettext("%(n)s min"), { n })],
];

/** "in 2 d 3 h", "5 min ago"
 * @param {string | null | undefined} iso @param {number} [now] */
export function relative(iso, now = Date.now()) {
  if (!iso) return "";
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  // A few seconds ahead is clock skew between the server and this machine, not the future.
  if (abs < 60) return seconds > 5 ? gettext("in under a minute") : gettext("just now");
  const parts = [];
  let rest = abs;
  for (const [size, unit] of UNITS) {
    if (rest >= size && parts.length < 2) {
      parts.push(unit(Math.floor(rest / size)));
      rest %= size;
    }
  }
  const time = parts.join(" ");
  return seconds >= 0 ? interpolate(gettext("in %(time)s"), { time })
    : interpolate(gettext("%(time)s ago"), { time });
}

/** @param {string | null | undefined} iso */
export function dateTime(iso) {
  if (!iso) return "";
  return new Date(iso).toLocaleString(LOCALE, {
    year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit",
  });
}

/** A <time> element with the relative text and the exact time as a tooltip.
 * @param {string | null | undefined} iso @param {string} [prefix] */
export function timeTag(iso, prefix = "") {
  if (!iso) return null;
  return h("time", { datetime: iso, title: dateTime(iso) }, prefix + relative(iso));
}

/** A translated text with a <time> element for its %(time)s placeholder.
 * @param {string} text @param {string | null | undefined} iso */
export function withTime(text, iso) {
  return interpolateNodes(text, { time: timeTag(iso) });
}

/** @param {string | null | undefined} iso */
export function deadlineTag(iso) {
  if (!iso) return h("span", { class: "muted" }, gettext("no deadline"));
  const late = new Date(iso).getTime() < Date.now();
  const soon = !late && new Date(iso).getTime() - Date.now() < 6 * 3600 * 1000;
  return h("span", { class: ["deadline", late && "late", soon && "soon"] },
    withTime(gettext("Deadline %(time)s"), iso));
}

/** @type {string | null | undefined} */
let lostFocus = null; // the data-focus key of a control redrawn disabled while it had the focus

/** Keep keyboard focus across a re-render: elements carry data-focus="<key>". A control that
 * comes back disabled (a move in flight) hands the focus to `fallback` (focusable, tabindex -1)
 * and gets it back once it is enabled again, so the focus never drops to the page's body.
 * @param {() => void} render @param {HTMLElement | null} [fallback] */
export function preserveFocus(render, fallback = null) {
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const parked = !active || active === document.body || (fallback && active === fallback);
  const key = active?.dataset?.focus || (parked ? lostFocus : null);
  const inside = fallback && active && active !== fallback && fallback.contains(active);
  render();
  if (!key && !inside) return;
  const again = key ? /** @type {HTMLButtonElement | null} */ (
    document.querySelector(`[data-focus="${CSS.escape(key)}"]`)) : null;
  if (again && !again.disabled) {
    lostFocus = null;
    if (again !== document.activeElement) again.focus({ preventScroll: true });
    return;
  }
  lostFocus = key;
  if (fallback && !fallback.contains(document.activeElement)) {
    fallback.focus({ preventScroll: true });
  }
}

/** Arrow-key navigation in a 2D grid of buttons with a roving tabindex.
 * @param {HTMLElement} container @param {string} [selector] */
export function rovingGrid(container, selector = "[data-r][data-c]") {
  const cells = () => [.../** @type {NodeListOf<HTMLElement>} */ (container.querySelectorAll(selector))];
  const current = cells().find((cell) => cell.tabIndex === 0);
  if (!current && cells()[0]) cells()[0].tabIndex = 0;
  container.addEventListener("keydown", (event) => {
    /** @type {Object<string, number[]>} */
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const delta = moves[event.key];
    const from = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest(selector));
    if (!delta || !from) return;
    event.preventDefault();
    const r = Number(from.dataset.r) + delta[0];
    const c = Number(from.dataset.c) + delta[1];
    const to = /** @type {HTMLElement | null} */ (
      container.querySelector(`[data-r="${r}"][data-c="${c}"]`));
    if (!to) return;
    from.tabIndex = -1;
    to.tabIndex = 0;
    to.focus();
  });
  container.addEventListener("focusin", (event) => {
    const cell = /** @type {Element} */ (event.target).closest(selector);
    if (!cell) return;
    for (const other of cells()) other.tabIndex = other === cell ? 0 : -1;
  });
}
