// One assignment's results, followed live: the table, the chart, the secrets once it is
// closed, and the CSV for a gradebook.

import { teacherApi } from "../common/api.js";
import { alertBox, h, replace, showProblem } from "../common/dom.js";
import { dateTime, format, gettext, ngettext, pgettext } from "../common/i18n.js";
import { resultsChart } from "./chart.js";
import { number, percent, when } from "./forms.js";
import { Poller } from "./poll.js";

const EVERY_MS = 3000;
/** An assignment's status in words. */
export function statusName(status) {
  switch (status) {
    case "scheduled": return pgettext("assignment", "scheduled");
    case "open": return pgettext("assignment", "open");
    case "closed": return pgettext("assignment", "closed");
    default: return status;
  }
}

/** An assignment's grade mode in words. */
function gradeName(grade) {
  switch (grade) {
    case "accuracy": return gettext("graded by accuracy");
    case "completion": return gettext("graded by games finished");
    case "rank": return gettext("graded by rank");
    default: return grade;
  }
}

/** A learner's grade as sent to the learning platform, in words. */
function passbackText(passback) {
  if (passback.status === "sent") return format(gettext("Sent: %(score)s of 100"), { score: number(passback.score) });
  if (passback.status === "waiting") return gettext("Waiting to be sent");
  const tried = format(ngettext("Not taken yet, tried %(count)s time", "Not taken yet, tried %(count)s times", passback.attempts), { count: passback.attempts });
  return passback.error ? `${tried}: ${passback.error}` : tried;
}

function none() {
  return [h("span", { "aria-hidden": "true" }, "–"), h("span", { class: "visually-hidden" }, gettext("none"))];
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
    // A wide table scrolls in its own box, which the keyboard can reach and scroll.
    this.tablePart = h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-labelledby": "results-table-title" });
    this.secretsPart = h("div");
    this.download = h("button", { type: "button", onclick: () => this.saveCsv() },
      gettext("Download results (CSV)"));
    this.title = h("h2", { id: "results-title", tabindex: "-1" }, format(gettext("Results: %(title)s"), { title: assignment.title }));
    this.section.hidden = false;
    replace(this.section, [
      this.title,
      this.meta,
      this.status,
      this.updated,
      this.problem,
      h("div", { class: "row" }, this.download),
      this.chartPart,
      h("h3", { id: "results-table-title" }, gettext("Results table")),
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
    this.updated.textContent = format(gettext("Following live: updated %(time)s."), { time: dateTime(new Date(), { timeStyle: "medium" }) });
    const json = JSON.stringify(answer);
    if (json !== this.last) {
      this.last = json;
      this.assignment = answer.assignment;
      this.onAssignment?.(answer.assignment);
      this.draw(answer);
    }
    const sending = answer.students.some((row) => row.passback && row.passback.status !== "sent");
    if (answer.assignment.status === "closed" && !sending) {
      this.updated.textContent = gettext("The assignment is closed: these results are final.");
      return false;
    }
    return true;
  }

  draw({ assignment, students }) {
    const ruleset = this.rulesets.find((r) => r.id === assignment.ruleset);
    this.meta.textContent = [
      ruleset?.name ?? assignment.ruleset,
      format(ngettext("%(count)s game each", "%(count)s games each", assignment.games), { count: assignment.games }),
      statusName(assignment.status),
      gradeName(assignment.grade),
      format(gettext("opens %(when)s"), { when: when(assignment.opens_at) }),
      format(gettext("due %(when)s"), { when: when(assignment.due_at) }),
    ].join(" · ");
    const done = students.filter((row) => row.games_finished >= assignment.games).length;
    const finished = students.reduce((sum, row) => sum + row.games_finished, 0);
    const summary = [
      format(ngettext("%(done)s of %(count)s student finished all their games;", "%(done)s of %(count)s students finished all their games;",
        students.length), { done, count: students.length }),
      format(ngettext("%(finished)s of %(count)s game finished in all.", "%(finished)s of %(count)s games finished in all.",
        students.length * assignment.games), { finished, count: students.length * assignment.games }),
    ].join(" ");
    if (summary !== this.announced) {
      this.announced = summary;
      this.status.textContent = summary;
    }
    replace(this.chartPart, [
      resultsChart(students, {
        label: format(gettext("Mean score and mean accuracy of each student in %(title)s"), { title: assignment.title }),
        describedBy: "results-table",
      }),
      h("figcaption", {}, gettext("Each student's mean score over their finished games, and how close to the best play they came (mean accuracy). The table below holds the same figures.")),
    ]);
    replace(this.tablePart, this.table(assignment, students));
    replace(this.secretsPart, this.secrets(assignment));
  }

  table(assignment, students) {
    const cell = (value) => h("td", {}, value === null ? none() : value);
    // The grades sent to a learning platform, for an assignment a platform links to.
    const platform = students.some((row) => row.passback);
    const headings = [gettext("Rank"), gettext("Student"), gettext("Started"), gettext("Finished"),
      gettext("Mean score"), gettext("Best score"), gettext("Mean accuracy"),
      ...(platform ? [gettext("Grade sent to the platform")] : [])];
    return h(
      "table",
      { id: "results-table", class: "results" },
      h("caption", {}, format(gettext("Results of %(title)s, best first"), { title: assignment.title })),
      h("thead", {}, h("tr", {}, headings.map((name) => h("th", { scope: "col" }, name)))),
      h("tbody", {}, students.length
        ? students.map((row) => h("tr", {},
            cell(row.rank),
            h("th", { scope: "row" }, row.student.name),
            cell(row.games_started),
            cell(row.games_finished),
            cell(number(row.mean_score)),
            cell(row.best_score),
            cell(percent(row.mean_accuracy)),
            platform ? h("td", { class: "text", "data-passback": row.passback?.status ?? "none" },
              row.passback ? passbackText(row.passback) : none()) : null))
        : h("tr", {}, h("td", { colspan: headings.length }, gettext("No students have joined yet.")))),
    );
  }

  secrets(assignment) {
    const commitments = h("details", {},
      h("summary", {}, gettext("Commitments")),
      h("p", {}, gettext("Game k of every student is thrown from the k-th secret; each line is the SHA-256 of one, fixed when the assignment was set.")),
      h("ol", { class: "hashes" }, assignment.commitments.map((hash) => h("li", {}, h("code", {}, hash)))));
    if (!assignment.secrets) return commitments;
    return [
      h("h3", {}, gettext("Secrets")),
      h("p", {}, gettext("The assignment is closed: with these secrets anyone can check the records of its games (game k was thrown from secret k).")),
      h("ol", { class: "hashes", "aria-label": gettext("Secrets") },
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
      this.status.textContent = format(gettext("The results were saved as %(file)s."), { file: name });
      this.announced = null;
    } catch (error) {
      showProblem(this.problem, error);
    } finally {
      button.disabled = false;
      button.focus();
    }
  }
}
