// A finished game's analysis: each player's accuracy, loss and luck, the decisions that
// cost, and a chart per player.

import { h } from "../../common/dom.js";
import { MEASURES, chartFigure } from "../chart.js";
import { boxName } from "../words.js";

export function analysisPanel(state) {
  const analysis = state.analysis;
  const seats = analysis.seats || [];
  const costly = (analysis.decisions || []).filter((d) => d.label && d.label !== "best");
  const option = (o) => {
    if (o === "pass") return "pass";
    if (o && o.then) return `set aside ${o.keep.join(" ") || "nothing"}, ${o.then}`;
    return Array.isArray(o) ? `keep ${o.join(" ") || "nothing"}` : boxName(state.ruleset, o);
  };
  const measure = MEASURES[analysis.objective] || MEASURES.expected_final;
  const shown = (value) => (typeof value === "number" ? (measure.scale * value).toFixed(measure.digits) : "–");
  const decisions = analysis.decisions || [];
  const charts = seats.map((s) => chartFigure({
    id: `chart-${s.seat}`,
    seat: s,
    measure,
    decisions: decisions.filter((d) => d.seat === s.seat),
    describe: (d) => `dice ${(d.dice || []).join(" ")}: ${option(d.chosen)}` +
      (d.label && d.label !== "best" ? `; best ${option(d.best)}` : ""),
  })).filter(Boolean);
  return h(
    "section",
    { class: "card analysis", "aria-labelledby": "analysis-title" },
    h("h2", { id: "analysis-title" }, "Analysis"),
    h("div", { class: charts.length ? "analysis-body" : "" },
    h("div", { class: "analysis-table" },
    h("table", {},
      h("thead", {}, h("tr", {}, ["Player", "Accuracy", "Expected loss", "Luck", "Mistakes"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, seats.map((s) => h("tr", {},
        h("th", { scope: "row" }, s.name),
        h("td", {}, typeof s.accuracy === "number" ? `${s.accuracy.toFixed(1)}` : "–"),
        h("td", {}, shown(s.expected_loss)),
        h("td", {}, shown(s.luck)),
        h("td", {}, s.counts ? `${s.counts.mistake ?? 0} mistakes, ${s.counts.blunder ?? 0} blunders` : "–"))))),
    costly.length
      ? h("details", {}, h("summary", {}, `Decisions that cost ${measure.unit} (${costly.length})`),
        h("ol", {}, costly.map((d) => h("li", {},
          `${state.name(d.seat)}, round ${d.round}, dice ${(d.dice || []).join(" ")}: chose ${option(d.chosen)}, `,
          `best was ${option(d.best)} (${d.label}, −${shown(d.loss)} ${measure.unit}).`))))
      : h("p", {}, "Every decision was the best one."),
    ),
    charts.length ? h("div", { class: "analysis-charts" }, charts) : null,
    ),
  );
}
