// Setting an assignment: the form, its house rules per ruleset, and the refusals shown by
// their fields.

import { alertBox, h, replace, showProblem } from "../common/dom.js";
import { format, gettext, gettext_noop, ngettext } from "../common/i18n.js";
import { optionLabel, optionValue } from "../common/options.js";
import {
  clearErrors, errorText, field, isoFromLocal, localValue, showErrors,
} from "./forms.js";

const MOST_GAMES = 100;

// The API's names for the assignment's fields, as the form calls them.
const FIELD_WORDS = {
  due_at: gettext_noop("the due time"),
  opens_at: gettext_noop("the opening time (now, when empty)"),
};
const FIELD_CONTROLS = {
  title: "assignment-title",
  ruleset: "assignment-ruleset",
  options: "assignment-options",
  games: "assignment-games",
  grade: "assignment-grade",
  opens_at: "assignment-opens",
  due_at: "assignment-due",
};

export class AssignmentForm {
  /** `send(body)` sets the assignment and answers it; `onSet` is told of each one set. */
  constructor({ rulesets, send, onSet }) {
    this.rulesets = rulesets;
    this.ruleset = rulesets[0];
    this.send = send;
    this.onSet = onSet;
  }

  element() {
    const inAWeek = new Date(Date.now() + 7 * 24 * 3600 * 1000);
    inAWeek.setHours(17, 0, 0, 0);
    this.status = h("p", { class: "done", role: "status", "aria-live": "polite" });
    this.problem = alertBox();
    this.optionsPart = h("div");
    const picker = h(
      "select",
      {
        id: "assignment-ruleset", name: "ruleset",
        onchange: (event) => {
          this.ruleset = this.rulesets.find((r) => r.id === event.target.value);
          this.drawOptions();
        },
      },
      this.rulesets.map((r) => h("option", { value: r.id }, r.name)),
    );
    this.form = h(
      "form",
      { class: "card", novalidate: true, "aria-labelledby": "assign-title", onsubmit: (event) => this.submit(event) },
      h("h2", { id: "assign-title" }, gettext("Set an assignment")),
      field("assignment-title", gettext("Title"), h("input", {
        id: "assignment-title", name: "title", maxlength: 80, autocomplete: "off", required: true,
      }), gettext("For example “Week 3”: your students see it.")),
      field("assignment-ruleset", gettext("Ruleset"), picker),
      this.optionsPart,
      field("assignment-games", gettext("Games per student"), h("input", {
        id: "assignment-games", name: "games", type: "number", inputmode: "numeric",
        min: 1, max: MOST_GAMES, step: 1, value: "5", required: true,
      }), format(gettext("From 1 to %(most)s. Every student's game k is thrown from the same dice."), { most: MOST_GAMES })),
      field("assignment-grade", gettext("Grade for a learning platform"), h("select", {
        id: "assignment-grade", name: "grade",
      }, [
        ["", gettext("The ruleset's default")],
        ["accuracy", gettext("Mean accuracy")],
        ["completion", gettext("Games finished")],
        ["rank", gettext("Rank in the class")],
      ].map(([value, text]) => h("option", { value }, text))),
      gettext("The grade a course of a learning platform gets, out of 100, once the assignment closes. Default: mean accuracy where the ruleset is analysed, else games finished.")),
      field("assignment-opens", gettext("Opens (optional)"), h("input", {
        id: "assignment-opens", name: "opens_at", type: "datetime-local",
      }), gettext("Students may start from then on; empty: at once. Your device's time zone.")),
      field("assignment-due", gettext("Due"), h("input", {
        id: "assignment-due", name: "due_at", type: "datetime-local", required: true,
        value: localValue(inAWeek),
      }), gettext("The deadline: games still under way then are abandoned, and the secrets of the dice are shown.")),
      this.problem,
      this.status,
      h("button", { type: "submit", class: "primary" }, gettext("Set the assignment")),
    );
    this.drawOptions();
    return this.form;
  }

  drawOptions() {
    const options = Object.entries(this.ruleset.options);
    replace(this.optionsPart, options.length
      ? h("fieldset", { id: "assignment-options", "aria-describedby": "assignment-options-error" },
          h("legend", {}, gettext("House rules")),
          options.map(([id, option]) => optionField(id, option)),
          errorText("assignment-options"))
      : null);
  }

  body() {
    const value = (id) => this.form.querySelector(`#${id}`).value;
    const options = {};
    for (const [id, option] of Object.entries(this.ruleset.options)) {
      const input = this.form.querySelector(`#assignment-option-${CSS.escape(id)}`);
      if (!input) continue;
      let chosen;
      if (option.type === "boolean") chosen = input.checked;
      else if (option.type === "integer") chosen = input.value.trim() === "" ? null : Number(input.value);
      else chosen = input.value;
      if (chosen !== option.default) options[id] = chosen;
    }
    const games = value("assignment-games").trim();
    const body = {
      title: value("assignment-title"),
      ruleset: this.ruleset.id,
      games: games === "" ? null : Number(games),
      due_at: isoFromLocal(value("assignment-due")),
    };
    if (Object.keys(options).length) body.options = options;
    const grade = value("assignment-grade");
    if (grade) body.grade = grade;
    const opens = isoFromLocal(value("assignment-opens"));
    if (opens) body.opens_at = opens;
    return body;
  }

  async submit(event) {
    event.preventDefault();
    clearErrors(this.form);
    this.problem.hidden = true;
    this.status.textContent = "";
    const body = this.body();
    if (!body.due_at) {
      this.refuse([{ field: "due_at", detail: gettext("Choose when the assignment is due") }]);
      return;
    }
    const button = event.submitter;
    if (button) button.disabled = true;
    try {
      const assignment = await this.send(body);
      this.form.querySelector("#assignment-title").value = "";
      this.status.textContent = format(gettext("The assignment “%(title)s” is set."), { title: assignment.title });
      this.onSet(assignment);
    } catch (error) {
      if (error.errors?.length) this.refuse(error.errors, error);
      else showProblem(this.problem, error);
    } finally {
      if (button) button.disabled = false;
    }
  }

  /** Show a refusal's errors by their fields; those of no field in the form's alert. */
  refuse(errors, error = null) {
    const controlOf = (name) => {
      if (name in FIELD_CONTROLS) return FIELD_CONTROLS[name];
      const option = /^options\.(.+)$/.exec(name ?? "");
      if (option) {
        const id = `assignment-option-${option[1]}`;
        return this.form.querySelector(`#${CSS.escape(id)}`) ? id : "assignment-options";
      }
      return null;
    };
    const words = Object.fromEntries(Object.entries(FIELD_WORDS).map(([name, word]) => [name, gettext(word)]));
    const { first, unplaced } = showErrors(this.form, errors, controlOf, words);
    const count = errors.length - unplaced.length;
    const lines = unplaced.map((e) => e.detail);
    let text = count
      ? format(ngettext("The assignment was not set: %(count)s field needs a change.",
        "The assignment was not set: %(count)s fields need a change.", count), { count })
      : error?.message ?? gettext("The assignment was not set.");
    if (lines.length) text = `${text} ${lines.join(" ")}`;
    this.problem.textContent = text;
    this.problem.hidden = false;
    first?.focus();
  }
}

function optionField(name, option) {
  const id = `assignment-option-${name}`;
  const common = { id, name: `option-${name}` };
  if (option.type === "boolean") {
    return field(id, optionLabel(name), h("input", { ...common, type: "checkbox", checked: option.default }),
      option.description, { check: true });
  }
  let control;
  if (option.values.length) {
    control = h("select", common, option.values.map((value) =>
      h("option", { value, selected: value === option.default }, optionValue(value))));
  } else {
    control = h("input", {
      ...common, type: "number", inputmode: "numeric", value: String(option.default),
      min: option.minimum, max: option.maximum, step: option.step,
    });
  }
  return field(id, optionLabel(name), control, option.description);
}
