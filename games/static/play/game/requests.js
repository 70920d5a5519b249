// What the game screen asks of the API: the game (again, when it changed), the moves of the
// seat this browser holds, a hint, the analysis, and the game's assignment. Each answer goes
// into the state; a refusal into the screen's alert.

import { playerApi } from "../../common/api.js";
import { showProblem } from "../../common/dom.js";
import { gettext } from "../../common/i18n.js";
import {
  fetchAssignment, keepAssignment, keyOwner, startAssignmentGame,
} from "../assignments.js";
import { keepSeat } from "../seats.js";
import { advice } from "../words.js";

// The rulesets whose strategy is solved: only these have an analysis (Ten Thousand: in games
// of one or two seats; the service says so for the others).
const ANALYSED = new Set(["yahtzee", "yatzy", "forced-yatzy", "ten-thousand"]);
// How often a 503 for the analysis (its strategy table being built) is tried again.
const ANALYSIS_TRIES = 5;

export class GameRequests {
  /**
   * `problem`: the screen's alert, for refusals; `changed()`: the state changed, to be drawn;
   * `moved()`: a move was made; `navigate(path)`: go to another page of the client.
   */
  constructor(state, { problem, changed, moved, navigate }) {
    this.state = state;
    this.problem = problem;
    this.changed = changed;
    this.moved = moved;
    this.navigate = navigate;
    this.refreshing = null;
    this.refreshAgain = false;
    this.analysisAsked = false;
    this.analysisTries = 0;
    this.analysisTimer = null;
    this.assignmentAskedAfter = false;
  }

  get path() {
    return `/games/${this.state.id}/`;
  }

  stop() {
    clearTimeout(this.analysisTimer);
  }

  /** The game, the first time; a key revoked since is forgotten, and the game asked again. */
  async load() {
    let answer;
    try {
      answer = await playerApi.get(this.path, this.state.reader);
    } catch (error) {
      if (error.code !== "invalid_api_key") throw error;
      playerApi.key.forget(); // revoked: of no use in this tab any more
      answer = await playerApi.get(this.path, this.state.reader);
    }
    this.state.start(answer.data, answer.etag);
  }

  /** What a game asks for once it is over: its analysis, and its assignment's progress. */
  afterTheEnd() {
    const state = this.state;
    const game = state.game;
    if (game.status === "finished" && !this.analysisAsked) this.loadAnalysis();
    if (game.assignment && state.over && !this.assignmentAskedAfter) {
      // Once the game is over, the progress again: which game of it comes next.
      this.assignmentAskedAfter = true;
      this.loadAssignment();
    }
  }

  /** Get the game again if it changed (conditional GET); one request at a time. */
  async refresh() {
    const state = this.state;
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    this.refreshing = (async () => {
      do {
        this.refreshAgain = false;
        try {
          const answer = await playerApi.get(this.path, { ...state.reader, etag: state.etag });
          if (answer.status === 200) state.take(answer.data, answer.etag);
        } catch {
          // A missed refresh is made good by the next event.
        }
      } while (this.refreshAgain && !state.stopped);
      this.refreshing = null;
      if (!state.stopped) this.changed();
    })();
  }

  async move(action, body) {
    const state = this.state;
    if (state.busy) return;
    const token = state.myToken;
    if (!token) return;
    state.busy = true;
    this.problem.hidden = true;
    this.changed();
    try {
      const answer = await playerApi.post(`${this.path}${action}/`, body, { token });
      state.take(answer.data, answer.etag);
      this.moved();
    } catch (error) {
      showProblem(this.problem, error);
    } finally {
      state.busy = false;
      this.changed();
    }
  }

  async join(name) {
    this.problem.hidden = true;
    try {
      const answer = await playerApi.post(`${this.path}join/`, { name });
      const mine = answer.data.players.find((p) => p.token);
      if (mine) keepSeat(this.state.id, mine.seat, mine.token);
      this.state.take(answer.data, answer.etag);
    } catch (error) {
      showProblem(this.problem, error);
    }
    this.changed();
  }

  /** Begin the game without its open seats. */
  async begin() {
    const seats = this.state.seats;
    const seat = Object.keys(seats)[0];
    try {
      const answer = await playerApi.post(`${this.path}start/`, {}, { token: seats[seat] });
      this.state.take(answer.data, answer.etag);
    } catch (error) {
      showProblem(this.problem, error);
    }
    this.changed();
  }

  async askHint() {
    const state = this.state;
    this.problem.hidden = true;
    try {
      const answer = await playerApi.get(`${this.path}hint/`, state.reader);
      state.hint = advice(answer.data, state.game, state.ruleset);
    } catch (error) {
      showProblem(this.problem, error);
    }
    this.changed();
  }

  async loadAnalysis() {
    const state = this.state;
    // Shown where it exists: a solved ruleset, and a service that has the endpoint.
    this.analysisAsked = true;
    if (!ANALYSED.has(state.ruleset.id) || !(await analysisServed())) return;
    try {
      const answer = await playerApi.get(`${this.path}analysis/`, state.reader);
      state.analysis = answer.data;
      state.analysisNote = null;
      this.changed();
    } catch (error) {
      // 503: the strategy table is being built; asked again a few times. 404 or 409: no
      // analysis for this game; nothing to show.
      if (error.code !== "strategy_unavailable" || state.stopped) return;
      this.analysisTries += 1;
      if (this.analysisTries >= ANALYSIS_TRIES) {
        state.analysisNote = gettext("The analysis is not ready yet: open this game again later to see it.");
      } else {
        state.analysisNote = gettext("The analysis is being prepared; it shows here when it is ready.");
        const wait = Math.min(Math.max(error.retryAfter ?? 5, 2), 60);
        this.analysisTimer = setTimeout(() => this.loadAnalysis(), wait * 1000);
      }
      this.changed();
    }
  }

  /** What the dice chosen to set aside score, from the public calculator. */
  async valueSelection() {
    const state = this.state;
    const chosen = state.selection;
    const dice = state.game.turn.dice;
    if (!chosen.length || !dice) {
      state.selectionValue = null;
      return;
    }
    const version = state.game.version;
    const key = chosen.join(",");
    try {
      const answer = await playerApi.post("/rulesets/ten-thousand/score/", { dice: chosen.map((i) => dice[i]) });
      if (state.game.version === version && state.selection.join(",") === key) {
        state.selectionValue = answer.data;
        this.changed();
      }
    } catch {
      state.selectionValue = null;
    }
  }

  /** The game's assignment as the service answers it now, when this tab has the key. */
  async loadAssignment() {
    const state = this.state;
    if (!playerApi.key.held()) return;
    try {
      const owner = await keyOwner();
      if (owner?.role !== "student" || owner.classroom.id !== state.game.classroom) return;
      const fresh = await fetchAssignment(owner.classroom.id, state.game.assignment);
      state.assignment = keepAssignment(owner.classroom.id, fresh);
      state.assignmentNow = fresh;
      this.changed();
    } catch {
      // The line then shows what this browser kept of the assignment.
    }
  }

  async nextAssignmentGame(button) {
    this.problem.hidden = true;
    button.disabled = true;
    try {
      const game = await startAssignmentGame(this.state.game.classroom, this.state.assignmentNow);
      this.navigate(`/play/${game.id}/`);
    } catch (error) {
      showProblem(this.problem, error);
      button.disabled = false;
    }
  }
}

/** Whether this service has the analysis endpoint (asked once, from its OpenAPI schema). */
let analysisServedAnswer = null;
function analysisServed() {
  analysisServedAnswer ??= fetch("/api/v1/schema/?format=json", { headers: { Accept: "application/vnd.oai.openapi+json" } })
    .then((response) => (response.ok ? response.json() : { paths: {} }))
    .then((schema) => "/api/v1/games/{id}/analysis/" in (schema.paths || {}))
    .catch(() => false);
  return analysisServedAnswer;
}
