// Tournaments as both pages show them: the words of their statuses, the standings table, the points each entrant held
// after each board (for the chart), and the games of a tournament, read page by page.

import { h } from "./dom.js";
import { format, formatNumber, formatPercent, gettext, ngettext, pgettext } from "./i18n.js";
import { computerName } from "./options.js";

export const COMPUTER_LEVELS = ["random", "greedy", "optimal"];

/** A tournament's status in words. */
export function tournamentStatus(status) {
  switch (status) {
    case "scheduled": return pgettext("tournament", "scheduled");
    case "running": return pgettext("tournament", "running");
    case "finished": return pgettext("tournament", "finished");
    case "cancelled": return pgettext("tournament", "cancelled");
    default: return status;
  }
}

/** A game's status in words. */
export function gameStatus(status) {
  switch (status) {
    case "waiting": return pgettext("game", "waiting");
    case "active": return pgettext("game", "under way");
    case "finished": return pgettext("game", "finished");
    case "abandoned": return pgettext("game", "abandoned");
    default: return status;
  }
}

/** An entrant's name as the page shows it: a computer by its level, in the page's words. */
export function entrantName(tournament, number, name) {
  const entrant = tournament.entrants.find((e) => e.entrant === number);
  return entrant?.computer ? computerName(entrant.computer) : name;
}
// Games read for the chart, at most: a hundred a page, so at most twenty requests.
const MOST_GAMES_READ = 2000;

export function isOver(tournament) {
  return tournament.status === "finished" || tournament.status === "cancelled";
}

/** A number as the pages show it: at most `digits` decimals, no trailing zeros. */
export function figure(value, digits = 2) {
  if (value === null || value === undefined) return null;
  return formatNumber(Number(value), digits, { grouping: false });
}

/** How many games a schedule holds (as the service counts them). */
export function gamesCount(seats, boards, entrants) {
  return boards * (seats === 1 ? entrants : entrants * Math.max(entrants - 1, 0));
}

/** "Field" or "Round robin", with the boards. */
export function formatOf(tournament) {
  const boards = tournament.boards;
  return tournament.seats === 1
    ? format(ngettext("Field, %(count)s board", "Field, %(count)s boards", boards), { count: boards })
    : format(ngettext("Round robin, %(count)s board", "Round robin, %(count)s boards", boards), { count: boards });
}

function none() {
  return [h("span", { "aria-hidden": "true" }, "–"), h("span", { class: "visually-hidden" }, gettext("none"))];
}

/** The standings, best first, as a table with the id `id`. */
export function standingsTable(tournament, { id, caption }) {
  const rated = tournament.rated;
  const cell = (value) => h("td", {}, value === null || value === undefined ? none() : value);
  const headings = [gettext("Rank"), gettext("Entrant"), gettext("Games"), gettext("Points"),
    gettext("Wins"), gettext("Draws"), gettext("Losses"), pgettext("standings", "Mean score")];
  if (rated) headings.push(gettext("Rating (μ − 3σ)"), gettext("μ ± σ"));
  headings.push(gettext("Mean accuracy"), gettext("Timeouts"));
  const rows = tournament.standings.map((row, index) => h("tr", {},
    cell(index + 1),
    h("th", { scope: "row" }, entrantName(tournament, row.entrant, row.name)),
    cell(row.games),
    cell(figure(row.points, 1)),
    cell(row.wins),
    cell(row.draws),
    cell(row.losses),
    cell(figure(row.mean_score, 1)),
    rated ? cell(row.rating ? figure(row.rating.ordinal) : null) : null,
    rated ? cell(row.rating ? `${figure(row.rating.mu)} ± ${figure(row.rating.sigma)}` : null) : null,
    cell(row.mean_accuracy === null ? null : formatPercent(row.mean_accuracy, 1)),
    cell(row.timeouts)));
  return h(
    "table",
    { id, class: "results standings" },
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, headings.map((name) => h("th", { scope: "col" }, name)))),
    h("tbody", {}, rows.length
      ? rows
      : h("tr", {}, h("td", { colspan: headings.length }, gettext("No game has finished yet.")))),
  );
}

/** Who sits in each seat of a game: the entrant's number, by its bot, else by its name. */
function seatEntrants(game, entrants) {
  const taken = new Set();
  return game.players.map((player) => {
    const found = entrants.find((e) => !taken.has(e.entrant) && player.bot && e.bot === player.bot)
      ?? entrants.find((e) => !taken.has(e.entrant) && e.name === player.name);
    if (!found) return null;
    taken.add(found.entrant);
    return found.entrant;
  });
}

/**
 * The points of each entrant after each board, from the finished games given: for a round
 * robin a win 1 and a draw ½; for a field, on each board, 1 for each other entrant who
 * scored less and ½ for each who scored as much. Answers {boards, series: [{entrant,
 * name, values}]}, values[b - 1] being the points after board b (boards with no finished
 * game yet left out).
 */
export function pointsOverBoards(tournament, games) {
  const points = new Map(tournament.entrants.map((e) => [e.entrant, new Array(tournament.boards).fill(0)]));
  const seen = new Set();
  const fieldScores = new Map(); // board -> [[entrant, total], ...]
  for (const game of games) {
    if (game.status !== "finished" || !game.board) continue;
    seen.add(game.board);
    const who = seatEntrants(game, tournament.entrants);
    const totals = game.players.map((p) => p.total);
    if (tournament.seats === 1) {
      if (who[0] === null) continue;
      if (!fieldScores.has(game.board)) fieldScores.set(game.board, []);
      fieldScores.get(game.board).push([who[0], totals[0]]);
      continue;
    }
    if (who.length !== 2 || who.includes(null)) continue;
    const [a, b] = totals;
    const share = a === b ? [0.5, 0.5] : a > b ? [1, 0] : [0, 1];
    who.forEach((entrant, seat) => {
      points.get(entrant)[game.board - 1] += share[seat];
    });
  }
  for (const [board, scores] of fieldScores) {
    for (const [entrant, total] of scores) {
      let won = 0;
      for (const [other, theirs] of scores) {
        if (other === entrant) continue;
        won += total > theirs ? 1 : total === theirs ? 0.5 : 0;
      }
      points.get(entrant)[board - 1] += won;
    }
  }
  const boards = [...seen].sort((x, y) => x - y);
  const last = boards.at(-1) ?? 0;
  const series = tournament.entrants.map((e) => {
    const values = [];
    let sum = 0;
    for (let board = 1; board <= last; board += 1) {
      sum += points.get(e.entrant)[board - 1];
      values.push(seen.has(board) ? sum : null);
    }
    return { entrant: e.entrant, name: entrantName(tournament, e.entrant, e.name), values };
  });
  return { boards, series };
}

/** Every game of a tournament (up to a bound), in pages of a hundred. */
export async function tournamentGames(api, path, key) {
  const games = [];
  for (let page = 1; games.length < MOST_GAMES_READ; page += 1) {
    const answer = await api.request("GET", `${path}games/?page_size=100&page=${page}`, { key });
    const found = Array.isArray(answer) ? answer : answer?.results ?? [];
    games.push(...found);
    if (Array.isArray(answer) || !answer?.next || !found.length) break;
  }
  return games;
}

/** A list answer, paginated or not, as a list. */
export function listOf(answer) {
  return Array.isArray(answer) ? answer : answer?.results ?? [];
}
