// Assignments: a student gives their API key (kept in this tab's sessionStorage only), sees
// their classroom's assignments with their own progress, and starts the next game of one.
// Which assignment a game belongs to is kept in localStorage (ids, titles and deadlines only,
// never the key), so that the game screen can say "Week 3: game 3 of 10, due Friday 17:00".

import { playerApi } from "../common/api.js";
import { alertBox, h, replace, showProblem } from "../common/dom.js";
import { dateTime, format, gettext, ngettext } from "../common/i18n.js";
import { keepSeat } from "./seats.js";

const apiKey = () => playerApi.key.held();

const DAY = 24 * 60 * 60 * 1000;

/** A moment in the page's language and the browser's time zone: the weekday when it is near. */
export function formatWhen(iso, now = Date.now()) {
  const date = new Date(iso);
  const ahead = date.getTime() - now;
  const options = ahead > -DAY && ahead < 6 * DAY
    ? { weekday: "long", hour: "numeric", minute: "2-digit" }
    : { weekday: "short", day: "numeric", month: "long", hour: "numeric", minute: "2-digit" };
  if (date.getFullYear() !== new Date(now).getFullYear()) options.year = "numeric";
  return dateTime(date, options);
}

export function timeOf(iso) {
  return h("time", { datetime: iso, title: dateTime(iso, { dateStyle: "full", timeStyle: "short" }) }, formatWhen(iso));
}

// -- what this browser knows of an assignment (no secret in it) ---------------------------

const metaKey = (assignmentId) => `dice-games:assignment:${assignmentId}`;
const metaMemory = new Map();

export function assignmentMeta(assignmentId) {
  try {
    const stored = JSON.parse(localStorage.getItem(metaKey(assignmentId)) || "null");
    if (stored && typeof stored === "object") return stored;
  } catch {
    // Unreadable: as if nothing were kept.
  }
  return metaMemory.get(assignmentId) ?? null;
}

/** Keep an assignment's title, size and deadline, and the games of it started here. */
export function keepAssignment(classroomId, assignment, played = {}) {
  const before = assignmentMeta(assignment.id);
  const meta = {
    id: assignment.id,
    classroom: classroomId,
    title: assignment.title,
    ruleset: assignment.ruleset,
    games: assignment.games,
    due_at: assignment.due_at,
    played: { ...(before?.played || {}), ...played },
  };
  metaMemory.set(assignment.id, meta);
  try {
    localStorage.setItem(metaKey(assignment.id), JSON.stringify(meta));
  } catch {
    // Storage refused: kept until the page closes.
  }
  return meta;
}

// The student this browser's session is (a course launch from a learning platform), if
// any: {role, classroom, student}; false once asked and there is none.
let session = null;
async function sessionOwner() {
  if (session === null && !document.querySelector('meta[name="signed-in"]')) session = false;
  if (session === null) {
    try {
      const answer = (await playerApi.get("/me/")).data;
      session = answer?.role === "student" ? answer : false;
    } catch {
      session = false;
    }
  }
  return session || null;
}
const signedIn = () => Boolean(apiKey() || session);

/** Who the key in this tab is: {role, classroom, student}, asked once per key. */
let owner = null;
export async function keyOwner(key = apiKey()) {
  if (!key) return session || null;
  if (owner?.key !== key) {
    const answer = await playerApi.get("/me/", { key });
    owner = { key, data: answer.data };
  }
  return owner.data;
}

export function forgetKey() {
  owner = null;
  playerApi.key.forget();
}

/** Start the student's next game of the assignment; answers the new game. */
export async function startAssignmentGame(classroomId, assignment) {
  const path = `/classrooms/${classroomId}/assignments/${assignment.id}/games/`;
  const { data: game } = await playerApi.post(path, undefined, { key: apiKey() });
  for (const player of game.players) {
    if (player.token) keepSeat(game.id, player.seat, player.token);
  }
  keepAssignment(classroomId, assignment, { [game.assignment_game]: game.id });
  return game;
}

/** The assignment with the student's progress, read with the key in this tab. */
export async function fetchAssignment(classroomId, assignmentId) {
  const path = `/classrooms/${classroomId}/assignments/${assignmentId}/`;
  return (await playerApi.get(path, { key: apiKey() })).data;
}

/** "Start game 3 of 10": the next game the student may start now, or null. */
export function nextGame(assignment) {
  const started = assignment.progress?.started ?? 0;
  if (assignment.status !== "open" || started >= assignment.games) return null;
  return started + 1;
}

// -- the start screen's part --------------------------------------------------------------

export class AssignmentsPanel {
  /** `onKey` is told when the key in this tab changes (given, or forgotten). */
  constructor(rulesets, navigate, onKey = null) {
    this.rulesets = rulesets;
    this.navigate = navigate;
    this.onKey = onKey;
    this.problem = alertBox();
    this.status = h("p", { class: "help", role: "status" });
    this.element = h("section", { class: "card assignments", id: "assignments", "aria-labelledby": "assignments-title" });
    this.assignments = null;
    this.owner = null;
  }

  show() {
    if (apiKey()) this.load();
    else {
      this.render();
      sessionOwner().then(() => signedIn() && this.load());
    }
    return this.element;
  }

  heading() {
    return h("h2", { id: "assignments-title", tabindex: "-1" }, gettext("Assignments"));
  }

  render() {
    if (!signedIn()) {
      replace(this.element, [this.heading(), this.keyForm()]);
      return;
    }
    const parts = [this.heading()];
    const student = this.owner?.student;
    if (student && !apiKey()) {
      parts.push(h("div", { class: "who" }, h("p", {}, `${student.name}, ${this.owner.classroom.name}.`)));
    } else if (student) {
      parts.push(h("div", { class: "who" },
        h("p", {}, format(gettext("%(name)s, %(classroom)s."), { name: student.name, classroom: this.owner.classroom.name })),
        h("button", {
          type: "button", class: "quiet", "data-key": "forget-key",
          onclick: () => this.forget(),
        }, gettext("Forget my key"))));
    }
    parts.push(this.status, this.problem);
    if (this.assignments) {
      parts.push(this.assignments.length
        ? h("ul", { class: "assignment-list" }, this.assignments.map((a) => h("li", {}, this.item(a))))
        : h("p", {}, gettext("Your classroom has no assignment yet.")));
    }
    replace(this.element, parts);
  }

  keyForm() {
    return h(
      "form",
      { class: "key-form", onsubmit: (event) => this.submitKey(event), novalidate: true },
      h("p", { class: "help", id: "api-key-help" },
        gettext("Your teacher gave you a student API key. It stays in this tab only, and is forgotten when the tab closes.")),
      h("div", { class: "field share" },
        h("label", { for: "api-key" }, gettext("Student API key")),
        // No name: the key can never end up in an address, even if the form were sent.
        h("input", {
          id: "api-key", type: "password", autocomplete: "off", spellcheck: "false",
          autocapitalize: "off", "aria-describedby": "api-key-help", "data-key": "api-key",
        }),
        h("button", { type: "submit", "data-key": "show-assignments" }, gettext("Show my assignments"))),
      this.problem,
    );
  }

  async submitKey(event) {
    event.preventDefault();
    const input = event.target.querySelector("#api-key");
    const key = input.value.trim();
    this.problem.hidden = true;
    if (!key) {
      this.problem.textContent = gettext("Enter your student API key.");
      this.problem.hidden = false;
      input.focus();
      return;
    }
    const button = event.submitter;
    if (button) button.disabled = true;
    let who;
    try {
      who = await keyOwner(key);
    } catch (error) {
      showProblem(this.problem, error);
      if (button) button.disabled = false;
      input.focus();
      return;
    }
    if (who.role !== "student") {
      this.problem.textContent = gettext("This is a teacher's key: this page takes a student's key.");
      this.problem.hidden = false;
      if (button) button.disabled = false;
      input.focus();
      return;
    }
    playerApi.key.keep(key);
    await this.load();
    this.onKey?.();
    this.element.querySelector("h2")?.focus();
  }

  forget() {
    forgetKey();
    this.owner = null;
    this.assignments = null;
    this.problem.hidden = true;
    this.status.textContent = "";
    this.render();
    this.onKey?.();
    this.element.querySelector("#api-key")?.focus();
  }

  async load() {
    this.status.textContent = gettext("Loading your assignments…");
    this.render();
    try {
      this.owner = await keyOwner();
      const classroom = this.owner.classroom.id;
      this.assignments = (await playerApi.get(`/classrooms/${classroom}/assignments/`, { key: apiKey() })).data;
      for (const assignment of this.assignments) keepAssignment(classroom, assignment);
      const count = this.assignments.length;
      this.status.textContent = format(ngettext("%(count)s assignment.", "%(count)s assignments.", count), { count });
    } catch (error) {
      this.status.textContent = "";
      if (error.code === "invalid_api_key") {
        // A revoked key is of no more use in this tab.
        forgetKey();
        this.owner = null;
        this.render();
      }
      showProblem(this.problem, error);
    }
    this.render();
  }

  item(assignment) {
    const titleId = `assignment-${assignment.id}`;
    const ruleset = this.rulesets.find((r) => r.id === assignment.ruleset);
    const progress = assignment.progress || { started: 0, finished: 0 };
    const games = assignment.games;
    const when = assignment.status === "scheduled"
      ? [gettext("Opens:"), " ", timeOf(assignment.opens_at), "; ", gettext("due:"), " ", timeOf(assignment.due_at)]
      : assignment.status === "closed"
        ? [gettext("Closed:"), " ", timeOf(assignment.due_at)]
        : [gettext("Due:"), " ", timeOf(assignment.due_at)];
    const meta = assignmentMeta(assignment.id);
    const here = Object.entries(meta?.played || {}).sort((a, b) => Number(a[0]) - Number(b[0]));
    const next = nextGame(assignment);
    const parts = [
      h("h3", { id: titleId }, assignment.title),
      h("p", {}, format(ngettext("%(ruleset)s, %(count)s game.", "%(ruleset)s, %(count)s games.", games),
        { ruleset: ruleset?.name ?? assignment.ruleset, count: games }), " ", when),
      h("p", { class: "progress" },
        h("progress", { value: progress.finished, max: games, "aria-hidden": "true" }),
        " ",
        progress.started > progress.finished
          ? format(gettext("%(finished)s of %(games)s finished, %(open)s not finished yet."),
            { finished: progress.finished, games, open: progress.started - progress.finished })
          : format(gettext("%(finished)s of %(games)s finished."), { finished: progress.finished, games })),
    ];
    if (here.length) {
      parts.push(h("p", {}, gettext("Your games in this browser:"), " ", here.map(([k, id], index) => [
        index ? ", " : "",
        h("a", {
          href: `/play/${id}/`, "data-internal": true,
          "aria-label": format(gettext("Game %(number)s of %(title)s"), { number: Number(k), title: assignment.title }),
        }, format(gettext("Game %(number)s"), { number: Number(k) })),
      ])));
    }
    if (next) {
      parts.push(h("button", {
        type: "button", class: "primary", "data-key": `start-${assignment.id}`,
        // The visible words first in the name, then which assignment it is.
        "aria-label": format(gettext("Start game %(number)s of %(games)s, %(title)s"), { number: next, games, title: assignment.title }),
        onclick: (event) => this.start(assignment, event.currentTarget),
      }, format(gettext("Start game %(number)s of %(games)s"), { number: next, games })));
    } else if (assignment.status === "open" && progress.finished >= games) {
      parts.push(h("p", {}, gettext("Every game is played.")));
    }
    return h("article", { class: "assignment", "aria-labelledby": titleId }, parts);
  }

  async start(assignment, button) {
    this.problem.hidden = true;
    button.disabled = true;
    try {
      const game = await startAssignmentGame(this.owner.classroom.id, assignment);
      this.navigate(`/play/${game.id}/`);
    } catch (error) {
      showProblem(this.problem, error);
      button.disabled = false;
      if (error.code === "assignment_not_open" || error.code === "assignment_complete") this.load();
    }
  }
}
