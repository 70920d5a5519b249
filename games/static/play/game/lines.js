// The game's words: the status line, the assignment it belongs to, the next game of that
// assignment, and the log.

import { h } from "../../common/dom.js";
import { format, gettext, ngettext } from "../../common/i18n.js";
import { nextGame, timeOf } from "../assignments.js";
import { describe, winnersText } from "../words.js";

/** Whose turn it is, who is awaited, or how the game ended. */
export function statusLine(state) {
  const game = state.game;
  if (game.status === "waiting") {
    return format(ngettext("Waiting for %(count)s more player to join.", "Waiting for %(count)s more players to join.",
      game.open_seats), { count: game.open_seats });
  }
  if (game.status === "abandoned") return gettext("This game was abandoned.");
  if (game.status === "finished") {
    const winners = game.winners.map((seat) => state.name(seat));
    if (!winners.length) return gettext("Game over.");
    const best = game.players[game.winners[0]].total;
    return format(ngettext("Game over: %(winners)s with %(count)s point.", "Game over: %(winners)s with %(count)s points.", best),
      { winners: winnersText(winners), count: best });
  }
  const seat = game.current_seat;
  if (state.myToken) return format(gettext("Your turn, %(name)s."), { name: state.name(seat) });
  const player = game.players[seat];
  return player?.computer
    ? format(gettext("%(name)s (computer) is playing."), { name: player.name })
    : format(gettext("Waiting for %(name)s to play."), { name: state.name(seat) });
}

/** "Week 3: game 3 of 10, due Friday 17:00", for a game of an assignment. */
export function assignmentLine(state) {
  const game = state.game;
  if (!game.assignment) return null;
  const meta = state.assignment;
  const k = game.assignment_game;
  if (!meta) return h("p", { class: "assignment-line" }, format(gettext("Assignment game %(number)s."), { number: k }));
  const past = Date.parse(meta.due_at) <= Date.now();
  const values = { title: meta.title, number: k, games: meta.games };
  return h("p", { class: "assignment-line" },
    format(past ? gettext("%(title)s: game %(number)s of %(games)s, was due") : gettext("%(title)s: game %(number)s of %(games)s, due"), values),
    " ", timeOf(meta.due_at));
}

/** After a game of an assignment: the next one, when the student may start it now. */
export function nextGamePanel(state, act) {
  const now = state.assignmentNow;
  if (!now || !state.over) return null;
  const next = nextGame(now);
  if (!next) return null;
  return h("p", { class: "next-game" }, h("button", {
    type: "button", class: "primary", "data-key": "next-game",
    "aria-label": format(gettext("Start game %(number)s of %(games)s, %(title)s"), { number: next, games: now.games, title: now.title }),
    onclick: (event) => act.nextGame(event.currentTarget),
  }, format(gettext("Start game %(number)s of %(games)s"), { number: next, games: now.games })));
}

export function logPanel(state) {
  const table = {};
  return h("section", { class: "log", "aria-labelledby": "log-title" },
    h("h2", { id: "log-title" }, gettext("Log")),
    h("ol", { tabindex: "0", "aria-label": gettext("Events of the game") },
      state.events.map((event) => h("li", { class: `event ${event.type}` }, describe(event, state.game, state.ruleset, table)))));
}
