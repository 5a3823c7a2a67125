// Small DOM helpers. Text always goes in through textContent: nothing from the server is ever
// parsed as HTML.

import { LOCALE, gettext, interpolate, interpolateNodes, ngettext } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

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

/** h("button", {class: "x", onClick: fn}, "text", child, [more]) */
export function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  setAttributes(node, attrs);
  append(node, children);
  return node;
}

/** The same for SVG elements. */
export function s(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttributes(node, attrs);
  append(node, children);
  return node;
}

export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
  return node;
}

/** Append children (nested arrays flattened, null skipped), unlike Element.append. */
export function put(node, ...children) {
  append(node, children);
  return node;
}

/** A link the router follows without reloading the page. */
export function link(href, ...children) {
  return h("a", { href, "data-link": true }, ...children);
}

let noticeTimer = null;

/** A short polite message at the top of the page. */
export function notice(text, kind = "info") {
  const box = document.getElementById("notice");
  if (!box) return;
  clear(box);
  box.className = `notice ${kind}`;
  if (text) box.append(h("p", null, text));
  clearTimeout(noticeTimer);
  if (text && kind !== "error") noticeTimer = setTimeout(() => notice(""), 6000);
}

export function playerName(seat) {
  if (!seat || !seat.player) return gettext("open seat");
  return seat.player.username;
}

const UNITS = [
  [86400, (n) => interpolate(gettext("%(n)s d"), { n })],
  [3600, (n) => interpolate(gettext("%(n)s h"), { n })],
  [60, (n) => interpolate(gettext("%(n)s min"), { n })],
];

/** "in 2 d 3 h", "5 min ago" */
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

export function dateTime(iso) {
  if (!iso) return "";
  return new Date(iso).toLocaleString(LOCALE, {
    year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit",
  });
}

/** A <time> element with the relative text and the exact time as a tooltip. */
export function timeTag(iso, prefix = "") {
  if (!iso) return null;
  return h("time", { datetime: iso, title: dateTime(iso) }, prefix + relative(iso));
}

/** A translated text with a <time> element for its %(time)s placeholder. */
export function withTime(text, iso) {
  return interpolateNodes(text, { time: timeTag(iso) });
}

export function deadlineTag(iso) {
  if (!iso) return h("span", { class: "muted" }, gettext("no deadline"));
  const late = new Date(iso).getTime() < Date.now();
  const soon = !late && new Date(iso).getTime() - Date.now() < 6 * 3600 * 1000;
  return h("span", { class: ["deadline", late && "late", soon && "soon"] },
    withTime(gettext("Deadline %(time)s"), iso));
}

export function turnSecondsText(seconds) {
  if (!seconds) return gettext("no time control");
  if (seconds % 86400 === 0) {
    const n = seconds / 86400;
    return interpolate(ngettext("%(n)s d per turn", "%(n)s d per turn", n), { n });
  }
  const n = Math.round(seconds / 3600);
  return interpolate(ngettext("%(n)s h per turn", "%(n)s h per turn", n), { n });
}

let lostFocus = null; // the data-focus key of a control redrawn disabled while it had the focus

/** Keep keyboard focus across a re-render: elements carry data-focus="<key>". A control that
 * comes back disabled (a move in flight) hands the focus to `fallback` (focusable, tabindex -1)
 * and gets it back once it is enabled again, so the focus never drops to the page's body. */
export function preserveFocus(render, fallback = null) {
  const active = document.activeElement;
  const parked = !active || active === document.body || (fallback && active === fallback);
  const key = active?.dataset?.focus || (parked ? lostFocus : null);
  const inside = fallback && active && active !== fallback && fallback.contains(active);
  render();
  if (!key && !inside) return;
  const again = key ? document.querySelector(`[data-focus="${CSS.escape(key)}"]`) : null;
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

/** Arrow-key navigation in a 2D grid of buttons with a roving tabindex. */
export function rovingGrid(container, selector = "[data-r][data-c]") {
  const cells = () => [...container.querySelectorAll(selector)];
  const current = cells().find((cell) => cell.tabIndex === 0);
  if (!current && cells()[0]) cells()[0].tabIndex = 0;
  container.addEventListener("keydown", (event) => {
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const delta = moves[event.key];
    const from = event.target.closest(selector);
    if (!delta || !from) return;
    event.preventDefault();
    const r = Number(from.dataset.r) + delta[0];
    const c = Number(from.dataset.c) + delta[1];
    const to = container.querySelector(`[data-r="${r}"][data-c="${c}"]`);
    if (!to) return;
    from.tabIndex = -1;
    to.tabIndex = 0;
    to.focus();
  });
  container.addEventListener("focusin", (event) => {
    const cell = event.target.closest(selector);
    if (!cell) return;
    for (const other of cells()) other.tabIndex = other === cell ? 0 : -1;
  });
}
