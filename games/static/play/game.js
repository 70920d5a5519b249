// The game screen: the table, the moves of the seat this browser holds, the scores and the
// log, followed live. It puts together parts with one job each: the state (game/state.js),
// the connection that hears of moves (game/connection.js), the requests (game/requests.js)
// and the panels that draw the state (game/table.js, scores.js, analysis.js, waiting.js,
// lines.js).

import { alertBox, h, replace, showProblem } from "../common/dom.js";
import { format, gettext } from "../common/i18n.js";
import { observeCharts } from "./chart.js";
import { analysisPanel } from "./game/analysis.js";
import { Announcer } from "./game/announce.js";
import { GameConnection } from "./game/connection.js";
import { assignmentLine, logPanel, nextGamePanel, statusLine } from "./game/lines.js";
import { GameRequests } from "./game/requests.js";
import { scorecardPanel, totalsPanel } from "./game/scores.js";
import { GameState } from "./game/state.js";
import { actionsPanel, bustPanel, dicePanel } from "./game/table.js";
import { waitingPanel } from "./game/waiting.js";

// Where the focus goes when the button that had it is gone or disabled after a drawing.
const FOCUS_AFTER = ["roll", "hint", "bank", "pass", "next-game"];

export class GameScreen {
  constructor(main, rulesets, id, navigate) {
    this.main = main;
    this.state = new GameState(id, rulesets);
    this.problem = alertBox();
    // The status line as it shows; the live region (game/announce.js) says it, and more.
    this.status = h("p", { class: "status" });
    this.announcer = new Announcer(this.state);
    this.resizer = null;
    this.connection = new GameConnection(this.state, () => this.requests.refresh());
    this.requests = new GameRequests(this.state, {
      problem: this.problem,
      changed: () => this.render(),
      moved: () => this.connection.moved(),
      navigate,
    });
    // What the panels may do: each one a request, or a choice on this screen.
    this.actions = {
      move: (action, body) => this.requests.move(action, body),
      choose: (index) => this.choose(index),
      join: (event) => this.join(event),
      begin: () => this.requests.begin(),
      hint: () => this.requests.askHint(),
      nextGame: (button) => this.requests.nextAssignmentGame(button),
    };
  }

  async show() {
    replace(this.main, h("h1", { tabindex: "-1" }, gettext("Loading the game…")));
    try {
      await this.requests.load();
    } catch (error) {
      const box = alertBox();
      showProblem(box, error);
      replace(this.main, [
        h("h1", { tabindex: "-1" }, error.status === 404 ? gettext("No such game") : gettext("The game cannot be shown")),
        box,
        h("p", {}, h("a", { href: "/play/", "data-internal": true }, gettext("New game"))),
      ]);
      return;
    }
    this.render();
    this.main.querySelector("h1")?.focus();
    this.connection.start();
    if (this.state.game.assignment && !this.state.over) this.requests.loadAssignment();
  }

  stop() {
    this.connection.stop();
    this.requests.stop();
    this.resizer?.disconnect();
    this.state.stopped = true;
    this.announcer.clear();
  }

  /** Choose a die, or leave it; in Ten Thousand, ask what the chosen dice score. */
  choose(index) {
    this.state.toggle(index);
    if (this.state.tenThousand) {
      this.state.selectionValue = null;
      this.requests.valueSelection();
    }
    this.render();
  }

  join(event) {
    event.preventDefault();
    const input = event.target.querySelector("input");
    const name = input.value.trim();
    if (!name) {
      this.problem.textContent = gettext("Enter your name to join.");
      this.problem.hidden = false;
      input.focus();
      return;
    }
    this.requests.join(name);
  }

  render() {
    const state = this.state;
    if (state.stopped || !state.game) return;
    const game = state.game;
    document.title = format(gettext("%(ruleset)s · Dice games"), { ruleset: state.ruleset.name });
    this.requests.afterTheEnd();
    const parts = [
      h("h1", { tabindex: "-1" }, state.ruleset.name,
        game.status === "active" ? [" ", h("small", {}, format(gettext("round %(round)s"), { round: game.round }))] : null),
      assignmentLine(state),
      this.status,
    ];
    const line = statusLine(state);
    if (this.status.textContent !== line) this.status.textContent = line;
    this.announcer.update(line);
    if (game.status === "waiting") parts.push(waitingPanel(state, this.actions));
    if (game.status !== "waiting") parts.push(bustPanel(state));
    if (game.status === "active") parts.push(dicePanel(state, this.actions), actionsPanel(state, this.actions));
    parts.push(this.problem);
    parts.push(state.tenThousand ? totalsPanel(state) : scorecardPanel(state, this.actions));
    parts.push(nextGamePanel(state, this.actions));
    if (state.analysis) parts.push(analysisPanel(state));
    else if (state.analysisNote) parts.push(h("p", { class: "help analysis-note" }, state.analysisNote));
    parts.push(logPanel(state));
    parts.push(h("p", { class: "links" }, h("a", { href: "/play/", "data-internal": true },
      game.assignment ? gettext("My assignments and new games") : gettext("New game"))));
    this.resizer?.disconnect();
    replace(this.main, parts, FOCUS_AFTER);
    this.resizer = state.analysis ? observeCharts(this.main) : null;
    const log = this.main.querySelector(".log ol");
    if (log) log.scrollTop = log.scrollHeight;
  }
}
