// Setting a tournament: the teacher's (any bot of the classroom, rated or not, a start
// time) and a student's scrimmage (their own bots against the computers). The refusals are
// shown by their fields, as the assignment form shows them.

import { alertBox, h, replace, showProblem } from "./dom.js";
import { COMPUTER_LEVELS, gamesCount } from "./arena.js";
import { dateTime, format, gettext, ngettext } from "./i18n.js";
import { computerName } from "./options.js";
import { clearErrors, errorText, field, isoFromLocal, showErrors } from "../teach/forms.js";

const MOST_GAMES = 10_000;
const FIELD_CONTROLS = {
  title: "tournament-title",
  ruleset: "tournament-ruleset",
  seats: "tournament-seats",
  boards: "tournament-boards",
  entrants: "tournament-entrants",
  clock: "tournament-clock",
  "clock.turn_seconds": "tournament-clock",
  starts_at: "tournament-starts",
  rated: "tournament-rated",
};
const FIELD_WORDS = { turn_seconds: gettext("the seconds a turn"), starts_at: gettext("the start") };

export class TournamentForm {
  /**
   * `bots`: the bots that may be entered; `send(body)` sets the tournament and answers it;
   * `onSet` is told of each one set; `scrimmage`: a student's (never rated, starts now).
   */
  constructor({ rulesets, bots, send, onSet, scrimmage = false }) {
    this.rulesets = rulesets;
    this.bots = bots;
    this.send = send;
    this.onSet = onSet;
    this.scrimmage = scrimmage;
    this.ruleset = rulesets[0];
  }

  element() {
    this.status = h("p", { class: "done", role: "status", "aria-live": "polite" });
    this.problem = alertBox();
    this.entrantsPart = h("div");
    this.count = h("p", { class: "help", id: "tournament-count", "aria-live": "polite" });
    const heading = this.scrimmage ? gettext("Start a scrimmage") : gettext("Set a tournament");
    const seats = h("fieldset", { id: "tournament-seats", "aria-describedby": "tournament-seats-error" },
      h("legend", {}, gettext("Seats in a game")),
      this.radio("seats-2", "2", gettext("Round robin: every pair plays every board twice, once in each seat order"), true),
      this.radio("seats-1", "1", gettext("A field: every entrant plays every board alone"), false),
      errorText("tournament-seats"));
    this.form = h(
      "form",
      {
        class: "card", novalidate: true, "aria-labelledby": "tournament-form-title",
        onsubmit: (event) => this.submit(event), oninput: () => this.updateCount(),
        onchange: () => this.updateCount(),
      },
      h("h2", { id: "tournament-form-title" }, heading),
      this.scrimmage ? null : field("tournament-title", gettext("Title"), h("input", {
        id: "tournament-title", name: "title", maxlength: 80, autocomplete: "off", required: true,
      }), gettext("For example “Spring cup”: the classroom sees it.")),
      field("tournament-ruleset", gettext("Ruleset"), h("select", {
        id: "tournament-ruleset", name: "ruleset",
        onchange: (event) => {
          this.ruleset = this.rulesets.find((r) => r.id === event.target.value);
          this.drawEntrants();
        },
      }, this.rulesets.map((r) => h("option", { value: r.id }, r.name)))),
      seats,
      field("tournament-boards", gettext("Boards"), h("input", {
        id: "tournament-boards", name: "boards", type: "number", inputmode: "numeric",
        min: 1, max: 50, step: 1, value: "2", required: true,
      }), gettext("From 1 to 50. Every game of a board throws the same dice, so luck is shared.")),
      this.entrantsPart,
      this.count,
      field("tournament-clock", gettext("Seconds a turn"), h("input", {
        id: "tournament-clock", name: "turn_seconds", type: "number", inputmode: "numeric",
        min: 10, max: 3600, step: 1, value: "30",
      }), gettext("From 10 to 3600: a bot that takes longer has its turn played by the greedy computer.")),
      this.scrimmage ? null : field("tournament-starts", gettext("Starts (optional)"), h("input", {
        id: "tournament-starts", name: "starts_at", type: "datetime-local",
      }), gettext("Empty: at once. Your device's time zone.")),
      this.scrimmage ? null : field("tournament-rated", gettext("Rated (standings with ratings)"), h("input", {
        id: "tournament-rated", name: "rated", type: "checkbox", checked: true,
      }), null, { check: true }),
      this.problem,
      this.status,
      h("button", { type: "submit", class: "primary" },
        this.scrimmage ? gettext("Start the scrimmage") : gettext("Set the tournament")),
    );
    this.drawEntrants();
    return this.form;
  }

  radio(id, value, label, checked) {
    const full = `tournament-${id}`;
    return h("div", { class: "field check" },
      h("input", { id: full, type: "radio", name: "seats", value, checked }),
      h("label", { for: full }, label));
  }

  /** The bots may change (one registered, one deleted): drawn again, choices kept. */
  setBots(bots) {
    this.bots = bots;
    if (this.form) this.drawEntrants();
  }

  drawEntrants() {
    const chosen = new Set([...(this.form?.querySelectorAll("input[data-bot]:checked") ?? [])]
      .map((input) => input.dataset.bot));
    const playable = this.bots.filter((bot) => bot.rulesets.includes(this.ruleset.id));
    const botItems = playable.map((bot) => h("li", {}, h("div", { class: "field check" },
      h("input", {
        id: `tournament-bot-${bot.id}`, type: "checkbox", "data-bot": bot.id,
        checked: chosen.has(bot.id) || (this.scrimmage && playable.length === 1),
      }),
      h("label", { for: `tournament-bot-${bot.id}` }, bot.name, ownerWords(bot)))));
    const others = this.bots.length - playable.length;
    const computers = COMPUTER_LEVELS.map((level) => field(`tournament-computer-${level}`,
      format(gettext("Computers playing %(level)s"), { level: computerName(level) }), h("input", {
        id: `tournament-computer-${level}`, type: "number", inputmode: "numeric", min: 0, max: 64,
        step: 1, value: this.form?.querySelector(`#tournament-computer-${level}`)?.value
          ?? (this.scrimmage ? "1" : "0"),
        "data-computer": level,
      })));
    replace(this.entrantsPart, h("fieldset", {
      id: "tournament-entrants", "aria-describedby": "tournament-entrants-error",
    },
    h("legend", {}, gettext("Entrants")),
    botItems.length
      ? h("ul", { class: "entrant-list", "aria-label": gettext("Bots") }, botItems)
      : h("p", {}, format(gettext("No bot plays %(ruleset)s yet."), { ruleset: this.ruleset.name })),
    others ? h("p", { class: "help" }, format(ngettext(
      "%(count)s bot not shown: it does not play %(ruleset)s.",
      "%(count)s bots not shown: they do not play %(ruleset)s.", others), { count: others, ruleset: this.ruleset.name })) : null,
    computers,
    errorText("tournament-entrants")));
    this.updateCount();
  }

  entrants() {
    const out = [...this.form.querySelectorAll("input[data-bot]:checked")].map((input) => ({ bot: input.dataset.bot }));
    for (const input of this.form.querySelectorAll("input[data-computer]")) {
      const count = Math.max(0, Math.min(64, Math.floor(Number(input.value) || 0)));
      for (let i = 0; i < count; i += 1) out.push({ computer: input.dataset.computer });
    }
    return out;
  }

  seats() {
    return Number(this.form.querySelector("input[name=seats]:checked")?.value ?? 2);
  }

  updateCount() {
    if (!this.form) return;
    const boards = Number(this.form.querySelector("#tournament-boards").value) || 0;
    const entrants = this.entrants().length;
    const games = gamesCount(this.seats(), boards, entrants);
    const text = [
      format(ngettext("%(count)s entrant,", "%(count)s entrants,", entrants), { count: entrants }),
      format(ngettext("%(count)s game in all.", "%(count)s games in all.", games), { count: games }),
      games > MOST_GAMES ? format(gettext("A tournament holds at most %(most)s."), { most: MOST_GAMES }) : null,
    ].filter(Boolean).join(" ");
    if (this.count.textContent !== text) this.count.textContent = text;
  }

  body() {
    const value = (id) => this.form.querySelector(`#${id}`)?.value ?? "";
    const number = (id) => (value(id).trim() === "" ? null : Number(value(id)));
    const body = {
      title: this.scrimmage
        ? format(gettext("Scrimmage %(when)s"), { when: dateTime(new Date(), { dateStyle: "short", timeStyle: "short" }) })
        : value("tournament-title"),
      ruleset: this.ruleset.id,
      seats: this.seats(),
      boards: number("tournament-boards"),
      entrants: this.entrants(),
    };
    const seconds = number("tournament-clock");
    if (seconds !== null) body.clock = { turn_seconds: seconds };
    if (!this.scrimmage) {
      const starts = isoFromLocal(value("tournament-starts"));
      if (starts) body.starts_at = starts;
      body.rated = this.form.querySelector("#tournament-rated").checked;
    }
    return body;
  }

  async submit(event) {
    event.preventDefault();
    clearErrors(this.form);
    this.problem.hidden = true;
    this.status.textContent = "";
    const body = this.body();
    const button = event.submitter;
    if (button) button.disabled = true;
    try {
      const tournament = await this.send(body);
      if (!this.scrimmage) this.form.querySelector("#tournament-title").value = "";
      this.status.textContent = this.scrimmage
        ? gettext("The scrimmage is set: its games start in a moment.")
        : format(gettext("The tournament “%(title)s” is set."), { title: tournament.title });
      this.onSet(tournament);
    } catch (error) {
      if (error.errors?.length) this.refuse(error.errors, error);
      else showProblem(this.problem, error);
    } finally {
      if (button) button.disabled = false;
    }
  }

  refuse(errors, error) {
    const controlOf = (name) => {
      if (name in FIELD_CONTROLS) return FIELD_CONTROLS[name];
      if (/^entrants(\.|$)/.test(name ?? "")) return "tournament-entrants";
      if (/^clock(\.|$)/.test(name ?? "")) return "tournament-clock";
      return null;
    };
    const { first, unplaced } = showErrors(this.form, errors, controlOf, FIELD_WORDS);
    const count = errors.length - unplaced.length;
    const what = this.scrimmage
      ? ngettext("The scrimmage was not started: %(count)s field needs a change.",
        "The scrimmage was not started: %(count)s fields need a change.", count)
      : ngettext("The tournament was not set: %(count)s field needs a change.",
        "The tournament was not set: %(count)s fields need a change.", count);
    let text = count ? format(what, { count }) : error.message;
    const lines = unplaced.map((e) => `${e.field}: ${e.detail}`);
    if (lines.length) text = `${text} ${lines.join(" ")}`;
    this.problem.textContent = text;
    this.problem.hidden = false;
    (first ?? this.form.querySelector("#tournament-entrants input"))?.focus();
  }
}

function ownerWords(bot) {
  const student = bot.owner?.student;
  const name = typeof student === "string" ? student : student?.name;
  return name ? ` (${name})` : "";
}
