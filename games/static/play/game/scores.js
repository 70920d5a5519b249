// The scores: a box game's scorecard (its open boxes are the scoring moves), or Ten
// Thousand's totals.

import { h } from "../../common/dom.js";

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
  const label = can ? (points > 0 ? `${box.name}: score ${points}` : `${box.name}: scratch for 0`) : box.name;
  return h(
    "tr",
    {},
    h("th", { scope: "row" }, h("button", {
      type: "button", class: `box ${can ? "open" : ""}`, "data-key": `box-${box.id}`,
      "aria-label": label, title: box.description, disabled: !can,
      onclick: () => act.move(points > 0 ? "score" : "scratch", { category: box.id }),
    }, h("span", {}, box.name), can ? h("span", { class: points ? "points" : "points zero" }, String(points)) : null)),
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
  const head = h("tr", {}, h("th", { scope: "col" }, "Box"),
    game.players.map((p) => h("th", { scope: "col", class: p.seat === current ? "current" : "" },
      p.name, p.left ? " (left)" : "")));
  const rows = [];
  let section = null;
  for (const box of state.ruleset.categories) {
    if (section === "upper" && box.section !== "upper") rows.push(sumRow(state, "Upper bonus", "upper_bonus"));
    section = box.section;
    rows.push(boxRow(state, act, box, mine));
  }
  if (game.players.some((p) => p.yahtzee_bonus)) rows.push(sumRow(state, "Yahtzee bonus", "yahtzee_bonus"));
  rows.push(sumRow(state, "Total", "total", "total"));
  return h("section", { class: "scores", "aria-label": "Scorecard" },
    h("table", {}, h("thead", {}, head), h("tbody", {}, rows)));
}

export function totalsPanel(state) {
  const game = state.game;
  const current = state.current;
  return h("section", { class: "scores", "aria-label": "Totals" },
    h("p", { class: "help" }, `First to ${game.options.target} wins; a turn banks at least ${game.options.bank_minimum}.`),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Total"))),
      h("tbody", {}, game.players.map((p) => h("tr", { class: p.seat === current ? "current" : "" },
        h("th", { scope: "row" }, p.name, p.computer ? ` (computer)` : "", p.left ? " (left)" : ""),
        h("td", {}, String(p.total)))))));
}
