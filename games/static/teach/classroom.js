// The classroom screen: the join code, the roster, setting an assignment, the assignments
// and the results of the one selected.

import { teacherApi } from "../common/api.js";
import { alertBox, h, replace, showProblem } from "../common/dom.js";
import { AssignmentForm } from "./assign.js";
import { format, gettext, ngettext } from "../common/i18n.js";
import { number, percent, when, whenShort } from "./forms.js";
import { statusName } from "./results.js";
import { JoiningPanel } from "./joining.js";
import { newKeyPanel } from "./key.js";
import { Poller } from "./poll.js";
import { ResultsView } from "./results.js";
import { TournamentsSection } from "./tournaments.js";

const OVERVIEW_MS = 15_000; // the roster and the list of assignments

export class ClassroomScreen {
  /** `newKey`: the key of a classroom just opened, shown this once. */
  constructor(main, { key, classroom, rulesets, newKey = null, onLeave }) {
    this.main = main;
    this.key = key;
    this.classroom = classroom; // {id, name}; the roster adds the rest
    this.rulesets = rulesets;
    this.newKey = newKey;
    this.onLeave = onLeave;
    this.assignments = null;
    this.shownList = null;
    this.selected = null;
    this.overview = new Poller(() => this.loadOverview(), OVERVIEW_MS);
    this.joining = new JoiningPanel({
      request: (method, rest, body) => this.request(method, rest, body),
      onClassroom: (classroom) => {
        this.classroom = classroom;
        this.drawRoster(classroom.students);
      },
    });
    this.form = new AssignmentForm({
      rulesets,
      send: (body) => this.request("POST", "assignments/", body),
      onSet: (assignment) => {
        this.assignments = [assignment, ...(this.assignments ?? []).filter((a) => a.id !== assignment.id)];
        this.select(assignment);
      },
    });
  }

  path(rest = "") {
    return `/classrooms/${this.classroom.id}/${rest}`;
  }

  /** One request about this classroom, with its teacher key; answers the body. */
  request(method, rest = "", body = undefined) {
    return teacherApi.request(method, this.path(rest), { key: this.key, body });
  }

  show() {
    document.title = format(gettext("%(classroom)s · Teaching · Dice games"), { classroom: this.classroom.name });
    this.problem = alertBox();
    this.rosterStatus = h("p", { class: "visually-hidden", role: "status", "aria-live": "polite" });
    // A wide table scrolls in its own box, which the keyboard can reach and scroll.
    this.roster = h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-labelledby": "students-title" },
      h("p", {}, gettext("Loading the students…")));
    this.list = h("div", {}, h("p", {}, gettext("Loading the assignments…")));
    this.syncStatus = h("p", { class: "status", role: "status", "aria-live": "polite" });
    this.syncButton = h("button", { type: "button", "data-key": "sync-roster", hidden: true,
      onclick: () => this.syncRoster() }, gettext("Sync roster"));
    this.resultsSection = h("section", { class: "card", "aria-labelledby": "results-title", hidden: true });
    this.results = new ResultsView(this.resultsSection, {
      key: this.key,
      classroomId: this.classroom.id,
      rulesets: this.rulesets,
      onAssignment: (assignment) => this.updateAssignment(assignment),
    });
    this.tournaments = new TournamentsSection({
      key: this.key, classroomId: this.classroom.id, rulesets: this.rulesets,
    });
    replace(this.main, [
      h("h1", { tabindex: "-1" }, this.classroom.name, " ", h("small", {}, gettext("classroom"))),
      this.newKey ? newKeyPanel(this.newKey, () => {
        this.newKey = null;
        this.main.querySelector("h1").focus();
      }) : null,
      h("div", { class: "row" },
        h("button", { type: "button", class: "quiet", onclick: () => this.leave() },
          gettext("Forget the key on this tab"))),
      this.problem,
      this.joining.element(),
      h("section", { class: "card", "aria-labelledby": "students-title" },
        h("h2", { id: "students-title" }, gettext("Students")),
        this.rosterStatus,
        this.roster,
        this.syncStatus,
        this.syncButton,
        h("button", { type: "button", "data-key": "refresh", onclick: () => this.overview.now() },
          gettext("Refresh the students and assignments"))),
      this.form.element(),
      h("section", { class: "card", "aria-labelledby": "assignments-title" },
        h("h2", { id: "assignments-title" }, gettext("Assignments")),
        this.list),
      this.resultsSection,
      this.tournaments.elements(),
    ]);
    this.main.querySelector("h1").focus();
    this.overview.start();
    this.tournaments.start();
  }

  stop() {
    this.overview.stop();
    this.results.stop();
    this.tournaments?.stop();
  }

  leave() {
    this.stop();
    this.onLeave();
  }

  // -- the roster and the list of assignments, asked now and then ----------------------------

  async loadOverview() {
    let classroom;
    let assignments;
    try {
      [classroom, assignments] = await Promise.all([
        this.request("GET"),
        this.request("GET", "assignments/"),
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
    this.joining.draw(classroom);
    this.syncButton.hidden = !classroom.lti_course;
    this.drawRoster(classroom.students);
    this.assignments = assignments;
    this.drawList();
    return true;
  }

  drawRoster(students) {
    const text = format(ngettext("%(count)s student has joined.", "%(count)s students have joined.", students.length),
      { count: students.length });
    if (this.rosterStatus.textContent !== text) this.rosterStatus.textContent = text;
    if (!students.length) {
      replace(this.roster, h("p", {}, gettext("No student has joined yet.")));
      return;
    }
    const figures = (student) => {
      const entries = Object.entries(student.rulesets);
      if (!entries.length) return "–";
      return entries.map(([id, f]) => {
        const name = this.rulesets.find((r) => r.id === id)?.name ?? id;
        const values = { ruleset: name, mean: number(f.mean), best: f.best, accuracy: percent(f.mean_accuracy) };
        return f.mean_accuracy === null
          ? format(gettext("%(ruleset)s: mean %(mean)s, best %(best)s"), values)
          : format(gettext("%(ruleset)s: mean %(mean)s, best %(best)s, accuracy %(accuracy)s"), values);
      }).join("; ");
    };
    replace(this.roster, h(
      "table",
      { class: "roster" },
      h("caption", {}, format(ngettext("%(count)s student of %(classroom)s", "%(count)s students of %(classroom)s", students.length),
        { count: students.length, classroom: this.classroom.name })),
      h("thead", {}, h("tr", {},
        [gettext("Student"), gettext("Joined"), gettext("From"), gettext("Games started"), gettext("Games finished"), gettext("Finished games by ruleset")]
          .map((name) => h("th", { scope: "col" }, name)))),
      h("tbody", {}, students.map((student) => h("tr", { "data-active": String(student.active) },
        h("th", { scope: "row" }, student.name),
        h("td", { class: "text" }, whenShort(student.joined_at)),
        h("td", { class: "text" }, [
          student.source === "lti" ? gettext("Learning platform") : gettext("Join code"),
          student.active ? "" : gettext(" (inactive)"),
        ].join("")),
        h("td", {}, student.games_started),
        h("td", {}, student.games_finished),
        h("td", { class: "text wide" }, figures(student))))),
    ));
  }

  /** The learners of the platform's course, synced into the classroom. */
  async syncRoster() {
    const button = this.syncButton;
    button.disabled = true;
    this.syncStatus.textContent = format(
      gettext("Reading the roster of %(course)s…"), { course: this.classroom.lti_course });
    try {
      const synced = await this.request("POST", "lti-sync/", {});
      this.syncStatus.textContent = format(ngettext(
        "Roster synced: %(added)s learner added, %(inactive)s made inactive, %(active)s active again (%(members)s in the course).",
        "Roster synced: %(added)s learners added, %(inactive)s made inactive, %(active)s active again (%(members)s in the course).",
        synced.added,
      ), {
        added: synced.added, inactive: synced.made_inactive,
        active: synced.made_active, members: synced.members,
      });
      this.overview.now();
    } catch (error) {
      this.syncStatus.textContent = "";
      showProblem(this.problem, error);
    } finally {
      button.disabled = false;
    }
  }

  drawList() {
    const shown = JSON.stringify([this.assignments, this.selected?.id]);
    if (shown === this.shownList) return;
    this.shownList = shown;
    if (!this.assignments.length) {
      replace(this.list, h("p", {}, gettext("No assignment yet: set one above.")));
      return;
    }
    replace(this.list, [
      h("p", { class: "help", id: "assignments-help" }, gettext("Newest first. Choose one to follow its results live.")),
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
              format(ngettext("%(count)s game", "%(count)s games", assignment.games), { count: assignment.games }),
              statusName(assignment.status),
              format(gettext("due %(when)s"), { when: when(assignment.due_at) }),
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
}
