// The game screen: the table, the moves of the seat this browser holds, the scores and the
// log, followed live through the game's event stream (or, for a game of an assignment, which
// is private until its deadline, by asking for new events with the seat's token).

import { apiKey, get, keepApiKey, keepSeat, post, seatsOf } from "./api.js";
import {
  assignmentMeta, fetchAssignment, keepAssignment, keyOwner, nextGame, startAssignmentGame, timeOf,
} from "./assignments.js";
import { MEASURES, chartFigure, observeCharts } from "./chart.js";
import { alertBox, face, h, list, replace, showProblem } from "./dom.js";
import { advice, boxName, describe } from "./words.js";

// The rulesets whose strategy is solved: only these have an analysis (Ten Thousand: in games
// of one or two seats; the service says so for the others).
const ANALYSED = new Set(["yahtzee", "yatzy", "forced-yatzy", "ten-thousand"]);
// How often a private game's new events are asked for (ms): while the tab shows, and not.
const POLL_EVERY = 1500;
const POLL_HIDDEN = 10000;
// How often a 503 for the analysis (its strategy table being built) is tried again.
const ANALYSIS_TRIES = 5;
const STREAM_TYPES = [
  "created", "joined", "started", "rolled", "held", "scored", "scratched",
  "set_aside", "banked", "busted", "passed", "left", "finished", "abandoned",
];

export function gameUrl(id) {
  return `${window.location.origin}/play/${id}/`;
}

export class GameScreen {
  constructor(main, rulesets, id, navigate) {
    this.main = main;
    this.navigate = navigate;
    this.rulesets = rulesets;
    this.id = id;
    this.game = null;
    this.etag = null;
    this.events = [];
    this.selected = null; // positions chosen on this screen: held dice, or dice to set aside
    this.selectedFor = null; // the game version the selection belongs to
    this.hint = null;
    this.busy = false;
    this.analysis = null;
    this.analysisAsked = false;
    this.selectionValue = null;
    this.problem = alertBox();
    this.status = h("p", { class: "status", role: "status" });
    this.refreshing = null;
    this.refreshAgain = false;
    this.assignment = null; // what this browser knows of the game's assignment
    this.assignmentNow = null; // the assignment as the service answered it, with progress
    this.analysisNote = null;
    this.analysisTries = 0;
    this.polling = null;
    this.pollTimer = null;
    this.pollAgain = false;
    this.resizer = null;
  }

  /**
   * How this browser reads the game: with a seat's token when it holds one, else with the
   * student's key in this tab. A public game needs neither; a game of an assignment is
   * private to its student until its deadline.
   */
  get reader() {
    const token = Object.values(this.seats)[0];
    if (token) return { token };
    const key = apiKey();
    if (key && (!this.game || this.game.assignment)) return { key };
    return {};
  }

  async show() {
    replace(this.main, h("h1", { tabindex: "-1" }, "Loading the game…"));
    try {
      let answer;
      try {
        answer = await get(`/games/${this.id}/`, this.reader);
      } catch (error) {
        if (error.code !== "invalid_api_key") throw error;
        keepApiKey(null); // revoked: of no use in this tab any more
        answer = await get(`/games/${this.id}/`, this.reader);
      }
      this.game = answer.data;
      this.etag = answer.etag;
    } catch (error) {
      const box = alertBox();
      showProblem(box, error);
      replace(this.main, [
        h("h1", { tabindex: "-1" }, error.status === 404 ? "No such game" : "The game cannot be shown"),
        box,
        h("p", {}, h("a", { href: "/play/", "data-internal": true }, "New game")),
      ]);
      return;
    }
    this.ruleset = this.rulesets.find((r) => r.id === this.game.ruleset);
    if (this.game.assignment) this.assignment = assignmentMeta(this.game.assignment);
    this.render();
    this.main.querySelector("h1")?.focus();
    if (this.game.assignment) {
      this.poll();
      if (!this.over) this.loadAssignment();
    } else {
      this.follow();
    }
  }

  stop() {
    this.source?.close();
    this.source = null;
    clearTimeout(this.pollTimer);
    clearTimeout(this.analysisTimer);
    this.resizer?.disconnect();
    this.stopped = true;
  }

  /** Follow the game's log live; each event refreshes the game. */
  follow() {
    const source = new EventSource(`/api/v1/games/${this.id}/stream/`);
    this.source = source;
    const receive = (message) => {
      const event = JSON.parse(message.data);
      if (this.events.length && event.seq <= this.events.at(-1).seq) return;
      this.events.push(event);
      if (event.type === "finished" || event.type === "abandoned") {
        source.close();
      }
      this.refresh();
    };
    for (const type of STREAM_TYPES) source.addEventListener(type, receive);
  }

  /**
   * A private game's log: the stream cannot carry a token (EventSource sends no header),
   * so the new events are asked for with it, now and then, and at once after each move.
   */
  poll() {
    clearTimeout(this.pollTimer);
    if (this.stopped) return;
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    this.polling = (async () => {
      do {
        this.pollAgain = false;
        const after = this.events.at(-1)?.seq ?? 0;
        try {
          const answer = await get(`/games/${this.id}/events/?after=${after}`, {
            ...this.reader, etag: after ? `"${after}"` : null,
          });
          const fresh = (answer.data || []).filter((event) => event.seq > (this.events.at(-1)?.seq ?? 0));
          if (fresh.length) {
            this.events.push(...fresh);
            this.refresh();
          }
        } catch {
          // A missed look is made good by the next one.
        }
      } while (this.pollAgain && !this.stopped);
      this.polling = null;
      const over = this.events.some((event) => event.type === "finished" || event.type === "abandoned");
      if (!over && !this.stopped) {
        this.pollTimer = setTimeout(() => this.poll(), document.hidden ? POLL_HIDDEN : POLL_EVERY);
      }
    })();
  }

  /** The game's assignment as the service answers it now, when this tab has the key. */
  async loadAssignment() {
    if (!apiKey()) return;
    try {
      const owner = await keyOwner();
      if (owner?.role !== "student" || owner.classroom.id !== this.game.classroom) return;
      const fresh = await fetchAssignment(owner.classroom.id, this.game.assignment);
      this.assignment = keepAssignment(owner.classroom.id, fresh);
      this.assignmentNow = fresh;
      this.render();
    } catch {
      // The line then shows what this browser kept of the assignment.
    }
  }

  async nextAssignmentGame(button) {
    this.problem.hidden = true;
    button.disabled = true;
    try {
      const game = await startAssignmentGame(this.game.classroom, this.assignmentNow);
      this.navigate(`/play/${game.id}/`);
    } catch (error) {
      showProblem(this.problem, error);
      button.disabled = false;
    }
  }

  /** Get the game again if it changed (conditional GET); one request at a time. */
  async refresh() {
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    this.refreshing = (async () => {
      do {
        this.refreshAgain = false;
        try {
          const answer = await get(`/games/${this.id}/`, { ...this.reader, etag: this.etag });
          if (answer.status === 200) this.take(answer.data, answer.etag);
        } catch {
          // A missed refresh is made good by the next event.
        }
      } while (this.refreshAgain && !this.stopped);
      this.refreshing = null;
      if (!this.stopped) this.render();
    })();
  }

  take(game, etag) {
    if (this.game && game.version < this.game.version) return;
    if (!this.game || game.version !== this.game.version) this.hint = null;
    this.game = game;
    this.etag = etag ?? `"${game.version}"`;
  }

  get seats() {
    return seatsOf(this.id);
  }

  /** The token of the seat to move now, if this browser holds it. */
  get myToken() {
    const game = this.game;
    if (game.status !== "active" || game.current_seat === null) return null;
    return this.seats[game.current_seat] ?? null;
  }

  get over() {
    return this.game.status === "finished" || this.game.status === "abandoned";
  }

  get tenThousand() {
    return this.ruleset.id === "ten-thousand";
  }

  /** The dice positions chosen on this screen, reset whenever the game changes. */
  get selection() {
    if (this.selectedFor !== this.game.version) {
      this.selectedFor = this.game.version;
      this.selected = this.tenThousand ? [] : this.game.turn.held
        ?.map((held, index) => (held ? index : -1)).filter((index) => index >= 0) ?? [];
      this.selectionValue = null;
    }
    return this.selected;
  }

  async move(action, body) {
    if (this.busy) return;
    const token = this.myToken;
    if (!token) return;
    this.busy = true;
    this.problem.hidden = true;
    this.render();
    try {
      const answer = await post(`/games/${this.id}/${action}/`, body, { token });
      this.take(answer.data, answer.etag);
      if (this.game.assignment) this.poll();
    } catch (error) {
      showProblem(this.problem, error);
    } finally {
      this.busy = false;
      this.render();
    }
  }

  async join(event) {
    event.preventDefault();
    const input = event.target.querySelector("input");
    const name = input.value.trim();
    if (!name) {
      this.problem.textContent = "Enter your name to join.";
      this.problem.hidden = false;
      input.focus();
      return;
    }
    this.problem.hidden = true;
    try {
      const answer = await post(`/games/${this.id}/join/`, { name });
      const mine = answer.data.players.find((p) => p.token);
      if (mine) keepSeat(this.id, mine.seat, mine.token);
      this.take(answer.data, answer.etag);
    } catch (error) {
      showProblem(this.problem, error);
    }
    this.render();
  }

  async begin() {
    const seat = Object.keys(this.seats)[0];
    try {
      const answer = await post(`/games/${this.id}/start/`, {}, { token: this.seats[seat] });
      this.take(answer.data, answer.etag);
    } catch (error) {
      showProblem(this.problem, error);
    }
    this.render();
  }

  async askHint() {
    this.problem.hidden = true;
    try {
      const answer = await get(`/games/${this.id}/hint/`, this.reader);
      this.hint = advice(answer.data, this.game, this.ruleset);
    } catch (error) {
      showProblem(this.problem, error);
    }
    this.render();
  }

  async loadAnalysis() {
    // Shown where it exists: a solved ruleset, and a service that has the endpoint.
    this.analysisAsked = true;
    if (!ANALYSED.has(this.ruleset.id) || !(await analysisServed())) return;
    try {
      const answer = await get(`/games/${this.id}/analysis/`, this.reader);
      this.analysis = answer.data;
      this.analysisNote = null;
      this.render();
    } catch (error) {
      // 503: the strategy table is being built; asked again a few times. 404 or 409: no
      // analysis for this game; nothing to show.
      if (error.code !== "strategy_unavailable" || this.stopped) return;
      this.analysisTries += 1;
      if (this.analysisTries >= ANALYSIS_TRIES) {
        this.analysisNote = "The analysis is not ready yet: open this game again later to see it.";
      } else {
        this.analysisNote = "The analysis is being prepared; it shows here when it is ready.";
        const wait = Math.min(Math.max(error.retryAfter ?? 5, 2), 60);
        this.analysisTimer = setTimeout(() => this.loadAnalysis(), wait * 1000);
      }
      this.render();
    }
  }

  async valueSelection() {
    // What the dice chosen to set aside score, from the public calculator.
    const chosen = this.selection;
    const dice = this.game.turn.dice;
    if (!chosen.length || !dice) {
      this.selectionValue = null;
      return;
    }
    const version = this.game.version;
    const key = chosen.join(",");
    try {
      const answer = await post("/rulesets/ten-thousand/score/", { dice: chosen.map((i) => dice[i]) });
      if (this.game.version === version && this.selection.join(",") === key) {
        this.selectionValue = answer.data;
        this.render();
      }
    } catch {
      this.selectionValue = null;
    }
  }

  toggle(index) {
    const chosen = this.selection;
    const at = chosen.indexOf(index);
    if (at >= 0) chosen.splice(at, 1);
    else chosen.push(index);
    chosen.sort((a, b) => a - b);
    if (this.tenThousand) {
      this.selectionValue = null;
      this.valueSelection();
    }
    this.render();
  }

  // -- drawing ---------------------------------------------------------------------------

  render() {
    if (this.stopped || !this.game) return;
    const game = this.game;
    document.title = `${this.ruleset.name} · Dice games`;
    if (game.status === "finished" && !this.analysisAsked) this.loadAnalysis();
    if (game.assignment && this.over && !this.assignmentAskedAfter) {
      // Once the game is over, the progress again: which game of it comes next.
      this.assignmentAskedAfter = true;
      this.loadAssignment();
    }
    const parts = [
      h("h1", { tabindex: "-1" }, this.ruleset.name,
        game.status === "active" ? h("small", {}, ` round ${game.round}`) : null),
      this.assignmentLine(),
      this.status,
    ];
    // One live region for the whole game, so that assistive technology reads each change.
    const line = this.statusLine();
    if (this.status.textContent !== line) this.status.textContent = line;
    if (game.status === "waiting") parts.push(this.waitingPart());
    if (game.status !== "waiting") parts.push(this.bustPart());
    if (game.status === "active") parts.push(this.dicePart(), this.actionsPart());
    parts.push(this.problem);
    parts.push(this.tenThousand ? this.totalsPart() : this.scorecardPart());
    parts.push(this.nextGamePart());
    if (this.analysis) parts.push(this.analysisPart());
    else if (this.analysisNote) parts.push(h("p", { class: "help analysis-note" }, this.analysisNote));
    parts.push(this.logPart());
    parts.push(h("p", { class: "links" }, h("a", { href: "/play/", "data-internal": true },
      game.assignment ? "My assignments and new games" : "New game")));
    this.resizer?.disconnect();
    replace(this.main, parts, ["roll", "hint", "bank", "pass", "next-game"]);
    this.resizer = this.analysis ? observeCharts(this.main) : null;
    const log = this.main.querySelector(".log ol");
    if (log) log.scrollTop = log.scrollHeight;
  }

  name(seat) {
    return this.game.players[seat]?.name ?? `Seat ${seat + 1}`;
  }

  /** "Week 3: game 3 of 10, due Friday 17:00", for a game of an assignment. */
  assignmentLine() {
    const game = this.game;
    if (!game.assignment) return null;
    const meta = this.assignment;
    const k = game.assignment_game;
    if (!meta) return h("p", { class: "assignment-line" }, `Assignment game ${k}.`);
    const past = Date.parse(meta.due_at) <= Date.now();
    return h("p", { class: "assignment-line" },
      `${meta.title}: game ${k} of ${meta.games}, ${past ? "was due" : "due"} `, timeOf(meta.due_at));
  }

  /** After a game of an assignment: the next one, when the student may start it now. */
  nextGamePart() {
    const now = this.assignmentNow;
    if (!now || !this.over) return null;
    const next = nextGame(now);
    if (!next) return null;
    return h("p", { class: "next-game" }, h("button", {
      type: "button", class: "primary", "data-key": "next-game",
      "aria-label": `Start game ${next} of ${now.games}, ${now.title}`,
      onclick: (event) => this.nextAssignmentGame(event.currentTarget),
    }, `Start game ${next} of ${now.games}`));
  }

  statusLine() {
    const game = this.game;
    if (game.status === "waiting") {
      return `Waiting for ${game.open_seats} more player${game.open_seats === 1 ? "" : "s"} to join.`;
    }
    if (game.status === "abandoned") return "This game was abandoned.";
    if (game.status === "finished") {
      const winners = game.winners.map((seat) => this.name(seat));
      if (!winners.length) return "Game over.";
      const best = game.players[game.winners[0]].total;
      return `Game over: ${list(winners)} ${winners.length > 1 ? "draw" : "wins"} with ${best} points.`;
    }
    const seat = game.current_seat;
    if (this.myToken) return `Your turn, ${this.name(seat)}.`;
    const player = game.players[seat];
    return player?.computer ? `${player.name} (computer) is playing.` : `Waiting for ${this.name(seat)} to play.`;
  }

  waitingPart() {
    const game = this.game;
    const seated = Object.keys(this.seats).length > 0;
    const link = gameUrl(this.id);
    const part = [
      h("h2", {}, "Players so far"),
      h("ul", {}, game.players.map((p) => h("li", {}, p.name, p.computer ? ` (computer: ${p.computer})` : ""))),
      h(
        "div",
        { class: "field share" },
        h("label", { for: "share-link" }, "Link to share"),
        h("input", { id: "share-link", readonly: true, value: link, onfocus: (e) => e.target.select() }),
        h("button", {
          type: "button", class: "quiet", "data-key": "copy",
          onclick: async (event) => {
            try {
              await navigator.clipboard.writeText(link);
              event.target.textContent = "Copied";
            } catch {
              document.getElementById("share-link").select();
            }
          },
        }, "Copy link"),
      ),
    ];
    if (!seated && game.open_seats > 0) {
      part.push(h(
        "form",
        { class: "card join", onsubmit: (event) => this.join(event) },
        h("div", { class: "field" }, h("label", { for: "join-name" }, "Name"),
          h("input", {
            id: "join-name", maxlength: 50, autocomplete: "nickname", "data-key": "join-name",
            value: this.joinName ?? "", oninput: (event) => { this.joinName = event.target.value; },
          })),
        h("button", { type: "submit", class: "primary" }, "Join game"),
      ));
    }
    if (seated) {
      part.push(h("p", {}, "Open this link on another device to play there. ",
        "The game begins when every seat is taken, or now:"),
        h("button", { type: "button", "data-key": "begin", onclick: () => this.begin() },
          "Begin now without the open seats"));
    }
    return h("section", { class: "card" }, part);
  }

  bustPart() {
    const bust = this.game.turn.last_bust;
    if (!bust) return null;
    const thrown = new Set(bust.thrown);
    return h(
      "section",
      { class: "bust", "aria-label": "Bust" },
      h("p", {}, `${this.name(bust.seat)} busted`, bust.lost ? ` and lost ${bust.lost} points` : "",
        `: no die of ${bust.thrown.map((i) => bust.dice[i]).join(" ")} scores.`),
      h("div", { class: "dice small" }, bust.dice.map((value, index) =>
        h("span", {
          class: `die ${thrown.has(index) ? "busted" : "aside"}`,
          role: "img",
          "aria-label": `${value}${thrown.has(index) ? ", thrown" : ", set aside"}`,
        }, face(value)))),
    );
  }

  dicePart() {
    const game = this.game;
    const turn = game.turn;
    const count = this.ruleset.dice;
    const mine = Boolean(this.myToken) && !this.busy;
    const chosen = new Set(this.selection);
    const dice = turn.dice || Array(count).fill(null);
    const buttons = dice.map((value, index) => {
      const label = value ? `Die ${index + 1}: ${value}` : `Die ${index + 1}: not thrown yet`;
      let pressed;
      let enabled;
      let state = "";
      if (this.tenThousand) {
        const earlier = Boolean(turn.set_aside?.[index]);
        pressed = earlier || chosen.has(index);
        enabled = mine && value && !earlier && turn.throw_points_available;
        state = earlier ? "aside" : chosen.has(index) ? "chosen" : "";
      } else {
        pressed = chosen.has(index);
        enabled = mine && value && turn.rolls_left > 0;
        state = pressed ? "chosen" : "";
      }
      return h(
        "button",
        {
          type: "button",
          class: `die ${state} ${value ? "" : "blank"}`,
          "data-key": `die-${index}`,
          "aria-pressed": pressed ? "true" : "false",
          "aria-label": label,
          disabled: !enabled,
          onclick: () => this.toggle(index),
        },
        face(value),
      );
    });
    const help = this.tenThousand
      ? "Choose scoring dice to set aside, then roll the rest or bank."
      : "Choose the dice to keep, then roll the others.";
    return h("section", { class: "table", "aria-label": "Dice" },
      h("div", { class: "dice" }, buttons),
      game.status === "active" ? h("p", { class: "help" }, help) : null);
  }

  actionsPart() {
    const game = this.game;
    if (game.status !== "active") return null;
    const turn = game.turn;
    const mine = Boolean(this.myToken) && !this.busy;
    const chosen = this.selection;
    const buttons = [];
    if (this.tenThousand) {
      const free = turn.dice ? turn.set_aside.filter((aside) => !aside).length - chosen.length : 6;
      const rollLabel = !turn.dice ? "Roll six dice" : free === 0 ? "Roll all six again" : `Roll ${free} ${free === 1 ? "die" : "dice"}`;
      const canRoll = !turn.dice || (chosen.length > 0 && turn.throw_points_available);
      buttons.push(
        h("button", {
          type: "button", class: "primary", "data-key": "roll", disabled: !mine || !canRoll,
          onclick: () => this.move("roll", turn.dice ? { set_aside: [...chosen] } : {}),
        }, rollLabel),
        h("button", {
          type: "button", "data-key": "bank", disabled: !mine || !turn.dice || !chosen.length,
          onclick: () => this.move("bank", { set_aside: [...chosen] }),
        }, "Bank"),
        h("button", { type: "button", "data-key": "pass", disabled: !mine, onclick: () => this.move("pass", {}) }, "Pass"),
      );
    } else {
      const first = !turn.dice;
      const label = first ? "Roll the dice" : `Roll again (${turn.rolls_left} left)`;
      buttons.push(h("button", {
        type: "button", class: "primary", "data-key": "roll", disabled: !mine || turn.rolls_left <= 0,
        onclick: () => this.move("roll", first ? {} : { hold: [...chosen] }),
      }, label));
    }
    buttons.push(h("button", {
      type: "button", class: "quiet", "data-key": "hint", disabled: !mine,
      onclick: () => this.askHint(),
    }, "Hint"));
    const notes = [];
    if (this.tenThousand && turn.dice) {
      let line = `Turn points: ${turn.turn_points}.`;
      if (chosen.length && this.selectionValue) {
        line += this.selectionValue.scoring
          ? ` The chosen dice score ${this.selectionValue.points}.`
          : " The chosen dice do not all score.";
      }
      notes.push(h("p", { class: "help", "aria-live": "polite" }, line));
    }
    if (this.hint) notes.push(h("p", { class: "hint", "aria-live": "polite" }, `Hint: ${this.hint}`));
    return h("section", { class: "actions", "aria-label": "Moves" }, h("div", { class: "buttons" }, buttons), notes);
  }

  scorecardPart() {
    const game = this.game;
    const mine = Boolean(this.myToken) && !this.busy && game.turn.dice;
    const current = game.status === "active" ? game.current_seat : null;
    const head = h("tr", {}, h("th", { scope: "col" }, "Box"),
      game.players.map((p) => h("th", { scope: "col", class: p.seat === current ? "current" : "" },
        p.name, p.left ? " (left)" : "")));
    const rows = [];
    let section = null;
    for (const box of this.ruleset.categories) {
      if (section === "upper" && box.section !== "upper") rows.push(this.sumRow("Upper bonus", "upper_bonus"));
      section = box.section;
      const points = game.choices[box.id];
      const can = mine && points !== undefined;
      const label = can ? (points > 0 ? `${box.name}: score ${points}` : `${box.name}: scratch for 0`) : box.name;
      rows.push(h(
        "tr",
        {},
        h("th", { scope: "row" }, h("button", {
          type: "button", class: `box ${can ? "open" : ""}`, "data-key": `box-${box.id}`,
          "aria-label": label, title: box.description, disabled: !can,
          onclick: () => this.move(points > 0 ? "score" : "scratch", { category: box.id }),
        }, h("span", {}, box.name), can ? h("span", { class: points ? "points" : "points zero" }, String(points)) : null)),
        game.players.map((p) => {
          const value = p.scorecard?.[box.id];
          return h("td", { class: p.seat === current ? "current" : "" }, value === null || value === undefined ? "" : String(value));
        }),
      ));
    }
    if (game.players.some((p) => p.yahtzee_bonus)) rows.push(this.sumRow("Yahtzee bonus", "yahtzee_bonus"));
    rows.push(this.sumRow("Total", "total", "total"));
    return h("section", { class: "scores", "aria-label": "Scorecard" },
      h("table", {}, h("thead", {}, head), h("tbody", {}, rows)));
  }

  sumRow(title, field, cls = "") {
    const current = this.game.status === "active" ? this.game.current_seat : null;
    return h("tr", { class: `sum ${cls}` }, h("th", { scope: "row" }, title),
      this.game.players.map((p) => h("td", { class: p.seat === current ? "current" : "" }, String(p[field] ?? 0))));
  }

  totalsPart() {
    const game = this.game;
    const current = game.status === "active" ? game.current_seat : null;
    return h("section", { class: "scores", "aria-label": "Totals" },
      h("p", { class: "help" }, `First to ${game.options.target} wins; a turn banks at least ${game.options.bank_minimum}.`),
      h("table", {},
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Total"))),
        h("tbody", {}, game.players.map((p) => h("tr", { class: p.seat === current ? "current" : "" },
          h("th", { scope: "row" }, p.name, p.computer ? ` (computer)` : "", p.left ? " (left)" : ""),
          h("td", {}, String(p.total)))))));
  }

  analysisPart() {
    const analysis = this.analysis;
    const seats = analysis.seats || [];
    const costly = (analysis.decisions || []).filter((d) => d.label && d.label !== "best");
    const option = (o) => {
      if (o === "pass") return "pass";
      if (o && o.then) return `set aside ${o.keep.join(" ") || "nothing"}, ${o.then}`;
      return Array.isArray(o) ? `keep ${o.join(" ") || "nothing"}` : boxName(this.ruleset, o);
    };
    const measure = MEASURES[analysis.objective] || MEASURES.expected_final;
    const shown = (value) => (typeof value === "number" ? (measure.scale * value).toFixed(measure.digits) : "–");
    const decisions = analysis.decisions || [];
    const charts = seats.map((s) => chartFigure({
      id: `chart-${s.seat}`,
      seat: s,
      measure,
      decisions: decisions.filter((d) => d.seat === s.seat),
      describe: (d) => `dice ${(d.dice || []).join(" ")}: ${option(d.chosen)}` +
        (d.label && d.label !== "best" ? `; best ${option(d.best)}` : ""),
    })).filter(Boolean);
    return h(
      "section",
      { class: "card analysis", "aria-labelledby": "analysis-title" },
      h("h2", { id: "analysis-title" }, "Analysis"),
      h("div", { class: charts.length ? "analysis-body" : "" },
      h("div", { class: "analysis-table" },
      h("table", {},
        h("thead", {}, h("tr", {}, ["Player", "Accuracy", "Expected loss", "Luck", "Mistakes"].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, seats.map((s) => h("tr", {},
          h("th", { scope: "row" }, s.name),
          h("td", {}, typeof s.accuracy === "number" ? `${s.accuracy.toFixed(1)}` : "–"),
          h("td", {}, shown(s.expected_loss)),
          h("td", {}, shown(s.luck)),
          h("td", {}, s.counts ? `${s.counts.mistake ?? 0} mistakes, ${s.counts.blunder ?? 0} blunders` : "–"))))),
      costly.length
        ? h("details", {}, h("summary", {}, `Decisions that cost ${measure.unit} (${costly.length})`),
          h("ol", {}, costly.map((d) => h("li", {},
            `${this.name(d.seat)}, round ${d.round}, dice ${(d.dice || []).join(" ")}: chose ${option(d.chosen)}, `,
            `best was ${option(d.best)} (${d.label}, −${shown(d.loss)} ${measure.unit}).`))))
        : h("p", {}, "Every decision was the best one."),
      ),
      charts.length ? h("div", { class: "analysis-charts" }, charts) : null,
      ),
    );
  }

  logPart() {
    const table = {};
    return h("section", { class: "log", "aria-labelledby": "log-title" },
      h("h2", { id: "log-title" }, "Log"),
      h("ol", { tabindex: "0", "aria-label": "Events of the game" },
        this.events.map((event) => h("li", { class: `event ${event.type}` }, describe(event, this.game, this.ruleset, table)))));
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

