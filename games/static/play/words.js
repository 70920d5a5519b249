// Events and advice in words, for the log, the hints and what the screen reader hears.

import { format, formatNumber, formatPercent, gettext, list, ngettext } from "../common/i18n.js";

export function boxName(ruleset, id) {
  return ruleset?.categories.find((box) => box.id === id)?.name ?? id;
}

/** Dice by their numbers: "3 3 5". */
export function faces(dice) {
  return (dice || []).join(" ");
}

function positions(indices) {
  return list((indices || []).map((index) => String(index + 1)));
}

export function seatName(game, seat) {
  return game?.players[seat]?.name ?? format(gettext("Seat %(number)s"), { number: seat + 1 });
}

/** "Ann wins" or "Ann and Bo draw". */
export function winnersText(names) {
  return names.length > 1
    ? format(gettext("%(names)s draw"), { names: list(names) })
    : format(gettext("%(name)s wins"), { name: names[0] });
}

/** One line of the log; `table` carries the dice of the last throw from line to line. */
export function describe(event, game, ruleset, table = {}) {
  const who = event.seat === null ? "" : seatName(game, event.seat);
  const data = event.data || {};
  switch (event.type) {
    case "created":
      return format(gettext("Game of %(ruleset)s created."), { ruleset: ruleset?.name ?? data.ruleset });
    case "joined":
      return format(gettext("%(name)s joined."), { name: data.name ?? who });
    case "started":
      return gettext("The game started.");
    case "rolled":
      table.dice = data.dice;
      return format(gettext("%(name)s rolled %(dice)s."), { name: who, dice: faces(data.thrown?.map((i) => data.dice[i])) });
    case "held":
      return data.held?.length
        ? format(gettext("%(name)s kept %(dice)s."), { name: who, dice: faces(data.held.map((i) => table.dice?.[i])) })
        : format(gettext("%(name)s kept no die."), { name: who });
    case "scored": {
      const values = { name: who, points: data.points, box: boxName(ruleset, data.category), bonus: data.yahtzee_bonus };
      return data.yahtzee_bonus
        ? format(gettext("%(name)s scored %(points)s in %(box)s and a bonus of %(bonus)s."), values)
        : format(gettext("%(name)s scored %(points)s in %(box)s."), values);
    }
    case "scratched":
      return format(gettext("%(name)s scratched %(box)s."), { name: who, box: boxName(ruleset, data.category) });
    case "set_aside":
      return table.dice
        ? format(gettext("%(name)s set aside %(dice)s for %(points)s."),
          { name: who, dice: faces(data.dice.map((i) => table.dice[i])), points: data.points })
        : format(gettext("%(name)s set aside dice %(positions)s for %(points)s."),
          { name: who, positions: positions(data.dice), points: data.points });
    case "busted":
      return format(gettext("%(name)s busted with %(dice)s and lost %(lost)s points."),
        { name: who, dice: faces(data.dice), lost: data.lost });
    case "banked":
      return format(gettext("%(name)s banked %(points)s (total %(total)s)."),
        { name: who, points: data.points, total: data.total });
    case "passed":
      return format(gettext("%(name)s passed."), { name: who });
    case "left":
      return format(gettext("%(name)s left the game."), { name: who });
    case "finished": {
      const names = (data.winners || []).map((seat) => seatName(game, seat));
      return names.length
        ? format(gettext("Game over: %(winners)s."), { winners: winnersText(names) })
        : gettext("Game over.");
    }
    case "abandoned":
      return gettext("The game was abandoned.");
    default:
      return format(gettext("%(name)s: %(event)s."), { name: who, event: event.type }).trim();
  }
}

/** A Ten Thousand option in words, with its value in the hint's objective. */
function tenThousandAdvice(hint) {
  const best = hint.best;
  const value = hint.options?.[0]?.value;
  let worth = "";
  if (typeof value === "number") {
    worth = hint.objective === "win_probability"
      ? format(gettext("chance of winning %(percent)s"), { percent: formatPercent(100 * value, 1) })
      : format(gettext("expected turns still to play %(turns)s"), { turns: formatNumber(value, 2, { fixed: true }) });
  }
  let move;
  if (best === "pass") move = gettext("Pass");
  else if (!best.keep.length) move = gettext("Roll all six dice");
  else if (best.then === "bank") move = format(gettext("Set aside %(dice)s and bank"), { dice: faces(best.keep) });
  else move = format(gettext("Set aside %(dice)s and roll the rest"), { dice: faces(best.keep) });
  const text = worth ? format(gettext("%(move)s (%(worth)s)."), { move, worth }) : format(gettext("%(move)s."), { move });
  return hint.method === "approximate" ? `${text} ${gettext("This is an approximation.")}` : text;
}

/** The advice of a hint, as a sentence. */
export function advice(hint, game, ruleset) {
  const best = hint.best;
  if (!best) return gettext("No move to advise.");
  if (hint.objective) return tenThousandAdvice(hint);
  const dice = game.turn.dice || [];
  let move;
  switch (best.action) {
    case "roll":
      move = best.hold?.length
        ? format(gettext("Keep %(dice)s and roll again"), { dice: faces(best.hold.map((i) => dice[i])) })
        : gettext("Roll every die again");
      break;
    case "score":
      move = typeof best.points === "number"
        ? format(gettext("Score %(points)s in %(box)s"), { points: best.points, box: boxName(ruleset, best.category) })
        : format(gettext("Fill %(box)s"), { box: boxName(ruleset, best.category) });
      break;
    default:
      move = best.action;
  }
  return typeof best.expected_final === "number"
    ? format(gettext("%(move)s (expected final score %(score)s)."),
      { move, score: formatNumber(best.expected_final, 1, { fixed: true }) })
    : format(gettext("%(move)s."), { move });
}

/** How many points, in words: "1 point", "350 points". */
export function points(count) {
  return format(ngettext("%(count)s point", "%(count)s points", count), { count });
}
