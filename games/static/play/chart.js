// The analysis chart: a player's value after each of their decisions (the solid line: the
// expected final score, the chance of winning or the expected turns still to play, as the
// analysis's objective says) against what the best choice would have given (the dashed
// line), mistakes and blunders marked. Drawn here as inline SVG, as wide as its box; the
// same values are in a table beside it for anyone who does not see the chart.

import { h, s } from "../common/dom.js";
import { format, formatNumber, gettext, gettext_noop, ngettext, pgettext } from "../common/i18n.js";

const HEIGHT_RATIO = 0.55;
const MARGIN = { top: 14, right: 14, bottom: 34, left: 46 };
const MARKED = new Set(["mistake", "blunder"]);
const plots = new WeakMap(); // each plot's points, to draw it again at another width

/** What the values measure, by the analysis's objective: shown times `scale` (the words are
 * marked here, translated where shown). */
export const MEASURES = {
  expected_final: { name: gettext_noop("Expected final score"), unit: gettext_noop("points"), scale: 1, digits: 1 },
  win_probability: { name: gettext_noop("Chance of winning (%)"), unit: gettext_noop("percentage points"), scale: 100, digits: 1 },
  expected_turns: { name: gettext_noop("Expected turns still to play"), unit: gettext_noop("turns"), scale: 1, digits: 2 },
};

const number = (value, digits = 1) => formatNumber(value, digits, { fixed: true });

/** A decision's rating in words. */
export function ratingName(label) {
  switch (label) {
    case "best": return pgettext("rating", "best");
    case "inaccuracy": return pgettext("rating", "inaccuracy");
    case "mistake": return pgettext("rating", "mistake");
    case "blunder": return pgettext("rating", "blunder");
    default: return label ?? "";
  }
}

/** A step of 1, 2 or 5 times a power of ten giving about `count` ticks over the span. */
export function tickStep(span, count) {
  const rough = span / Math.max(count, 1);
  const power = 10 ** Math.floor(Math.log10(rough || 1));
  const step = [1, 2, 5, 10].map((m) => m * power).find((m) => m >= rough) ?? 10 * power;
  return Math.max(step, 1);
}

export function ticks(low, high, count) {
  const step = tickStep(high - low, count);
  const out = [];
  for (let value = Math.ceil(low / step) * step; value <= high + 1e-9; value += step) out.push(value);
  return out;
}

/** The points of one seat, in the measure's units: index 0 is the start (if known), then
 * each decision. */
export function chartPoints(seat, decisions, measure = MEASURES.expected_final) {
  const points = [];
  const k = measure.scale;
  if (typeof seat.expected_start === "number") {
    points.push({ index: 0, start: true, chosen: k * seat.expected_start, best: k * seat.expected_start });
  }
  decisions.forEach((d, at) => {
    if (typeof d.chosen_value !== "number") return;
    points.push({
      index: at + 1,
      round: d.round,
      chosen: k * d.chosen_value,
      best: k * (typeof d.best_value === "number" ? d.best_value : d.chosen_value),
      loss: k * (typeof d.loss === "number" ? d.loss : 0),
      label: d.label,
      digits: measure.digits,
    });
  });
  return points;
}

function markerTitle(point) {
  const digits = point.digits ?? 1;
  if (point.start) return format(gettext("Start: expected %(value)s"), { value: number(point.chosen, digits) });
  const values = {
    index: point.index, round: point.round, value: number(point.chosen, digits), best: number(point.best, digits),
    rating: ratingName(point.label), loss: number(point.loss, digits),
  };
  return point.label && point.label !== "best"
    ? format(gettext("Decision %(index)s, round %(round)s: expected %(value)s, best %(best)s, %(rating)s, −%(loss)s"), values)
    : format(gettext("Decision %(index)s, round %(round)s: expected %(value)s, best %(best)s"), values);
}

function marker(point, x, y) {
  const title = s("title", {}, markerTitle(point));
  if (point.label === "blunder") {
    return s("path", { class: "blunder", d: `M${x} ${y - 7}L${x + 7} ${y + 5}L${x - 7} ${y + 5}Z` }, title);
  }
  if (point.label === "mistake") {
    return s("path", { class: "mistake", d: `M${x} ${y - 6}L${x + 6} ${y}L${x} ${y + 6}L${x - 6} ${y}Z` }, title);
  }
  return s("circle", { class: point.label === "inaccuracy" ? "inaccuracy" : "dot", cx: x, cy: y, r: 2.5 }, title);
}

/** The SVG itself, `width` units wide (its box scales it to fit). */
export function drawChart(points, width, labels) {
  const w = Math.max(Math.round(width), 240);
  const hgt = Math.round(Math.min(Math.max(w * HEIGHT_RATIO, 180), 320));
  const inner = { w: w - MARGIN.left - MARGIN.right, h: hgt - MARGIN.top - MARGIN.bottom };
  const values = points.flatMap((p) => [p.chosen, p.best]);
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (high - low < 10) {
    low -= 5;
    high += 5;
  }
  const yStep = tickStep(high - low, 5);
  low = Math.floor(low / yStep) * yStep;
  high = Math.ceil(high / yStep) * yStep;
  const first = points[0].index;
  const last = Math.max(points.at(-1).index, first + 1);
  const x = (index) => MARGIN.left + ((index - first) / (last - first)) * inner.w;
  const y = (value) => MARGIN.top + (1 - (value - low) / (high - low)) * inner.h;
  const at = (value) => Math.round(value * 10) / 10;
  const line = (field) => points.map((p) => `${at(x(p.index))},${at(y(p[field]))}`).join(" ");

  const grid = ticks(low, high, 5).map((value) => s("g", { class: "tick" },
    s("line", { x1: MARGIN.left, x2: w - MARGIN.right, y1: at(y(value)), y2: at(y(value)) }),
    s("text", { x: MARGIN.left - 6, y: at(y(value)), "text-anchor": "end", "dominant-baseline": "middle" },
      formatNumber(value, 2))));
  const xTicks = ticks(Math.max(first, 1), last, Math.max(2, Math.floor(inner.w / 70)))
    .filter((value) => Number.isInteger(value))
    .map((value) => s("text", { class: "tick", x: at(x(value)), y: hgt - MARGIN.bottom + 16, "text-anchor": "middle" },
      String(value)));
  const gaps = points.filter((p) => Math.abs(p.best - p.chosen) > 0.05).map((p) => s("line", {
    class: `gap ${MARKED.has(p.label) ? p.label : ""}`,
    x1: at(x(p.index)), x2: at(x(p.index)), y1: at(y(p.chosen)), y2: at(y(p.best)),
  }));
  // Every point is marked while they are few; then only the ratings that cost points.
  const dense = points.length > 40;
  const markers = points
    .filter((p) => !dense || (p.label && p.label !== "best"))
    .map((p) => marker(p, at(x(p.index)), at(y(p.chosen))));

  return s(
    "svg",
    {
      viewBox: `0 0 ${w} ${hgt}`, width: "100%", role: "img", focusable: "false",
      "aria-labelledby": labels.name, "aria-describedby": labels.description, "aria-details": labels.table,
    },
    s("g", { class: "grid" }, grid),
    s("line", { class: "axis", x1: MARGIN.left, x2: w - MARGIN.right, y1: hgt - MARGIN.bottom, y2: hgt - MARGIN.bottom }),
    xTicks,
    s("text", { class: "axis-title", x: w - MARGIN.right, y: hgt - 4, "text-anchor": "end" }, pgettext("chart axis", "decision")),
    s("polyline", { class: "best", points: line("best") }),
    gaps,
    s("polyline", { class: "chosen", points: line("chosen") }),
    s("g", { class: "markers" }, markers),
  );
}

/**
 * The figure for one seat: caption (the chart's name), a summary (its description), the
 * chart, a legend and the table of every point.
 */
export function chartFigure({ id, seat, decisions, describe, measure = MEASURES.expected_final }) {
  const points = chartPoints(seat, decisions, measure);
  if (!points.some((p) => !p.start)) return null;
  const labels = { name: `${id}-name`, description: `${id}-summary`, table: `${id}-table` };
  const counts = { mistake: 0, blunder: 0 };
  for (const d of decisions) if (d.label in counts) counts[d.label] += 1;
  const digits = measure.digits;
  const shown = (value) => number(typeof value === "number" ? measure.scale * value : value, digits);
  const lost = decisions.reduce((sum, d) => sum + (typeof d.loss === "number" ? d.loss : 0), 0);
  const end = points.at(-1).chosen;
  const begin = points[0].chosen;
  const title = format(gettext("%(measure)s after each decision of %(name)s"), { measure: gettext(measure.name), name: seat.name });
  const summary = [
    format(ngettext("%(count)s decision: %(measure)s went from %(begin)s to %(end)s.",
      "%(count)s decisions: %(measure)s went from %(begin)s to %(end)s.", decisions.length),
    { count: decisions.length, measure: gettext(measure.name), begin: number(begin, digits), end: number(end, digits) }),
    format(gettext("The choices cost %(lost)s %(unit)s in all."), { lost: shown(lost), unit: gettext(measure.unit) }),
    format(ngettext("%(count)s mistake marked", "%(count)s mistakes marked", counts.mistake), { count: counts.mistake }) + ", " +
    format(ngettext("%(count)s blunder marked.", "%(count)s blunders marked.", counts.blunder), { count: counts.blunder }),
    gettext("Every value is in the table below the chart."),
  ].join(" ");
  const plot = h("div", { class: "plot" });
  plots.set(plot, { points, labels, width: 0 });
  draw(plot, 480);
  return h(
    "figure",
    { class: "chart" },
    h("figcaption", { id: labels.name }, title),
    h("p", { class: "help", id: labels.description }, summary),
    plot,
    h("ul", { class: "legend" },
      h("li", {}, h("span", { class: "key chosen", "aria-hidden": "true" }), gettext("after the choice made")),
      h("li", {}, h("span", { class: "key best", "aria-hidden": "true" }), gettext("after the best choice")),
      h("li", {}, h("span", { class: "key mistake", "aria-hidden": "true" }), ratingName("mistake")),
      h("li", {}, h("span", { class: "key blunder", "aria-hidden": "true" }), ratingName("blunder"))),
    h("details", { id: labels.table },
      h("summary", {}, format(gettext("The chart as a table (%(name)s)"), { name: seat.name })),
      // A wide table scrolls in its own box, which the keyboard can reach and scroll.
      h("div", {
        class: "scroll", tabindex: "0", role: "region",
        "aria-label": format(gettext("The chart as a table (%(name)s)"), { name: seat.name }),
      }, h("table", {},
        h("caption", {}, title),
        h("thead", {}, h("tr", {},
          ["#", gettext("Round"), gettext("Decision"), gettext("After it"), gettext("After the best"), gettext("Loss"), gettext("Rating")]
            .map((heading) => h("th", { scope: "col" }, heading)))),
        h("tbody", {}, decisions.map((d, at) => h("tr", { class: MARKED.has(d.label) ? d.label : "" },
          h("th", { scope: "row" }, String(at + 1)),
          h("td", {}, String(d.round ?? "")),
          h("td", { class: "text" }, describe(d)),
          h("td", {}, shown(d.chosen_value)),
          h("td", {}, shown(d.best_value)),
          h("td", {}, shown(d.loss)),
          h("td", { class: "text" }, ratingName(d.label))))))),
    ),
  );
}

function draw(plot, width) {
  const entry = plots.get(plot);
  if (!entry || Math.abs(entry.width - width) < 24) return;
  entry.width = width;
  plot.replaceChildren(drawChart(entry.points, width, entry.labels));
}

/** Draw every chart under `root` again when its box changes width; answers the observer. */
export function observeCharts(root) {
  const found = [...root.querySelectorAll(".plot")].filter((plot) => plots.has(plot));
  if (!found.length || typeof ResizeObserver !== "function") return null;
  const observer = new ResizeObserver((entries) => {
    // Drawn in the next frame, not inside the observer's own delivery.
    requestAnimationFrame(() => {
      for (const entry of entries) draw(entry.target, entry.contentRect.width);
    });
  });
  for (const plot of found) observer.observe(plot);
  return observer;
}
