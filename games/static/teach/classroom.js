// The classroom screen: the join code, the roster, setting an assignment, the assignments
// and the results of the one selected.

import { alertBox, h, replace, showProblem } from "../play/dom.js";
import { request } from "./api.js";
import {
  clearErrors, errorText, field, humanize, isoFromLocal, localValue, number, plural,
  showErrors, when, whenShort,
} from "./forms.js";
import { Poller } from "./poll.js";
import { ResultsView } from "./results.js";

const OVERVIEW_MS = 15_000; // the roster and the list of assignments
const MOST_GAMES = 100;

// The API's names for the assignment's fields, as the form calls them.
const FIELD_WORDS = { due_at: "the due time", opens_at: "the opening time (now, when empty)" };
const FIELD_CONTROLS = {
  title: "assignment-title",
  ruleset: "assignment-ruleset",
  options: "assignment-options",
  games: "assignment-games",
  opens_at: "assignment-opens",
  due_at: "assignment-due",
};

export class ClassroomScreen {
  /** `newKey`: the key of a classroom just opened, shown this once. */
  constructor(main, { key, classroom, rulesets, newKey = null, onLeave }) {
    this.main = main;
    this.key = key;
    this.classroom = classroom; // {id, name}; the roster adds the rest
    this.rulesets = rulesets;
    this.newKey = newKey;
    this.onLeave = onLeave;
    this.ruleset = rulesets[0];
    this.assignments = null;
    this.shownList = null;
    this.selected = null;
    this.overview = new Poller(() => this.loadOverview(), OVERVIEW_MS);
  }

  path(rest = "") {
    return `/classrooms/${this.classroom.id}/${rest}`;
  }

  show() {
    document.title = `${this.classroom.name} · Teaching · Dice games`;
    this.problem = alertBox();
    this.joinCode = h("p", { class: "join-code", id: "join-code" }, "…");
    this.joiningText = h("p", { class: "help", id: "joining-text" });
    this.joiningStatus = h("p", { class: "done", role: "status", "aria-live": "polite" });
    this.joiningProblem = alertBox();
    this.joiningButton = h("button", {
      type: "button", "data-key": "joining", onclick: (event) => this.switchJoining(event.currentTarget),
    }, "Close joining");
    this.rosterStatus = h("p", { class: "visually-hidden", role: "status", "aria-live": "polite" });
    this.roster = h("div", { class: "table-wrap" }, h("p", {}, "Loading the students…"));
    this.list = h("div", {}, h("p", {}, "Loading the assignments…"));
    this.resultsSection = h("section", { class: "card", "aria-labelledby": "results-title", hidden: true });
    this.results = new ResultsView(this.resultsSection, {
      key: this.key,
      classroomId: this.classroom.id,
      rulesets: this.rulesets,
      onAssignment: (assignment) => this.updateAssignment(assignment),
    });
    replace(this.main, [
      h("h1", { tabindex: "-1" }, this.classroom.name, " ", h("small", {}, "classroom")),
      this.keyPanel(),
      h("div", { class: "row" },
        h("button", { type: "button", class: "quiet", onclick: () => this.leave() },
          "Forget the key on this tab")),
      this.problem,
      h("section", { class: "card", "aria-labelledby": "join-title" },
        h("h2", { id: "join-title" }, "Join code"),
        this.joinCode,
        h("p", { class: "help" }, "Hand this code to your students: each joins with it and " +
          "their name, and gets a key of their own for their games."),
        this.joiningText,
        h("div", { class: "row" },
          this.joiningButton,
          h("button", {
            type: "button", "data-key": "new-code", onclick: (event) => this.replaceCode(event.currentTarget),
          }, "Replace the code")),
        h("p", { class: "help" }, "Closing joining keeps everyone who joined; replacing the " +
          "code stops the old one at once (students who joined keep their keys)."),
        this.joiningProblem,
        this.joiningStatus),
      h("section", { class: "card", "aria-labelledby": "students-title" },
        h("h2", { id: "students-title" }, "Students"),
        this.rosterStatus,
        this.roster,
        h("button", { type: "button", "data-key": "refresh", onclick: () => this.overview.now() },
          "Refresh the students and assignments")),
      this.assignmentForm(),
      h("section", { class: "card", "aria-labelledby": "assignments-title" },
        h("h2", { id: "assignments-title" }, "Assignments"),
        this.list),
      this.resultsSection,
    ]);
    this.main.querySelector("h1").focus();
    this.overview.start();
  }

  stop() {
    this.overview.stop();
    this.results.stop();
  }

  leave() {
    this.stop();
    this.onLeave();
  }

  keyPanel() {
    if (!this.newKey) return null;
    const note = h("p", { class: "copied", role: "status", "aria-live": "polite" });
    const output = h("textarea", {
      id: "new-teacher-key", readonly: true, rows: 3, class: "key-output",
      autocomplete: "off", spellcheck: "false",
    }, this.newKey);
    const panel = h(
      "section",
      { class: "card key-panel", "aria-labelledby": "key-title" },
      h("h2", { id: "key-title" }, "Keep your teacher key"),
      h("p", {}, "This key is shown only now: the service keeps only a digest of it. Keep it " +
        "somewhere safe, such as a password manager; with it you can come back to this " +
        "classroom from any browser. This tab keeps it until the tab is closed."),
      field("new-teacher-key", "Your teacher key", output),
      h("div", { class: "row" },
        h("button", { type: "button", onclick: () => this.copyKey(output, note) }, "Copy the key"),
        h("button", {
          type: "button",
          onclick: () => {
            this.newKey = null;
            panel.remove();
            this.main.querySelector("h1").focus();
          },
        }, "I have kept the key")),
      note,
    );
    return panel;
  }

  async copyKey(output, note) {
    try {
      await navigator.clipboard.writeText(output.value);
      note.textContent = "The key was copied.";
    } catch {
      output.focus();
      output.select();
      note.textContent = "The key is selected: copy it with your keyboard or menu.";
    }
  }

  // -- the roster and the list of assignments, asked now and then ----------------------------

  async loadOverview() {
    let classroom;
    let assignments;
    try {
      [classroom, assignments] = await Promise.all([
        request("GET", this.path(), { key: this.key }),
        request("GET", this.path("assignments/"), { key: this.key }),
      ]);
    } catch (error) {
      // Said once, not at every attempt: the alert is read out each time it changes.
      if (this.problem.hidden || this.problem.textContent !== error.message) {
        showProblem(this.problem, error);
      }
      return ![401, 403, 404].includes(error.status);
    }
    this.problem.hidden = true;
    this.classroom = classroom;
    this.drawJoining();
    this.drawRoster(classroom.students);
    this.assignments = assignments;
    this.drawList();
    return true;
  }

  // -- who may join: open or closed, and the code --------------------------------------------

  drawJoining() {
    const open = this.classroom.joining === "open";
    this.joinCode.textContent = this.classroom.join_code;
    this.joinCode.classList.toggle("closed", !open);
    this.joiningText.textContent = open
      ? "Joining is open: anyone with the code can join."
      : "Joining is closed: nobody can join with the code until you reopen it.";
    this.joiningButton.textContent = open ? "Close joining" : "Reopen joining";
  }

  async switchJoining(button) {
    const joining = this.classroom.joining === "open" ? "closed" : "open";
    await this.change(button, async () => {
      const classroom = await request("PATCH", this.path(), { key: this.key, body: { joining } });
      this.classroom = classroom;
      this.drawRoster(classroom.students);
      return joining === "open" ? "Joining is open again." : "Joining is closed.";
    });
  }

  async replaceCode(button) {
    await this.change(button, async () => {
      const { join_code: code } = await request("POST", this.path("join-code/"), { key: this.key, body: {} });
      this.classroom = { ...this.classroom, join_code: code };
      return `The new join code is ${code}; the old one no longer works.`;
    });
  }

  /** One change of the joining: the button waits for it, the result is announced. */
  async change(button, send) {
    button.disabled = true;
    this.joiningProblem.hidden = true;
    this.joiningStatus.textContent = "";
    try {
      this.joiningStatus.textContent = await send();
      this.drawJoining();
    } catch (error) {
      showProblem(this.joiningProblem, error);
    } finally {
      button.disabled = false;
      button.focus();
    }
  }

  drawRoster(students) {
    const text = plural(students.length, "student") + (students.length === 1 ? " has" : " have") + " joined.";
    if (this.rosterStatus.textContent !== text) this.rosterStatus.textContent = text;
    if (!students.length) {
      replace(this.roster, h("p", {}, "No student has joined yet."));
      return;
    }
    const figures = (student) => {
      const entries = Object.entries(student.rulesets);
      if (!entries.length) return "–";
      return entries.map(([id, f]) => {
        const name = this.rulesets.find((r) => r.id === id)?.name ?? id;
        const accuracy = f.mean_accuracy === null ? "" : `, accuracy ${number(f.mean_accuracy)}%`;
        return `${name}: mean ${number(f.mean)}, best ${f.best}${accuracy}`;
      }).join("; ");
    };
    replace(this.roster, h(
      "table",
      { class: "roster" },
      h("caption", {}, `${plural(students.length, "student")} of ${this.classroom.name}`),
      h("thead", {}, h("tr", {},
        ["Student", "Joined", "Games started", "Games finished", "Finished games by ruleset"]
          .map((name) => h("th", { scope: "col" }, name)))),
      h("tbody", {}, students.map((student) => h("tr", {},
        h("th", { scope: "row" }, student.name),
        h("td", { class: "text" }, whenShort(student.joined_at)),
        h("td", {}, student.games_started),
        h("td", {}, student.games_finished),
        h("td", { class: "text wide" }, figures(student))))),
    ));
  }

  drawList() {
    const shown = JSON.stringify([this.assignments, this.selected?.id]);
    if (shown === this.shownList) return;
    this.shownList = shown;
    if (!this.assignments.length) {
      replace(this.list, h("p", {}, "No assignment yet: set one above."));
      return;
    }
    replace(this.list, [
      h("p", { class: "help", id: "assignments-help" }, "Newest first. Choose one to follow its results live."),
      h("ul", { class: "assignments", "aria-labelledby": "assignments-title" },
        this.assignments.map((assignment) => {
          const ruleset = this.rulesets.find((r) => r.id === assignment.ruleset);
          const chosen = assignment.id === this.selected?.id;
          return h("li", {}, h(
            "button",
            {
              type: "button", class: "assignment", "aria-pressed": chosen ? "true" : "false",
              "data-key": `assignment-${assignment.id}`,
              onclick: () => this.select(assignment),
            },
            h("span", { class: "title" }, assignment.title),
            h("span", { class: "meta" }, [
              ruleset?.name ?? assignment.ruleset,
              plural(assignment.games, "game"),
              assignment.status,
              `due ${when(assignment.due_at)}`,
            ].join(" · ")),
          ));
        })),
    ]);
  }

  select(assignment) {
    this.selected = assignment;
    this.drawList();
    this.results.follow(assignment);
  }

  /** The results answered a newer state of an assignment: the list shows it too. */
  updateAssignment(assignment) {
    if (!this.assignments) return;
    const index = this.assignments.findIndex((a) => a.id === assignment.id);
    if (index < 0) return;
    this.assignments[index] = assignment;
    this.drawList();
  }

  // -- setting an assignment -------------------------------------------------------------

  assignmentForm() {
    const inAWeek = new Date(Date.now() + 7 * 24 * 3600 * 1000);
    inAWeek.setHours(17, 0, 0, 0);
    this.formStatus = h("p", { class: "done", role: "status", "aria-live": "polite" });
    this.formProblem = alertBox();
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
      h("h2", { id: "assign-title" }, "Set an assignment"),
      field("assignment-title", "Title", h("input", {
        id: "assignment-title", name: "title", maxlength: 80, autocomplete: "off", required: true,
      }), "For example “Week 3”: your students see it."),
      field("assignment-ruleset", "Ruleset", picker),
      this.optionsPart,
      field("assignment-games", "Games per student", h("input", {
        id: "assignment-games", name: "games", type: "number", inputmode: "numeric",
        min: 1, max: MOST_GAMES, step: 1, value: "5", required: true,
      }), `From 1 to ${MOST_GAMES}. Every student's game k is thrown from the same dice.`),
      field("assignment-opens", "Opens (optional)", h("input", {
        id: "assignment-opens", name: "opens_at", type: "datetime-local",
      }), "Students may start from then on; empty: at once. Your device's time zone."),
      field("assignment-due", "Due", h("input", {
        id: "assignment-due", name: "due_at", type: "datetime-local", required: true,
        value: localValue(inAWeek),
      }), "The deadline: games still under way then are abandoned, and the secrets of the " +
        "dice are shown."),
      this.formProblem,
      this.formStatus,
      h("button", { type: "submit", class: "primary" }, "Set the assignment"),
    );
    this.drawOptions();
    return this.form;
  }

  drawOptions() {
    const options = Object.entries(this.ruleset.options);
    replace(this.optionsPart, options.length
      ? h("fieldset", { id: "assignment-options", "aria-describedby": "assignment-options-error" },
          h("legend", {}, "House rules"),
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
    const opens = isoFromLocal(value("assignment-opens"));
    if (opens) body.opens_at = opens;
    return body;
  }

  async submit(event) {
    event.preventDefault();
    clearErrors(this.form);
    this.formProblem.hidden = true;
    this.formStatus.textContent = "";
    const body = this.body();
    if (!body.due_at) {
      this.refuse([{ field: "due_at", detail: "Choose when the assignment is due" }]);
      return;
    }
    const button = event.submitter;
    if (button) button.disabled = true;
    try {
      const assignment = await request("POST", this.path("assignments/"), { key: this.key, body });
      this.form.querySelector("#assignment-title").value = "";
      this.formStatus.textContent = `The assignment “${assignment.title}” is set.`;
      this.assignments = [assignment, ...(this.assignments ?? []).filter((a) => a.id !== assignment.id)];
      this.select(assignment);
    } catch (error) {
      if (error.errors?.length) this.refuse(error.errors, error);
      else showProblem(this.formProblem, error);
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
    const { first, unplaced } = showErrors(this.form, errors, controlOf, FIELD_WORDS);
    const count = errors.length - unplaced.length;
    const lines = unplaced.map((e) => `${e.field}: ${e.detail}`);
    let text = count
      ? `The assignment was not set: ${plural(count, "field needs", "fields need")} a change.`
      : error?.message ?? "The assignment was not set.";
    if (lines.length) text = `${text} ${lines.join(" ")}`;
    this.formProblem.textContent = text;
    this.formProblem.hidden = false;
    first?.focus();
  }
}

function optionField(name, option) {
  const id = `assignment-option-${name}`;
  const common = { id, name: `option-${name}` };
  if (option.type === "boolean") {
    return field(id, humanize(name), h("input", { ...common, type: "checkbox", checked: option.default }),
      option.description, { check: true });
  }
  let control;
  if (option.values.length) {
    control = h("select", common, option.values.map((value) =>
      h("option", { value, selected: value === option.default }, String(value))));
  } else {
    control = h("input", {
      ...common, type: "number", inputmode: "numeric", value: String(option.default),
      min: option.minimum, max: option.maximum, step: option.step,
    });
  }
  return field(id, humanize(name), control, option.description);
}
