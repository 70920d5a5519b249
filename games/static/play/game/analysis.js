// A finished game's analysis: each player's accuracy, loss and luck, the decisions that
// cost, and a chart per player.

import { h } from "../../common/dom.js";
import { format, formatNumber, gettext, ngettext } from "../../common/i18n.js";
import { MEASURES, chartFigure, ratingName } from "../chart.js";
import { boxName } from "../words.js";

export function analysisPanel(state) {
  const analysis = state.analysis;
  const seats = analysis.seats || [];
  const costly = (analysis.decisions || []).filter((d) => d.label && d.label !== "best");
  const option = (o) => {
    if (o === "pass") return gettext("pass");
    if (o && o.then) {
      const dice = o.keep.join(" ") || gettext("nothing");
      return format(o.then === "bank" ? gettext("set aside %(dice)s, bank") : gettext("set aside %(dice)s, roll"), { dice });
    }
    return Array.isArray(o) ? format(gettext("keep %(dice)s"), { dice: o.join(" ") || gettext("nothing") }) : boxName(state.ruleset, o);
  };
  const measure = MEASURES[analysis.objective] || MEASURES.expected_final;
  const shown = (value) => formatNumber(typeof value === "number" ? measure.scale * value : null, measure.digits, { fixed: true });
  const decisions = analysis.decisions || [];
  const charts = seats.map((s) => chartFigure({
    id: `chart-${s.seat}`,
    seat: s,
    measure,
    decisions: decisions.filter((d) => d.seat === s.seat),
    describe: (d) => format(d.label && d.label !== "best" ? gettext("dice %(dice)s: %(chosen)s; best %(best)s") : gettext("dice %(dice)s: %(chosen)s"),
      { dice: (d.dice || []).join(" "), chosen: option(d.chosen), best: option(d.best) }),
  })).filter(Boolean);
  return h(
    "section",
    { class: "card analysis", "aria-labelledby": "analysis-title" },
    h("h2", { id: "analysis-title" }, gettext("Analysis")),
    h("div", { class: charts.length ? "analysis-body" : "" },
    h("div", { class: "analysis-table" },
    h("table", {},
      h("thead", {}, h("tr", {}, [gettext("Player"), gettext("Accuracy"), gettext("Expected loss"), gettext("Luck"), gettext("Mistakes")].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, seats.map((s) => h("tr", {},
        h("th", { scope: "row" }, s.name),
        h("td", {}, formatNumber(s.accuracy, 1, { fixed: true })),
        h("td", {}, shown(s.expected_loss)),
        h("td", {}, shown(s.luck)),
        h("td", {}, s.counts ? mistakes(s.counts.mistake ?? 0, s.counts.blunder ?? 0) : "–"))))),
    costly.length
      ? h("details", {}, h("summary", {}, format(gettext("Decisions that cost %(unit)s (%(count)s)"), { unit: gettext(measure.unit), count: costly.length })),
        h("ol", {}, costly.map((d) => h("li", {}, format(
          gettext("%(name)s, round %(round)s, dice %(dice)s: chose %(chosen)s, best was %(best)s (%(rating)s, −%(loss)s %(unit)s)."),
          {
            name: state.name(d.seat), round: d.round, dice: (d.dice || []).join(" "), chosen: option(d.chosen),
            best: option(d.best), rating: ratingName(d.label), loss: shown(d.loss), unit: gettext(measure.unit),
          })))))
      : h("p", {}, gettext("Every decision was the best one.")),
    ),
    charts.length ? h("div", { class: "analysis-charts" }, charts) : null,
    ),
  );
}

function mistakes(mistake, blunder) {
  return [
    format(ngettext("%(count)s mistake", "%(count)s mistakes", mistake), { count: mistake }),
    format(ngettext("%(count)s blunder", "%(count)s blunders", blunder), { count: blunder }),
  ].join(", ");
}
