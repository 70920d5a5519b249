// A tournament's chart: each entrant's points after each board, one line each (the leaders
// only, when there are many), drawn as inline SVG with the analysis chart's scales
// (../play/chart.js). The lines differ by colour and by dash, and each ends with the
// entrant's name; the standings table beside it holds every figure.

import { h, s } from "./dom.js";
import { format, formatNumber, gettext, ngettext } from "./i18n.js";
import { ticks } from "../play/chart.js";

const WIDTH = 480;
const HEIGHT = 260;
const MARGIN = { top: 12, right: 16, bottom: 34, left: 40 };
const MOST_LINES = 8;
const DASHES = ["", "6 3", "2 3", "8 3 2 3", "4 4", "1 2", "10 4", "3 6"];

/** The figure: `chart` is pointsOverBoards' answer, `order` the entrants best first. */
export function boardsChart(chart, { id, order, tableId }) {
  const shownBoards = chart.boards.length;
  if (!shownBoards) {
    return h("p", { class: "help", id: `${id}-empty` }, gettext("The chart starts once a board has a finished game."));
  }
  const byEntrant = new Map(chart.series.map((line) => [line.entrant, line]));
  const lines = order.map((entrant) => byEntrant.get(entrant)).filter(Boolean).slice(0, MOST_LINES);
  const last = chart.series[0].values.length;
  const high = Math.max(1, ...lines.flatMap((line) => line.values.filter((v) => v !== null)));
  const inner = { w: WIDTH - MARGIN.left - MARGIN.right, h: HEIGHT - MARGIN.top - MARGIN.bottom };
  const x = (board) => MARGIN.left + (last <= 1 ? inner.w / 2 : ((board - 1) / (last - 1)) * inner.w);
  const y = (value) => MARGIN.top + (1 - value / high) * inner.h;
  const at = (value) => Math.round(value * 10) / 10;
  const grid = ticks(0, high, 4).map((value) => s("g", { class: "tick" },
    s("line", { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: at(y(value)), y2: at(y(value)) }),
    s("text", { x: MARGIN.left - 6, y: at(y(value)), "text-anchor": "end", "dominant-baseline": "middle" },
      formatNumber(value))));
  const xTicks = ticks(1, Math.max(last, 1), Math.min(last, 8)).filter(Number.isInteger).map((board) =>
    s("text", { x: at(x(board)), y: HEIGHT - MARGIN.bottom + 16, "text-anchor": "middle" }, String(board)));
  const drawn = lines.map((line, index) => {
    const points = line.values
      .map((value, i) => (value === null ? null : `${at(x(i + 1))},${at(y(value))}`))
      .filter(Boolean);
    return s("polyline", {
      class: `entrant line-${index}`, points: points.join(" "),
      "stroke-dasharray": DASHES[index] || null,
    });
  });
  const labels = { name: `${id}-name`, description: `${id}-summary` };
  const leader = lines[0];
  const summary = [
    format(ngettext("Points after each of %(count)s board with finished games.",
      "Points after each of %(count)s boards with finished games.", shownBoards), { count: shownBoards }),
    leader ? format(gettext("%(name)s leads with %(points)s."), { name: leader.name, points: leader.values.at(-1) ?? 0 }) : null,
    chart.series.length > lines.length
      ? format(gettext("The %(count)s best are drawn."), { count: lines.length }) : null,
    gettext("The standings table holds every figure."),
  ].filter(Boolean).join(" ");
  return h(
    "figure",
    { class: "chart boards-chart" },
    h("figcaption", { id: labels.name }, gettext("Points over the boards")),
    h("p", { class: "help", id: labels.description }, summary),
    h("div", { class: "plot" }, s(
      "svg",
      {
        viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: "100%", role: "img", focusable: "false",
        "aria-labelledby": labels.name, "aria-describedby": labels.description, "aria-details": tableId,
      },
      s("g", { class: "grid" }, grid),
      s("line", {
        class: "axis", x1: MARGIN.left, x2: WIDTH - MARGIN.right,
        y1: HEIGHT - MARGIN.bottom, y2: HEIGHT - MARGIN.bottom,
      }),
      xTicks,
      s("text", { class: "axis-title", x: WIDTH - MARGIN.right, y: HEIGHT - 4, "text-anchor": "end" }, gettext("board")),
      drawn,
    )),
    h("ul", { class: "legend" }, lines.map((line, index) => h("li", {},
      h("span", { class: `key entrant line-${index}${DASHES[index] ? " dashed" : ""}`, "aria-hidden": "true" }),
      line.name))),
  );
}
