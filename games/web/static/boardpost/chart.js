// @ts-check
// A small SVG line chart of a rating history, with a table for screen readers.

import { dateTime, h, s } from "./dom.js";
import { gettext, interpolate, ngettext } from "./i18n.js";

const W = 640;
const H = 220;
const PAD = { top: 16, right: 16, bottom: 28, left: 48 };

/** points: [{at, rating}], oldest first; spaced evenly, one step per rated match.
 * @param {{at: string, rating: number}[]} points @param {{label: string}} options */
export function ratingChart(points, { label }) {
  if (!points.length) return h("p", { class: "muted" }, gettext("No rated matches yet."));
  const values = points.map((p) => p.rating);
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (high - low < 40) {
    const mid = (high + low) / 2;
    low = mid - 20;
    high = mid + 20;
  }
  const span = W - PAD.left - PAD.right;
  const x = (/** @type {number} */ i) => PAD.left + (points.length === 1 ? span / 2 : (i / (points.length - 1)) * span);
  const y = (/** @type {number} */ v) => PAD.top + (1 - (v - low) / (high - low)) * (H - PAD.top - PAD.bottom);
  const path = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`)
    .join(" ");
  const ticks = [low, (low + high) / 2, high].map(Math.round);
  return s("svg", {
    viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img",
    "aria-label": interpolate(ngettext(
      "%(label)s: from %(first)s to %(last)s over %(n)s rated match",
      "%(label)s: from %(first)s to %(last)s over %(n)s rated matches", points.length - 1),
    { label, first: values[0], last: values.at(-1), n: points.length - 1 }),
  },
  ticks.map((t) => s("g", { class: "tick" },
    s("line", { x1: PAD.left, x2: W - PAD.right, y1: y(t), y2: y(t) }),
    s("text", { x: PAD.left - 6, y: y(t) + 4, "text-anchor": "end" }, String(t)))),
  s("text", { x: PAD.left, y: H - 8, class: "axis" }, interpolate(gettext("start · %(date)s"), { date: dateTime(points[0].at) })),
  s("text", { x: W - PAD.right, y: H - 8, "text-anchor": "end", class: "axis" },
    interpolate(gettext("after match %(n)s · %(date)s"),
      { n: points.length - 1, date: dateTime(/** @type {{at: string}} */ (points.at(-1)).at) })),
  s("path", { d: path, class: "line" }),
  points.map((p, i) => s("circle", { cx: x(i), cy: y(p.rating), r: 3.5, class: "dot" },
    s("title", null, i
      ? interpolate(gettext("After match %(n)s (%(date)s): %(rating)s"),
        { n: i, date: dateTime(p.at), rating: p.rating })
      : interpolate(gettext("Before the first rated match: %(rating)s"), { rating: p.rating })))));
}
