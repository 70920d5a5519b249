// Events and advice in words, for the log and the hints.

import { list } from "../common/text.js";

export function boxName(ruleset, id) {
  return ruleset?.categories.find((box) => box.id === id)?.name ?? id;
}

function faces(dice) {
  return (dice || []).join(" ");
}

function positions(indices) {
  return list((indices || []).map((index) => String(index + 1)));
}

/** One line of the log; `table` carries the dice of the last throw from line to line. */
export function describe(event, game, ruleset, table = {}) {
  const who = event.seat === null ? "" : (game?.players[event.seat]?.name ?? `Seat ${event.seat + 1}`);
  const data = event.data || {};
  switch (event.type) {
    case "created":
      return `Game of ${ruleset?.name ?? data.ruleset} created.`;
    case "joined":
      return `${data.name ?? who} joined.`;
    case "started":
      return "The game started.";
    case "rolled":
      table.dice = data.dice;
      return `${who} rolled ${faces(data.thrown?.map((i) => data.dice[i]))}.`;
    case "held":
      return data.held?.length ? `${who} kept ${faces(data.held.map((i) => table.dice?.[i]))}.` : `${who} kept no die.`;
    case "scored": {
      const bonus = data.yahtzee_bonus ? ` and a bonus of ${data.yahtzee_bonus}` : "";
      return `${who} scored ${data.points} in ${boxName(ruleset, data.category)}${bonus}.`;
    }
    case "scratched":
      return `${who} scratched ${boxName(ruleset, data.category)}.`;
    case "set_aside":
      return table.dice
        ? `${who} set aside ${faces(data.dice.map((i) => table.dice[i]))} for ${data.points}.`
        : `${who} set aside dice ${positions(data.dice)} for ${data.points}.`;
    case "busted":
      return `${who} busted with ${faces(data.dice)} and lost ${data.lost} points.`;
    case "banked":
      return `${who} banked ${data.points} (total ${data.total}).`;
    case "passed":
      return `${who} passed.`;
    case "left":
      return `${who} left the game.`;
    case "finished": {
      const names = (data.winners || []).map((seat) => game?.players[seat]?.name ?? `Seat ${seat + 1}`);
      return names.length ? `Game over: ${list(names)} ${names.length > 1 ? "draw" : "wins"}.` : "Game over.";
    }
    case "abandoned":
      return "The game was abandoned.";
    default:
      return `${who} ${event.type}.`.trim();
  }
}

/** The advice of a hint, as a sentence. */
/** A Ten Thousand option in words, with its value in the hint's objective. */
function tenThousandAdvice(hint) {
  const best = hint.best;
  const value = hint.options?.[0]?.value;
  const worth = typeof value !== "number" ? ""
    : hint.objective === "win_probability" ? ` (chance of winning ${(100 * value).toFixed(1)}%)`
      : ` (expected turns still to play ${value.toFixed(2)})`;
  const approximate = hint.method === "approximate" ? " This is an approximation." : "";
  if (best === "pass") return `Pass${worth}.${approximate}`;
  if (!best.keep.length) return `Roll all six dice${worth}.${approximate}`;
  const then = best.then === "bank" ? "bank" : "roll the rest";
  return `Set aside ${faces(best.keep)} and ${then}${worth}.${approximate}`;
}

export function advice(hint, game, ruleset) {
  const best = hint.best;
  if (!best) return "No move to advise.";
  if (hint.objective) return tenThousandAdvice(hint);
  const dice = game.turn.dice || [];
  const expected =
    typeof best.expected_final === "number" ? ` (expected final score ${best.expected_final.toFixed(1)})` : "";
  switch (best.action) {
    case "roll":
      return best.hold?.length
        ? `Keep ${faces(best.hold.map((i) => dice[i]))} and roll again${expected}.`
        : `Roll every die again${expected}.`;
    case "score":
      return `Score ${best.points ?? ""} in ${boxName(ruleset, best.category)}${expected}.`.replace("  ", " ");
    default:
      return `${best.action}${expected}.`;
  }
}
