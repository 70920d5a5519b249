// One tournament followed live, on /teach/ and on a student's /play/ alike: its progress,
// the standings, the chart of points over the boards, its games (each a link to watch it),
// the secrets once it is over, cancelling it, and the standings as CSV.

import { alertBox, h, replace, showProblem } from "./dom.js";
import {
  entrantName, figure, formatOf, gameStatus, isOver, pointsOverBoards, standingsTable,
  tournamentGames, tournamentStatus,
} from "./arena.js";
import { dateTime, format, formatNumber, gettext, ngettext } from "./i18n.js";
import { computerName } from "./options.js";
import { boardsChart } from "./arena_chart.js";
import { Poller } from "../teach/poll.js";

const EVERY_MS = 3000;
const CHART_EVERY_MS = 15_000; // the games behind the chart are read again at most this often
const GAMES_PAGE = 20;

function slug(text) {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

export class TournamentView {
  /** `api`: the page's client; `path`: /classrooms/{id}/tournaments/{tid}/; `onChange`:
   * told of the tournament as each answer has it. */
  constructor(section, { api, key, path, rulesets, onChange = null, headingLevel = "h2" }) {
    this.section = section;
    this.api = api;
    this.key = key;
    this.path = path;
    this.rulesets = rulesets;
    this.onChange = onChange;
    this.headingLevel = headingLevel;
    this.tournament = null;
    this.poller = null;
    this.last = null;
    this.chartAt = 0;
    this.chartFinished = -1;
    this.games = null;
    this.gamesPage = 1;
  }

  follow() {
    this.stop();
    this.problem = alertBox();
    this.status = h("p", { class: "status", role: "status", "aria-live": "polite" });
    this.meta = h("p", { class: "meta" });
    this.progress = h("p", { class: "progress" });
    this.updated = h("p", { class: "updated" });
    this.actions = h("div", { class: "row" });
    this.chartPart = h("div", { class: "chart-box" });
    // A wide table scrolls in its own box, which the keyboard can reach and scroll.
    this.tablePart = h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-labelledby": "standings-title" });
    this.gamesPart = h("div");
    this.secretsPart = h("div");
    this.title = h(this.headingLevel, { id: "tournament-title", tabindex: "-1" }, gettext("Loading the tournament…"));
    this.section.hidden = false;
    replace(this.section, [
      this.title, this.meta, this.progress, this.status, this.updated, this.problem, this.actions,
      h("h3", { id: "standings-title" }, gettext("Standings")),
      this.tablePart,
      this.chartPart,
      h("h3", { id: "tournament-games-title" }, gettext("Games")),
      this.gamesPart,
      this.secretsPart,
    ]);
    this.title.focus();
    this.poller = new Poller(() => this.refresh(), EVERY_MS);
    this.poller.start();
  }

  stop() {
    this.poller?.stop();
    this.poller = null;
  }

  async refresh() {
    let tournament;
    try {
      tournament = await this.api.request("GET", this.path, { key: this.key });
    } catch (error) {
      if (this.problem.hidden || this.problem.textContent !== error.message) showProblem(this.problem, error);
      return ![401, 403, 404].includes(error.status);
    }
    this.problem.hidden = true;
    this.tournament = tournament;
    this.updated.textContent = isOver(tournament)
      ? (tournament.status === "cancelled"
        ? gettext("The tournament is cancelled: these standings are final.")
        : gettext("The tournament is finished: these standings are final."))
      : format(gettext("Following live: updated %(time)s."), { time: dateTime(new Date(), { timeStyle: "medium" }) });
    const json = JSON.stringify(tournament);
    const changed = json !== this.last;
    this.last = json;
    if (changed) {
      this.onChange?.(tournament);
      this.draw(tournament);
    }
    await this.refreshGames(tournament, changed);
    return !isOver(tournament);
  }

  draw(t) {
    const ruleset = this.rulesets.find((r) => r.id === t.ruleset);
    this.title.textContent = t.title;
    this.meta.textContent = [
      ruleset?.name ?? t.ruleset, formatOf(t),
      format(ngettext("%(count)s entrant", "%(count)s entrants", t.entrants.length), { count: t.entrants.length }),
      t.rated ? gettext("rated") : gettext("not rated"),
      format(gettext("%(seconds)s s a turn"), { seconds: t.turn_seconds ?? 30 }), tournamentStatus(t.status),
    ].join(" · ");
    const { games, finished } = t.progress;
    replace(this.progress, [
      h("progress", { value: finished, max: Math.max(games, 1), "aria-hidden": "true" }),
      " ",
      format(ngettext("%(finished)s of %(count)s game finished.", "%(finished)s of %(count)s games finished.", games),
        { finished, count: games }),
    ]);
    const leader = t.standings[0];
    const text = [
      format(ngettext("%(status)s: %(finished)s of %(count)s game finished.",
        "%(status)s: %(finished)s of %(count)s games finished.", games),
      { status: tournamentStatus(t.status), finished, count: games }),
      leader && leader.games ? format(gettext("%(name)s leads with %(points)s points."), {
        name: entrantName(t, leader.entrant, leader.name), points: figure(leader.points, 1),
      }) : null,
    ].filter(Boolean).join(" ");
    if (this.status.textContent !== text) this.status.textContent = text;
    replace(this.actions, [
      h("button", { type: "button", "data-key": "standings-csv", onclick: (e) => this.saveCsv(e.currentTarget) },
        gettext("Download the standings (CSV)")),
      isOver(t) ? null : h("button", {
        type: "button", class: "quiet", "data-key": "cancel-tournament", onclick: () => this.askCancel(),
      }, gettext("Cancel the tournament")),
    ], ["standings-csv"]);
    replace(this.tablePart, standingsTable(t, { id: "standings-table", caption: format(gettext("Standings of %(title)s, best first"), { title: t.title }) }));
    replace(this.secretsPart, secretsPart(t));
  }

  /** The chart and the games' table: read again when games finished, not at every poll. */
  async refreshGames(t, changed) {
    const due = Date.now() - this.chartAt > CHART_EVERY_MS || isOver(t);
    if (this.chartFinished === t.progress.finished && !changed) return;
    if (!due && this.games) return;
    this.chartAt = Date.now();
    try {
      this.games = await tournamentGames(this.api, this.path, this.key);
    } catch (error) {
      showProblem(this.problem, error);
      return;
    }
    this.chartFinished = t.progress.finished;
    replace(this.chartPart, boardsChart(pointsOverBoards(t, this.games), {
      id: "boards-chart", order: t.standings.map((row) => row.entrant), tableId: "standings-table",
    }));
    this.drawGames();
  }

  drawGames() {
    const games = this.games ?? [];
    const pages = Math.max(1, Math.ceil(games.length / GAMES_PAGE));
    this.gamesPage = Math.min(this.gamesPage, pages);
    const shown = games.slice((this.gamesPage - 1) * GAMES_PAGE, this.gamesPage * GAMES_PAGE);
    const row = (game) => h("tr", {},
      h("td", {}, game.tournament_game ?? "–"),
      h("td", {}, game.board ?? "–"),
      h("td", { class: "text" }, game.players
        .map((p) => `${p.computer ? computerName(p.computer) : p.name} ${formatNumber(p.total)}`).join(" – ")),
      h("td", { class: "text" }, gameStatus(game.status)),
      h("td", { class: "text" }, h("a", {
        href: `/play/${game.id}/`, "data-internal": true,
        "aria-label": format(gettext("Watch game %(number)s"), { number: game.tournament_game ?? "" }),
      }, gettext("Watch"))));
    const pager = pages > 1 ? h("div", { class: "row" },
      h("button", {
        type: "button", "data-key": "games-before", disabled: this.gamesPage <= 1,
        onclick: () => { this.gamesPage -= 1; this.drawGames(); },
      }, gettext("Earlier games")),
      h("span", {}, format(gettext("Page %(page)s of %(pages)s"), { page: this.gamesPage, pages })),
      h("button", {
        type: "button", "data-key": "games-after", disabled: this.gamesPage >= pages,
        onclick: () => { this.gamesPage += 1; this.drawGames(); },
      }, gettext("Later games"))) : null;
    replace(this.gamesPart, games.length ? [
      h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-labelledby": "tournament-games-title" },
        h("table", { class: "results", id: "tournament-games" },
        h("caption", {}, format(gettext("Games started: %(count)s"), { count: games.length })),
        h("thead", {}, h("tr", {}, [gettext("#"), gettext("Board"), gettext("Seats and totals"), gettext("Status"), gettext("Game")]
          .map((name) => h("th", { scope: "col" }, name)))),
        h("tbody", {}, shown.map(row)))),
      pager,
    ] : h("p", {}, gettext("No game has started yet.")), ["games-before", "games-after"]);
  }

  askCancel() {
    const keep = h("button", { type: "button", "data-key": "keep-tournament", onclick: () => this.draw(this.tournament) },
      gettext("Keep it going"));
    replace(this.actions, [
      h("p", { id: "cancel-question" }, gettext("Cancel it? Its unfinished games are abandoned and the secrets shown.")),
      h("button", {
        type: "button", class: "primary", "data-key": "confirm-cancel", "aria-describedby": "cancel-question",
        onclick: (event) => this.cancel(event.currentTarget),
      }, gettext("Yes, cancel the tournament")),
      keep,
    ]);
    this.actions.querySelector("[data-key=confirm-cancel]").focus();
  }

  async cancel(button) {
    button.disabled = true;
    try {
      const tournament = await this.api.request("POST", `${this.path}cancel/`, { key: this.key });
      this.status.textContent = gettext("The tournament is cancelled.");
      if (tournament) {
        this.tournament = tournament;
        this.draw(tournament);
      }
      this.poller?.now();
    } catch (error) {
      showProblem(this.problem, error);
      this.draw(this.tournament);
    }
    this.actions.querySelector("button")?.focus();
  }

  async saveCsv(button) {
    button.disabled = true;
    const t = this.tournament;
    try {
      const blob = await this.api.request("GET", `${this.path}standings/`, { key: this.key, accept: "text/csv" });
      const name = `standings-${slug(t.title) || t.id}.csv`;
      const url = URL.createObjectURL(blob);
      const link = h("a", { href: url, download: name, hidden: true });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 30_000);
      this.status.textContent = format(gettext("The standings were saved as %(name)s."), { name });
    } catch (error) {
      showProblem(this.problem, error);
    } finally {
      button.disabled = false;
      button.focus();
    }
  }
}

function secretsPart(t) {
  const commitments = h("details", {},
    h("summary", {}, gettext("Commitments")),
    h("p", {}, gettext("Every game of board b is thrown from the b-th secret; each line is the SHA-256 of one, fixed when the tournament was set.")),
    h("ol", { class: "hashes" }, t.commitments.map((hash) => h("li", {}, h("code", {}, hash)))));
  if (!t.secrets) return commitments;
  return [
    h("h3", {}, gettext("Secrets")),
    h("p", {}, gettext("The tournament is over: with these secrets anyone can check the record of each of its games.")),
    h("ol", { class: "hashes", "aria-label": gettext("Secrets") }, t.secrets.map((secret) => h("li", {}, h("code", {}, secret)))),
    commitments,
  ];
}
