// The start screen: a new game of any ruleset with its options and seats, a game that
// waits for players, to join, or a student's assignments.

import { playerApi } from "../common/api.js";
import { alertBox, h, replace, showProblem } from "../common/dom.js";
import { format, gettext, list, ngettext } from "../common/i18n.js";
import { computerName, optionLabel, optionValue } from "../common/options.js";
import { AssignmentsPanel } from "./assignments.js";
import { BotsPanel } from "./bots.js";
import { keepSeat } from "./seats.js";

// Strategies of computer seats (docs/contract.md, "Games"); Ten Thousand also has its original game's player.
const COMPUTERS = ["random", "greedy", "optimal"];
const TEN_THOUSAND_COMPUTERS = [...COMPUTERS, "classic"];
// Tries of a creation while its computer seats' strategy is being prepared (15 s apart: about
// four minutes, past the longest build).
const PREPARING_TRIES = 16;

export class StartScreen {
  constructor(main, rulesets, navigate) {
    this.main = main;
    this.rulesets = rulesets;
    this.navigate = navigate;
    this.seats = [{ name: "", computer: "" }];
    this.problem = alertBox();
    this.ruleset = this.rulesets[0];
    this.waiting = h("section", { "aria-labelledby": "waiting-title" });
    this.bots = new BotsPanel(rulesets, navigate);
    this.assignments = new AssignmentsPanel(rulesets, navigate, () => this.bots.load());
  }

  show() {
    document.title = gettext("New game · Dice games");
    const picker = h(
      "select",
      {
        id: "ruleset",
        name: "ruleset",
        onchange: (event) => {
          this.ruleset = this.rulesets.find((r) => r.id === event.target.value);
          this.renderRuleset();
        },
      },
      this.rulesets.map((r) => h("option", { value: r.id }, r.name)),
    );
    this.rulesetPart = h("div");
    this.seatsPart = h("div");
    this.form = h(
      "form",
      { class: "card", onsubmit: (event) => this.submit(event), novalidate: true },
      h("div", { class: "field" }, h("label", { for: "ruleset" }, gettext("Ruleset")), picker),
      this.rulesetPart,
      h("fieldset", {}, h("legend", {}, gettext("Players, in turn order")), this.seatsPart),
      h(
        "div",
        { class: "field" },
        h("label", { for: "open-seats" }, gettext("Seats left open for others")),
        h("input", {
          id: "open-seats", name: "open_seats", type: "number", min: 0, max: 7, value: "0",
          inputmode: "numeric", "aria-describedby": "open-seats-help",
        }),
        h("small", { id: "open-seats-help" }, gettext("Others take them from another device with the game's link.")),
      ),
      h(
        "div",
        { class: "field" },
        h("label", { for: "seed" }, gettext("Seed (optional)")),
        h("input", { id: "seed", name: "seed", type: "number", inputmode: "numeric", "aria-describedby": "seed-help" }),
        h("small", { id: "seed-help" }, gettext("The same seed and moves give the same dice; a seeded game is unranked.")),
      ),
      this.problem,
      h("button", { type: "submit", class: "primary" }, gettext("Start game")),
    );
    replace(this.main, [
      h("h1", { tabindex: "-1" }, gettext("New game")), this.form, this.assignments.show(), this.bots.show(), this.waiting,
    ]);
    this.renderRuleset();
    this.renderSeats();
    this.loadWaiting();
  }

  renderRuleset() {
    const r = this.ruleset;
    const options = Object.entries(r.options).map(([id, option]) => optionField(id, option));
    replace(this.rulesetPart, [
      h("p", { class: "description" }, r.description),
      options.length ? h("fieldset", {}, h("legend", {}, gettext("House rules")), options) : null,
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
          h("label", { for: nameId }, index === 0 ? gettext("Name") : format(gettext("Player %(number)s"), { number })),
          h("input", {
            id: nameId, "data-key": nameId, value: seat.name, maxlength: 50, autocomplete: "off",
            placeholder: seat.computer ? gettext("Bot") : "",
            oninput: (event) => { seat.name = event.target.value; },
          }),
        ),
        h(
          "div",
          { class: "field" },
          h("label", { for: kindId }, format(gettext("Player %(number)s is"), { number })),
          h(
            "select",
            { id: kindId, "data-key": kindId, onchange: (event) => { seat.computer = event.target.value; } },
            h("option", { value: "" }, gettext("a person on this device")),
            strategies.map((s) =>
              h("option", { value: s, selected: seat.computer === s }, format(gettext("the computer (%(level)s)"), { level: computerName(s) }))),
          ),
        ),
        index > 0
          ? h("button", {
              type: "button", class: "quiet", "data-key": `remove-${index}`,
              onclick: () => { this.seats.splice(index, 1); this.renderSeats(); },
            }, format(gettext("Remove player %(number)s"), { number }))
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
      }, gettext("Add a player")),
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
      const name = seat.name.trim() || (seat.computer ? format(gettext("Bot %(number)s"), { number: index + 1 }) : "");
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
      this.problem.textContent = unnamed === 0
        ? gettext("Enter your name.")
        : format(gettext("Enter a name for player %(number)s."), { number: unnamed + 1 });
      this.problem.hidden = false;
      document.getElementById(`seat-${unnamed}-name`)?.focus();
      return;
    }
    const button = event.submitter;
    if (button) button.disabled = true;
    await this.create(body, button, 0);
  }

  /**
   * Create the game; while the strategy of its computer seats is being prepared (503
   * strategy_unavailable: built once by the service, within a minute), say so and try again
   * by itself after Retry-After, a few times (a refused creation changed nothing).
   */
  async create(body, button, tries) {
    try {
      const { data: game } = await playerApi.post("/games/", body);
      for (const player of game.players) {
        if (player.token) keepSeat(game.id, player.seat, player.token);
      }
      this.navigate(`/play/${game.id}/`);
    } catch (error) {
      if (error.code === "strategy_unavailable" && tries < PREPARING_TRIES) {
        const wait = Math.min(Math.max(error.retryAfter ?? 5, 2), 60);
        this.problem.textContent =
          format(gettext("Preparing the computer's strategy for these rules: the game starts by itself once it is ready (trying again in %(seconds)s s)."), { seconds: wait });
        this.problem.hidden = false;
        setTimeout(() => this.create(body, button, tries + 1), wait * 1000);
        return;
      }
      showProblem(this.problem, error);
      if (button) button.disabled = false;
    }
  }

  async loadWaiting() {
    let page;
    try {
      page = (await playerApi.get("/games/?status=waiting")).data;
    } catch {
      return; // the list is a convenience: the form works without it
    }
    if (!page.results.length) return;
    replace(this.waiting, [
      h("h2", { id: "waiting-title" }, gettext("Games waiting for players")),
      h(
        "ul",
        { class: "waiting" },
        page.results.slice(0, 10).map((game) => {
          const ruleset = this.rulesets.find((r) => r.id === game.ruleset);
          const names = list(game.players.map((p) => p.name));
          const seats = format(ngettext("%(count)s open seat", "%(count)s open seats", game.open_seats), { count: game.open_seats });
          return h("li", {}, h("a", { href: `/play/${game.id}/`, "data-internal": true },
            format(gettext("%(ruleset)s with %(names)s"), { ruleset: ruleset?.name ?? game.ruleset, names })), ` (${seats})`);
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
      h("label", { for: inputId }, optionLabel(id)),
      help,
    );
  }
  let input;
  if (option.values.length) {
    input = h("select", common, option.values.map((value) =>
      h("option", { value, selected: value === option.default }, optionValue(value))));
  } else {
    input = h("input", {
      ...common, type: "number", inputmode: "numeric", value: String(option.default),
      min: option.minimum, max: option.maximum, step: option.step,
    });
  }
  return h("div", { class: "field" }, h("label", { for: inputId }, optionLabel(id)), input, help);
}

