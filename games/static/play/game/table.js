// The table: the dice (to hold, or to set aside), the last bust, and the moves this browser
// may make now.

import { h } from "../../common/dom.js";
import { format, gettext, ngettext } from "../../common/i18n.js";

/** Pips of a die face on a 3 x 3 grid (cells 0 to 8, row by row). */
const PIPS = {
  1: [4],
  2: [2, 6],
  3: [2, 4, 6],
  4: [0, 2, 6, 8],
  5: [0, 2, 4, 6, 8],
  6: [0, 2, 3, 5, 6, 8],
};

function face(value) {
  const on = new Set(PIPS[value] || []);
  return h(
    "span",
    { class: "face", "aria-hidden": "true" },
    Array.from({ length: 9 }, (_, cell) => h("span", { class: on.has(cell) ? "pip" : "" })),
  );
}

/** Ten Thousand's last bust: the dice thrown and those set aside before. */
export function bustPanel(state) {
  const bust = state.game.turn.last_bust;
  if (!bust) return null;
  const thrown = new Set(bust.thrown);
  return h(
    "section",
    { class: "bust", "aria-label": gettext("Bust") },
    h("p", {}, format(bust.lost
      ? gettext("%(name)s busted and lost %(lost)s points: no die of %(dice)s scores.")
      : gettext("%(name)s busted: no die of %(dice)s scores."),
    { name: state.name(bust.seat), lost: bust.lost, dice: bust.thrown.map((i) => bust.dice[i]).join(" ") })),
    h("div", { class: "dice small" }, bust.dice.map((value, index) =>
      h("span", {
        class: `die ${thrown.has(index) ? "busted" : "aside"}`,
        role: "img",
        "aria-label": format(thrown.has(index) ? gettext("%(value)s, thrown") : gettext("%(value)s, set aside"), { value }),
      }, face(value)))),
  );
}

export function dicePanel(state, act) {
  const game = state.game;
  const turn = game.turn;
  const count = state.ruleset.dice;
  const mine = state.mine;
  const chosen = new Set(state.selection);
  const dice = turn.dice || Array(count).fill(null);
  const buttons = dice.map((value, index) => {
    const label = value
      ? format(gettext("Die %(number)s: %(value)s"), { number: index + 1, value })
      : format(gettext("Die %(number)s: not thrown yet"), { number: index + 1 });
    let pressed;
    let enabled;
    let look = "";
    if (state.tenThousand) {
      const earlier = Boolean(turn.set_aside?.[index]);
      pressed = earlier || chosen.has(index);
      enabled = mine && value && !earlier && turn.throw_points_available;
      look = earlier ? "aside" : chosen.has(index) ? "chosen" : "";
    } else {
      pressed = chosen.has(index);
      enabled = mine && value && turn.rolls_left > 0;
      look = pressed ? "chosen" : "";
    }
    return h(
      "button",
      {
        type: "button",
        class: `die ${look} ${value ? "" : "blank"}`,
        "data-key": `die-${index}`,
        "aria-pressed": pressed ? "true" : "false",
        "aria-label": label,
        disabled: !enabled,
        onclick: () => act.choose(index),
      },
      face(value),
    );
  });
  const help = state.tenThousand
    ? gettext("Choose scoring dice to set aside, then roll the rest or bank.")
    : gettext("Choose the dice to keep, then roll the others.");
  return h("section", { class: "table", "aria-label": gettext("Dice"), "data-steady": true },
    h("div", { class: "dice" }, buttons),
    game.status === "active" ? h("p", { class: "help" }, help) : null);
}

function tenThousandButtons(state, act) {
  const turn = state.game.turn;
  const mine = state.mine;
  const chosen = state.selection;
  const free = turn.dice ? turn.set_aside.filter((aside) => !aside).length - chosen.length : 6;
  const rollLabel = !turn.dice ? gettext("Roll six dice") : free === 0 ? gettext("Roll all six again")
    : format(ngettext("Roll %(count)s die", "Roll %(count)s dice", free), { count: free });
  const canRoll = !turn.dice || (chosen.length > 0 && turn.throw_points_available);
  return [
    h("button", {
      type: "button", class: "primary", "data-key": "roll", disabled: !mine || !canRoll,
      onclick: () => act.move("roll", state.game.turn.dice ? { set_aside: [...state.selection] } : {}),
    }, rollLabel),
    h("button", {
      type: "button", "data-key": "bank", disabled: !mine || !turn.dice || !chosen.length,
      onclick: () => act.move("bank", { set_aside: [...state.selection] }),
    }, gettext("Bank")),
    h("button", { type: "button", "data-key": "pass", disabled: !mine, onclick: () => act.move("pass", {}) }, gettext("Pass")),
  ];
}

function rollButton(state, act) {
  const turn = state.game.turn;
  const first = !turn.dice;
  const label = first ? gettext("Roll the dice") : format(gettext("Roll again (%(left)s left)"), { left: turn.rolls_left });
  return h("button", {
    type: "button", class: "primary", "data-key": "roll", disabled: !state.mine || turn.rolls_left <= 0,
    onclick: () => act.move("roll", state.game.turn.dice ? { hold: [...state.selection] } : {}),
  }, label);
}

export function actionsPanel(state, act) {
  const game = state.game;
  if (game.status !== "active") return null;
  const turn = game.turn;
  const chosen = state.selection;
  const buttons = state.tenThousand ? tenThousandButtons(state, act) : [rollButton(state, act)];
  buttons.push(h("button", {
    type: "button", class: "quiet", "data-key": "hint", disabled: !state.mine,
    onclick: () => act.hint(),
  }, gettext("Hint")));
  const notes = [];
  if (state.tenThousand && turn.dice) {
    let line = format(gettext("Turn points: %(points)s."), { points: turn.turn_points });
    if (chosen.length && state.selectionValue) {
      line += " " + (state.selectionValue.scoring
        ? format(gettext("The chosen dice score %(points)s."), { points: state.selectionValue.points })
        : gettext("The chosen dice do not all score."));
    }
    notes.push(h("p", { class: "help", "aria-live": "polite" }, line));
  }
  if (state.hint) notes.push(h("p", { class: "hint", "aria-live": "polite" }, format(gettext("Hint: %(advice)s"), { advice: state.hint })));
  return h("section", { class: "actions", "aria-label": gettext("Moves"), "data-steady": true }, h("div", { class: "buttons" }, buttons), notes);
}
