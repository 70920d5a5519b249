// The results as a chart the page draws itself: for each student, the mean score and the
// mean accuracy as two bars. Inline SVG that scales to the width it is given (viewBox); it
// is one image to assistive technology, described by the results table that holds the
// same figures.

import { s } from "../common/dom.js";
import { format, gettext } from "../common/i18n.js";
import { number, percent } from "./forms.js";

const WIDTH = 280; // user units: the text is 12 of them, as wide as a phone allows
const LEGEND = 46; // the legend's two lines and the space under them
const NAME = 15; // a student's name, above their bars
const BAR = 11;
const GAP = 3;
const ROW = NAME + BAR + GAP + BAR + 13;
const VALUE_ROOM = 70; // right of the longest bar, for its figure
const LONGEST_NAME = 44;

/** The smallest of 1, 2, 2.5, 5 times a power of ten that is at least `value`. */
function ceiling(value) {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) {
    if (step * power >= value) return step * power;
  }
  return 10 * power;
}

function shortened(name) {
  return name.length > LONGEST_NAME ? `${name.slice(0, LONGEST_NAME - 1)}…` : name;
}

function bar(kind, y, fraction, text) {
  const width = Math.max(2, (WIDTH - VALUE_ROOM) * Math.min(1, fraction));
  return [
    s("rect", { class: `bar ${kind}`, x: 0, y, width: width.toFixed(1), height: BAR, rx: 2 }),
    s("text", { class: "figure", x: (width + 5).toFixed(1), y: y + BAR / 2, "dominant-baseline": "central" }, text),
  ];
}

function missing(y, text) {
  return s("text", { class: "missing", x: 0, y: y + BAR / 2, "dominant-baseline": "central" }, text);
}

/**
 * The chart of the results' rows ({student, mean_score, mean_accuracy}), named `label` and
 * described by the element with id `describedBy`.
 */
export function resultsChart(rows, { label, describedBy }) {
  const top = ceiling(Math.max(0, ...rows.map((row) => row.mean_score ?? 0)));
  const height = LEGEND + Math.max(rows.length, 1) * ROW;
  const parts = [
    s("rect", { class: "bar score", x: 0, y: 4, width: 12, height: 12, rx: 2 }),
    s("text", { class: "legend", x: 17, y: 10, "dominant-baseline": "central" },
      format(gettext("Mean score (scale 0–%(top)s)"), { top })),
    s("rect", { class: "bar accuracy", x: 0, y: 21, width: 12, height: 12, rx: 2 }),
    s("text", { class: "legend", x: 17, y: 27, "dominant-baseline": "central" },
      gettext("Mean accuracy (scale 0–100 %)")),
  ];
  if (!rows.length) parts.push(missing(LEGEND, gettext("No students have joined yet.")));
  rows.forEach((row, index) => {
    const y = LEGEND + index * ROW;
    parts.push(s("text", { class: "name", x: 0, y: y + 11 }, shortened(row.student.name)));
    const scoreY = y + NAME;
    const accuracyY = scoreY + BAR + GAP;
    if (row.mean_score === null) {
      parts.push(missing(scoreY, gettext("No finished game yet")));
      return;
    }
    parts.push(bar("score", scoreY, row.mean_score / top, number(row.mean_score)));
    parts.push(row.mean_accuracy === null
      ? missing(accuracyY, gettext("Accuracy not analysed"))
      : bar("accuracy", accuracyY, row.mean_accuracy / 100, percent(row.mean_accuracy)));
  });
  parts.push(s("line", { class: "axis", x1: 0.5, y1: LEGEND - 4, x2: 0.5, y2: height }));
  return s(
    "svg",
    {
      class: "chart",
      viewBox: `0 0 ${WIDTH} ${height}`,
      role: "img",
      "aria-label": label,
      "aria-describedby": describedBy,
      focusable: "false",
    },
    parts,
  );
}
