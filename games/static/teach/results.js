// One assignment's results, followed live: the table, the chart, the secrets once it is
// closed, and the CSV for a gradebook.

import { teacherApi } from "../common/api.js";
import { alertBox, h, replace, showProblem } from "../common/dom.js";
import { resultsChart } from "./chart.js";
import { number, plural, when } from "./forms.js";
import { Poller } from "./poll.js";

const EVERY_MS = 3000;
const STATUS_WORDS = { scheduled: "scheduled", open: "open", closed: "closed" };
const GRADE_WORDS = {
  accuracy: "graded by accuracy",
  completion: "graded by games finished",
  rank: "graded by rank",
};

/** A learner's grade as sent to the learning platform, in words. */
function passbackText(passback) {
  if (passback.status === "sent") return `Sent: ${number(passback.score)} of 100`;
  if (passback.status === "waiting") return "Waiting to be sent";
  const why = passback.error ? `: ${passback.error}` : "";
  return `Not taken yet, tried ${plural(passback.attempts, "time")}${why}`;
}

function none() {
  return [h("span", { "aria-hidden": "true" }, "–"), h("span", { class: "visually-hidden" }, "none")];
}

function slug(text) {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

export class ResultsView {
  constructor(section, { key, classroomId, rulesets, onAssignment }) {
    this.section = section;
    this.key = key;
    this.classroomId = classroomId;
    this.rulesets = rulesets;
    this.onAssignment = onAssignment; // told of the assignment as each answer has it
    this.assignment = null;
    this.poller = null;
    this.last = null; // the last answer drawn, as JSON
  }

  get path() {
    return `/classrooms/${this.classroomId}/assignments/${this.assignment.id}/results/`;
  }

  /** Follow `assignment` (as the list has it); the one followed before is dropped. */
  follow(assignment) {
    this.stop();
    this.assignment = assignment;
    this.last = null;
    this.announced = null;
    this.problem = alertBox();
    this.status = h("p", { class: "status", role: "status", "aria-live": "polite" });
    this.meta = h("p", { class: "meta" });
    this.updated = h("p", { class: "updated" });
    this.chartPart = h("figure", { class: "chart-box" });
    this.tablePart = h("div", { class: "table-wrap" });
    this.secretsPart = h("div");
    this.download = h("button", { type: "button", onclick: () => this.saveCsv() },
      "Download results (CSV)");
    this.title = h("h2", { id: "results-title", tabindex: "-1" }, `Results: ${assignment.title}`);
    this.section.hidden = false;
    replace(this.section, [
      this.title,
      this.meta,
      this.status,
      this.updated,
      this.problem,
      h("div", { class: "row" }, this.download),
      this.chartPart,
      h("h3", { id: "results-table-title" }, "Results table"),
      this.tablePart,
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

  /** One poll: answers false once the assignment is closed (its results are final). */
  async refresh() {
    const assignment = this.assignment;
    let answer;
    try {
      answer = await teacherApi.request("GET", this.path, { key: this.key });
    } catch (error) {
      if (assignment !== this.assignment) return false;
      // Said once, not at every attempt: the alert is read out each time it changes.
      if (this.problem.hidden || this.problem.textContent !== error.message) {
        showProblem(this.problem, error);
      }
      return ![401, 403, 404].includes(error.status);
    }
    if (assignment !== this.assignment) return false;
    this.problem.hidden = true;
    this.updated.textContent = `Following live: updated ${new Date().toLocaleTimeString()}.`;
    const json = JSON.stringify(answer);
    if (json !== this.last) {
      this.last = json;
      this.assignment = answer.assignment;
      this.onAssignment?.(answer.assignment);
      this.draw(answer);
    }
    const sending = answer.students.some((row) => row.passback && row.passback.status !== "sent");
    if (answer.assignment.status === "closed" && !sending) {
      this.updated.textContent = "The assignment is closed: these results are final.";
      return false;
    }
    return true;
  }

  draw({ assignment, students }) {
    const ruleset = this.rulesets.find((r) => r.id === assignment.ruleset);
    this.meta.textContent = [
      ruleset?.name ?? assignment.ruleset,
      `${plural(assignment.games, "game")} each`,
      STATUS_WORDS[assignment.status] ?? assignment.status,
      GRADE_WORDS[assignment.grade] ?? assignment.grade,
      `opens ${when(assignment.opens_at)}`,
      `due ${when(assignment.due_at)}`,
    ].join(" · ");
    const done = students.filter((row) => row.games_finished >= assignment.games).length;
    const finished = students.reduce((sum, row) => sum + row.games_finished, 0);
    const summary = `${done} of ${plural(students.length, "student")} finished all their games; ` +
      `${finished} of ${plural(students.length * assignment.games, "game")} finished in all.`;
    if (summary !== this.announced) {
      this.announced = summary;
      this.status.textContent = summary;
    }
    replace(this.chartPart, [
      resultsChart(students, {
        label: `Mean score and mean accuracy of each student in ${assignment.title}`,
        describedBy: "results-table",
      }),
      h("figcaption", {}, "Each student's mean score over their finished games, and how close " +
        "to the best play they came (mean accuracy). The table below holds the same figures."),
    ]);
    replace(this.tablePart, this.table(assignment, students));
    replace(this.secretsPart, this.secrets(assignment));
  }

  table(assignment, students) {
    const cell = (value) => h("td", {}, value === null ? none() : value);
    // The grades sent to a learning platform, for an assignment a platform links to.
    const platform = students.some((row) => row.passback);
    const headings = ["Rank", "Student", "Started", "Finished", "Mean score", "Best score",
      "Mean accuracy", ...(platform ? ["Grade sent to the platform"] : [])];
    return h(
      "table",
      { id: "results-table", class: "results" },
      h("caption", {}, `Results of ${assignment.title}, best first`),
      h("thead", {}, h("tr", {}, headings.map((name) => h("th", { scope: "col" }, name)))),
      h("tbody", {}, students.length
        ? students.map((row) => h("tr", {},
            cell(row.rank),
            h("th", { scope: "row" }, row.student.name),
            cell(row.games_started),
            cell(row.games_finished),
            cell(number(row.mean_score)),
            cell(row.best_score),
            cell(row.mean_accuracy === null ? null : `${number(row.mean_accuracy)}%`),
            platform ? h("td", { class: "text", "data-passback": row.passback?.status ?? "none" },
              row.passback ? passbackText(row.passback) : none()) : null))
        : h("tr", {}, h("td", { colspan: headings.length }, "No students have joined yet."))),
    );
  }

  secrets(assignment) {
    const commitments = h("details", {},
      h("summary", {}, "Commitments"),
      h("p", {}, "Game k of every student is thrown from the k-th secret; each line is the " +
        "SHA-256 of one, fixed when the assignment was set."),
      h("ol", { class: "hashes" }, assignment.commitments.map((hash) => h("li", {}, h("code", {}, hash)))));
    if (!assignment.secrets) return commitments;
    return [
      h("h3", {}, "Secrets"),
      h("p", {}, "The assignment is closed: with these secrets anyone can check the records " +
        "of its games (game k was thrown from secret k)."),
      h("ol", { class: "hashes", "aria-label": "Secrets" },
        assignment.secrets.map((secret) => h("li", {}, h("code", {}, secret)))),
      commitments,
    ];
  }

  /** The CSV, fetched with the key in a header, saved through an object URL. */
  async saveCsv() {
    const button = this.download;
    const assignment = this.assignment;
    button.disabled = true;
    try {
      const blob = await teacherApi.request("GET", this.path, { key: this.key, accept: "text/csv" });
      const name = `results-${slug(assignment.title) || assignment.id}.csv`;
      const url = URL.createObjectURL(blob);
      const link = h("a", { href: url, download: name, hidden: true });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 30_000);
      this.status.textContent = `The results were saved as ${name}.`;
      this.announced = null;
    } catch (error) {
      showProblem(this.problem, error);
    } finally {
      button.disabled = false;
      button.focus();
    }
  }
}
