// The service's own web client: start a game, share it, play it, follow it live.
// It uses only the public API (/api/v1/...), like any other frontend.

import { Problem, get, post, keepSeat, seatsOf } from "./api.js";
import { face, h, list, replace } from "./dom.js";
import { advice, boxName, describe } from "./words.js";

const main = document.getElementById("main");
const GAME_PATH = /^\/play\/([0-9a-fA-F-]{36})\/?$/;
// Strategies of computer seats (API.md); Ten Thousand also has its original game's player.
const COMPUTERS = ["random", "greedy", "optimal"];
const TEN_THOUSAND_COMPUTERS = [...COMPUTERS, "classic"];
// The rulesets whose strategy is solved: only these have an analysis (API.md, "Analysis").
const ANALYSED = new Set(["yahtzee", "yatzy", "forced-yatzy"]);
const STREAM_TYPES = [
  "created", "joined", "started", "rolled", "held", "scored", "scratched",
  "set_aside", "banked", "busted", "passed", "left", "finished", "abandoned",
];

let rulesets = null; // from GET /api/v1/rulesets/, once
let screen = null; // the screen shown now; has stop() when it holds a stream

async function loadRulesets() {
  if (!rulesets) rulesets = (await get("/rulesets/")).data;
  return rulesets;
}

function humanize(id) {
  const words = id.replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function alertBox() {
  return h("p", { class: "problem", role: "alert", hidden: true });
}

function showProblem(box, error) {
  box.textContent = error instanceof Problem ? error.message : `Something went wrong: ${error}`;
  box.hidden = false;
}

// -- routing -------------------------------------------------------------------------

function gameIdOf(location) {
  const inPath = GAME_PATH.exec(location.pathname);
  if (inPath) return inPath[1].toLowerCase();
  const inHash = /^#([0-9a-fA-F-]{36})$/.exec(location.hash);
  return inHash ? inHash[1].toLowerCase() : null;
}

export function gameUrl(id) {
  return `${window.location.origin}/play/${id}/`;
}

function navigate(path) {
  window.history.pushState(null, "", path);
  route();
}

async function route() {
  screen?.stop?.();
  screen = null;
  const id = gameIdOf(window.location);
  try {
    await loadRulesets();
  } catch (error) {
    const box = alertBox();
    showProblem(box, error);
    replace(main, [h("h1", {}, "Dice games"), box]);
    return;
  }
  screen = id ? new GameScreen(id) : new StartScreen();
  screen.show();
}

document.addEventListener("click", (event) => {
  const link = event.target.closest?.("a[data-internal]");
  if (!link || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  navigate(link.getAttribute("href"));
});
window.addEventListener("popstate", route);

// -- the start screen: a new game, or a waiting one to join -----------------------------

class StartScreen {
  constructor() {
    this.seats = [{ name: "", computer: "" }];
    this.problem = alertBox();
    this.ruleset = rulesets[0];
    this.waiting = h("section", { "aria-labelledby": "waiting-title" });
  }

  show() {
    document.title = "New game · Dice games";
    const picker = h(
      "select",
      {
        id: "ruleset",
        name: "ruleset",
        onchange: (event) => {
          this.ruleset = rulesets.find((r) => r.id === event.target.value);
          this.renderRuleset();
        },
      },
      rulesets.map((r) => h("option", { value: r.id }, r.name)),
    );
    this.rulesetPart = h("div");
    this.seatsPart = h("div");
    this.form = h(
      "form",
      { class: "card", onsubmit: (event) => this.submit(event), novalidate: true },
      h("div", { class: "field" }, h("label", { for: "ruleset" }, "Ruleset"), picker),
      this.rulesetPart,
      h("fieldset", {}, h("legend", {}, "Players, in turn order"), this.seatsPart),
      h(
        "div",
        { class: "field" },
        h("label", { for: "open-seats" }, "Seats left open for others"),
        h("input", {
          id: "open-seats", name: "open_seats", type: "number", min: 0, max: 7, value: "0",
          inputmode: "numeric", "aria-describedby": "open-seats-help",
        }),
        h("small", { id: "open-seats-help" }, "Others take them from another device with the game's link."),
      ),
      h(
        "div",
        { class: "field" },
        h("label", { for: "seed" }, "Seed (optional)"),
        h("input", { id: "seed", name: "seed", type: "number", inputmode: "numeric", "aria-describedby": "seed-help" }),
        h("small", { id: "seed-help" }, "The same seed and moves give the same dice; a seeded game is unranked."),
      ),
      this.problem,
      h("button", { type: "submit", class: "primary" }, "Start game"),
    );
    replace(main, [h("h1", { tabindex: "-1" }, "New game"), this.form, this.waiting]);
    this.renderRuleset();
    this.renderSeats();
    this.loadWaiting();
  }

  renderRuleset() {
    const r = this.ruleset;
    const options = Object.entries(r.options).map(([id, option]) => optionField(id, option));
    replace(this.rulesetPart, [
      h("p", { class: "description" }, r.description),
      options.length ? h("fieldset", {}, h("legend", {}, "House rules"), options) : null,
    ]);
    this.renderSeats();
  }

  renderSeats() {
    const strategies = this.ruleset.id === "ten-thousand" ? TEN_THOUSAND_COMPUTERS : COMPUTERS;
    for (const seat of this.seats) {
      if (seat.computer && !strategies.includes(seat.computer)) seat.computer = "";
    }
    const rows = this.seats.map((seat, index) => {
      const number = index + 1;
      const nameId = `seat-${index}-name`;
      const kindId = `seat-${index}-kind`;
      return h(
        "div",
        { class: "seat" },
        h(
          "div",
          { class: "field" },
          h("label", { for: nameId }, index === 0 ? "Name" : `Player ${number}`),
          h("input", {
            id: nameId, "data-key": nameId, value: seat.name, maxlength: 50, autocomplete: "off",
            placeholder: seat.computer ? "Bot" : "",
            oninput: (event) => { seat.name = event.target.value; },
          }),
        ),
        h(
          "div",
          { class: "field" },
          h("label", { for: kindId }, `Player ${number} is`),
          h(
            "select",
            { id: kindId, "data-key": kindId, onchange: (event) => { seat.computer = event.target.value; } },
            h("option", { value: "" }, "a person on this device"),
            strategies.map((s) =>
              h("option", { value: s, selected: seat.computer === s }, `the computer (${s})`)),
          ),
        ),
        index > 0
          ? h("button", {
              type: "button", class: "quiet", "data-key": `remove-${index}`,
              onclick: () => { this.seats.splice(index, 1); this.renderSeats(); },
            }, `Remove player ${number}`)
          : null,
      );
    });
    const full = this.seats.length >= this.ruleset.max_players;
    replace(this.seatsPart, [
      rows,
      h("button", {
        type: "button", class: "quiet", "data-key": "add-seat", disabled: full,
        onclick: () => {
          this.seats.push({ name: "", computer: "" });
          this.renderSeats();
          document.getElementById(`seat-${this.seats.length - 1}-name`)?.focus();
        },
      }, "Add a player"),
    ]);
  }

  body() {
    const form = this.form;
    const options = {};
    for (const [id, option] of Object.entries(this.ruleset.options)) {
      const input = form.querySelector(`[name="option-${id}"]`);
      if (!input) continue;
      let value;
      if (option.type === "boolean") value = input.checked;
      else if (option.type === "integer") value = Number(input.value);
      else value = input.value;
      if (value !== option.default) options[id] = value;
    }
    const players = this.seats.map((seat, index) => {
      const name = seat.name.trim() || (seat.computer ? `Bot ${index + 1}` : "");
      return seat.computer ? { name, computer: seat.computer } : { name };
    });
    const body = { ruleset: this.ruleset.id, players };
    if (Object.keys(options).length) body.options = options;
    const open = Number(form.querySelector("#open-seats").value || 0);
    if (open) body.open_seats = open;
    const seed = form.querySelector("#seed").value.trim();
    if (seed !== "") body.seed = Number(seed);
    return body;
  }

  async submit(event) {
    event.preventDefault();
    this.problem.hidden = true;
    const body = this.body();
    const unnamed = body.players.findIndex((p) => !p.name);
    if (unnamed >= 0) {
      this.problem.textContent = unnamed === 0 ? "Enter your name." : `Enter a name for player ${unnamed + 1}.`;
      this.problem.hidden = false;
      document.getElementById(`seat-${unnamed}-name`)?.focus();
      return;
    }
    const button = event.submitter;
    if (button) button.disabled = true;
    try {
      const { data: game } = await post("/games/", body);
      for (const player of game.players) {
        if (player.token) keepSeat(game.id, player.seat, player.token);
      }
      navigate(`/play/${game.id}/`);
    } catch (error) {
      showProblem(this.problem, error);
      if (button) button.disabled = false;
    }
  }

  async loadWaiting() {
    let page;
    try {
      page = (await get("/games/?status=waiting")).data;
    } catch {
      return; // the list is a convenience: the form works without it
    }
    if (!page.results.length) return;
    replace(this.waiting, [
      h("h2", { id: "waiting-title" }, "Games waiting for players"),
      h(
        "ul",
        { class: "waiting" },
        page.results.slice(0, 10).map((game) => {
          const ruleset = rulesets.find((r) => r.id === game.ruleset);
          const names = list(game.players.map((p) => p.name));
          const seats = `${game.open_seats} open seat${game.open_seats === 1 ? "" : "s"}`;
          return h("li", {}, h("a", { href: `/play/${game.id}/`, "data-internal": true },
            `${ruleset?.name ?? game.ruleset} with ${names}`), ` (${seats})`);
        }),
      ),
    ]);
  }
}

function optionField(id, option) {
  const inputId = `option-${id}`;
  const help = h("small", { id: `${inputId}-help` }, option.description);
  const common = { id: inputId, name: inputId, "aria-describedby": `${inputId}-help` };
  if (option.type === "boolean") {
    return h(
      "div",
      { class: "field check" },
      h("input", { ...common, type: "checkbox", checked: option.default }),
      h("label", { for: inputId }, humanize(id)),
      help,
    );
  }
  let input;
  if (option.values.length) {
    input = h("select", common, option.values.map((value) =>
      h("option", { value, selected: value === option.default }, String(value))));
  } else {
    input = h("input", {
      ...common, type: "number", inputmode: "numeric", value: String(option.default),
      min: option.minimum, max: option.maximum, step: option.step,
    });
  }
  return h("div", { class: "field" }, h("label", { for: inputId }, humanize(id)), input, help);
}

// -- the game screen ---------------------------------------------------------------------

class GameScreen {
  constructor(id) {
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
  }

  async show() {
    replace(main, h("h1", { tabindex: "-1" }, "Loading the game…"));
    try {
      const answer = await get(`/games/${this.id}/`);
      this.game = answer.data;
      this.etag = answer.etag;
    } catch (error) {
      const box = alertBox();
      showProblem(box, error);
      replace(main, [
        h("h1", { tabindex: "-1" }, error.status === 404 ? "No such game" : "The game cannot be shown"),
        box,
        h("p", {}, h("a", { href: "/play/", "data-internal": true }, "New game")),
      ]);
      return;
    }
    this.ruleset = rulesets.find((r) => r.id === this.game.ruleset);
    this.render();
    main.querySelector("h1")?.focus();
    this.follow();
  }

  stop() {
    this.source?.close();
    this.source = null;
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
          const answer = await get(`/games/${this.id}/`, { etag: this.etag });
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
      const answer = await get(`/games/${this.id}/hint/`);
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
      const answer = await get(`/games/${this.id}/analysis/`);
      this.analysis = answer.data;
      this.render();
    } catch {
      // 404 or 409: no analysis for this game; nothing to show.
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
    const parts = [
      h("h1", { tabindex: "-1" }, this.ruleset.name,
        game.status === "active" ? h("small", {}, ` round ${game.round}`) : null),
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
    if (this.analysis) parts.push(this.analysisPart());
    parts.push(this.logPart());
    parts.push(h("p", { class: "links" }, h("a", { href: "/play/", "data-internal": true }, "New game")));
    replace(main, parts, ["roll", "hint", "bank", "pass"]);
    const log = main.querySelector(".log ol");
    if (log) log.scrollTop = log.scrollHeight;
  }

  name(seat) {
    return this.game.players[seat]?.name ?? `Seat ${seat + 1}`;
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
    const option = (o) => (Array.isArray(o) ? `keep ${o.join(" ") || "nothing"}` : boxName(this.ruleset, o));
    return h(
      "section",
      { class: "card analysis", "aria-labelledby": "analysis-title" },
      h("h2", { id: "analysis-title" }, "Analysis"),
      h("table", {},
        h("thead", {}, h("tr", {}, ["Player", "Accuracy", "Expected loss", "Luck", "Mistakes"].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, seats.map((s) => h("tr", {},
          h("th", { scope: "row" }, s.name),
          h("td", {}, typeof s.accuracy === "number" ? `${s.accuracy.toFixed(1)}` : "–"),
          h("td", {}, typeof s.expected_loss === "number" ? s.expected_loss.toFixed(1) : "–"),
          h("td", {}, typeof s.luck === "number" ? s.luck.toFixed(1) : "–"),
          h("td", {}, s.counts ? `${s.counts.mistake ?? 0} mistakes, ${s.counts.blunder ?? 0} blunders` : "–"))))),
      costly.length
        ? h("details", {}, h("summary", {}, `Decisions that cost points (${costly.length})`),
          h("ol", {}, costly.map((d) => h("li", {},
            `${this.name(d.seat)}, round ${d.round}, dice ${(d.dice || []).join(" ")}: chose ${option(d.chosen)}, `,
            `best was ${option(d.best)} (${d.label}, −${Number(d.loss).toFixed(1)}).`))))
        : h("p", {}, "Every decision was the best one."),
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

route();
