// The game's words: the status line, the assignment it belongs to, the next game of that
// assignment, and the log.

import { h } from "../../common/dom.js";
import { list } from "../../common/text.js";
import { nextGame, timeOf } from "../assignments.js";
import { describe } from "../words.js";

/** Whose turn it is, who is awaited, or how the game ended. */
export function statusLine(state) {
  const game = state.game;
  if (game.status === "waiting") {
    return `Waiting for ${game.open_seats} more player${game.open_seats === 1 ? "" : "s"} to join.`;
  }
  if (game.status === "abandoned") return "This game was abandoned.";
  if (game.status === "finished") {
    const winners = game.winners.map((seat) => state.name(seat));
    if (!winners.length) return "Game over.";
    const best = game.players[game.winners[0]].total;
    return `Game over: ${list(winners)} ${winners.length > 1 ? "draw" : "wins"} with ${best} points.`;
  }
  const seat = game.current_seat;
  if (state.myToken) return `Your turn, ${state.name(seat)}.`;
  const player = game.players[seat];
  return player?.computer ? `${player.name} (computer) is playing.` : `Waiting for ${state.name(seat)} to play.`;
}

/** "Week 3: game 3 of 10, due Friday 17:00", for a game of an assignment. */
export function assignmentLine(state) {
  const game = state.game;
  if (!game.assignment) return null;
  const meta = state.assignment;
  const k = game.assignment_game;
  if (!meta) return h("p", { class: "assignment-line" }, `Assignment game ${k}.`);
  const past = Date.parse(meta.due_at) <= Date.now();
  return h("p", { class: "assignment-line" },
    `${meta.title}: game ${k} of ${meta.games}, ${past ? "was due" : "due"} `, timeOf(meta.due_at));
}

/** After a game of an assignment: the next one, when the student may start it now. */
export function nextGamePanel(state, act) {
  const now = state.assignmentNow;
  if (!now || !state.over) return null;
  const next = nextGame(now);
  if (!next) return null;
  return h("p", { class: "next-game" }, h("button", {
    type: "button", class: "primary", "data-key": "next-game",
    "aria-label": `Start game ${next} of ${now.games}, ${now.title}`,
    onclick: (event) => act.nextGame(event.currentTarget),
  }, `Start game ${next} of ${now.games}`));
}

export function logPanel(state) {
  const table = {};
  return h("section", { class: "log", "aria-labelledby": "log-title" },
    h("h2", { id: "log-title" }, "Log"),
    h("ol", { tabindex: "0", "aria-label": "Events of the game" },
      state.events.map((event) => h("li", { class: `event ${event.type}` }, describe(event, state.game, state.ruleset, table)))));
}
