// The scores: a box game's scorecard (its open boxes are the scoring moves), or Ten
// Thousand's totals.

import { h } from "../../common/dom.js";
import { format, formatNumber, gettext } from "../../common/i18n.js";

function sumRow(state, title, field, cls = "") {
  const current = state.current;
  return h("tr", { class: `sum ${cls}` }, h("th", { scope: "row" }, title),
    state.game.players.map((p) => h("td", { class: p.seat === current ? "current" : "" }, String(p[field] ?? 0))));
}

function boxRow(state, act, box, mine) {
  const game = state.game;
  const current = state.current;
  const points = game.choices[box.id];
  const can = mine && points !== undefined;
  return h(
    "tr",
    {},
    h("th", { scope: "row" }, h("button", {
      type: "button", class: `box ${can ? "open" : ""}`, "data-key": `box-${box.id}`,
      title: box.description, disabled: !can,
      onclick: () => act.move(points > 0 ? "score" : "scratch", { category: box.id }),
    },
    // Its name is what it shows ("Ones 3"): the box and the points it would score now; a
    // box that would score nothing is scratched, which the name says too.
    h("span", {}, box.name),
    can ? [" ", h("span", { class: points ? "points" : "points zero" }, String(points))] : null,
    can && !points ? h("span", { class: "visually-hidden" }, ` ${gettext("(scratch)")}`) : null)),
    game.players.map((p) => {
      const value = p.scorecard?.[box.id];
      return h("td", { class: p.seat === current ? "current" : "" }, value === null || value === undefined ? "" : String(value));
    }),
  );
}

export function scorecardPanel(state, act) {
  const game = state.game;
  const mine = state.mine && game.turn.dice;
  const current = state.current;
  const head = h("tr", {}, h("th", { scope: "col" }, gettext("Box")),
    game.players.map((p) => h("th", { scope: "col", class: p.seat === current ? "current" : "" },
      p.name, p.left ? ` ${gettext("(left)")}` : "")));
  const rows = [];
  let section = null;
  for (const box of state.ruleset.categories) {
    if (section === "upper" && box.section !== "upper") rows.push(sumRow(state, gettext("Upper bonus"), "upper_bonus"));
    section = box.section;
    rows.push(boxRow(state, act, box, mine));
  }
  if (game.players.some((p) => p.yahtzee_bonus)) rows.push(sumRow(state, gettext("Yahtzee bonus"), "yahtzee_bonus"));
  rows.push(sumRow(state, gettext("Total"), "total", "total"));
  return h("section", { class: "scores", "aria-label": gettext("Scorecard"), "data-steady": true },
    h("table", {}, h("thead", {}, head), h("tbody", {}, rows)));
}

export function totalsPanel(state) {
  const game = state.game;
  const current = state.current;
  return h("section", { class: "scores", "aria-label": gettext("Totals") },
    h("p", { class: "help" }, format(gettext("First to %(target)s wins; a turn banks at least %(least)s."),
      { target: game.options.target, least: game.options.bank_minimum })),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, gettext("Player")), h("th", { scope: "col" }, gettext("Total")))),
      h("tbody", {}, game.players.map((p) => h("tr", { class: p.seat === current ? "current" : "" },
        h("th", { scope: "row" }, p.name, p.computer ? ` ${gettext("(computer)")}` : "", p.left ? ` ${gettext("(left)")}` : ""),
        h("td", {}, formatNumber(p.total)))))));
}
