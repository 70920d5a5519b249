// The table: the dice (to hold, or to set aside), the last bust, and the moves this browser
// may make now.

import { h } from "../../common/dom.js";

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
    { class: "bust", "aria-label": "Bust" },
    h("p", {}, `${state.name(bust.seat)} busted`, bust.lost ? ` and lost ${bust.lost} points` : "",
      `: no die of ${bust.thrown.map((i) => bust.dice[i]).join(" ")} scores.`),
    h("div", { class: "dice small" }, bust.dice.map((value, index) =>
      h("span", {
        class: `die ${thrown.has(index) ? "busted" : "aside"}`,
        role: "img",
        "aria-label": `${value}${thrown.has(index) ? ", thrown" : ", set aside"}`,
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
    const label = value ? `Die ${index + 1}: ${value}` : `Die ${index + 1}: not thrown yet`;
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
    ? "Choose scoring dice to set aside, then roll the rest or bank."
    : "Choose the dice to keep, then roll the others.";
  return h("section", { class: "table", "aria-label": "Dice" },
    h("div", { class: "dice" }, buttons),
    game.status === "active" ? h("p", { class: "help" }, help) : null);
}

function tenThousandButtons(state, act) {
  const turn = state.game.turn;
  const mine = state.mine;
  const chosen = state.selection;
  const free = turn.dice ? turn.set_aside.filter((aside) => !aside).length - chosen.length : 6;
  const rollLabel = !turn.dice ? "Roll six dice" : free === 0 ? "Roll all six again" : `Roll ${free} ${free === 1 ? "die" : "dice"}`;
  const canRoll = !turn.dice || (chosen.length > 0 && turn.throw_points_available);
  return [
    h("button", {
      type: "button", class: "primary", "data-key": "roll", disabled: !mine || !canRoll,
      onclick: () => act.move("roll", turn.dice ? { set_aside: [...chosen] } : {}),
    }, rollLabel),
    h("button", {
      type: "button", "data-key": "bank", disabled: !mine || !turn.dice || !chosen.length,
      onclick: () => act.move("bank", { set_aside: [...chosen] }),
    }, "Bank"),
    h("button", { type: "button", "data-key": "pass", disabled: !mine, onclick: () => act.move("pass", {}) }, "Pass"),
  ];
}

function rollButton(state, act) {
  const turn = state.game.turn;
  const first = !turn.dice;
  const label = first ? "Roll the dice" : `Roll again (${turn.rolls_left} left)`;
  return h("button", {
    type: "button", class: "primary", "data-key": "roll", disabled: !state.mine || turn.rolls_left <= 0,
    onclick: () => act.move("roll", first ? {} : { hold: [...state.selection] }),
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
  }, "Hint"));
  const notes = [];
  if (state.tenThousand && turn.dice) {
    let line = `Turn points: ${turn.turn_points}.`;
    if (chosen.length && state.selectionValue) {
      line += state.selectionValue.scoring
        ? ` The chosen dice score ${state.selectionValue.points}.`
        : " The chosen dice do not all score.";
    }
    notes.push(h("p", { class: "help", "aria-live": "polite" }, line));
  }
  if (state.hint) notes.push(h("p", { class: "hint", "aria-live": "polite" }, `Hint: ${state.hint}`));
  return h("section", { class: "actions", "aria-label": "Moves" }, h("div", { class: "buttons" }, buttons), notes);
}
