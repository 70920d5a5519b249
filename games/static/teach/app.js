// The teacher's page: open a classroom or come back to one with its teacher key, hand out
// the join code, set assignments and follow their results live. It uses only the public
// API (/api/v1/...); the teacher key stays in this tab's session storage.

import { teacherApi } from "../common/api.js";
import { alertBox, h, replace, showProblem } from "../common/dom.js";
import { bindLanguageMenu, format, gettext } from "../common/i18n.js";
import { ClassroomScreen } from "./classroom.js";
import { SignInScreen } from "./signin.js";

const main = document.getElementById("main");

let rulesets = null; // from GET /api/v1/rulesets/, once
let screen = null;

async function loadRulesets() {
  if (!rulesets) rulesets = await teacherApi.request("GET", "/rulesets/");
  return rulesets;
}

function show(next) {
  screen?.stop?.();
  screen = next;
  screen.show();
}

/** The classroom of a teacher key; refuses a student's key. */
async function classroomOf(key) {
  const owner = await teacherApi.request("GET", "/me/", { key });
  if (owner.role !== "teacher") {
    throw teacherApi.problem(403, {
      code: "student_key",
      detail: format(gettext("This is the key of a student (%(name)s in %(classroom)s), not a teacher's: enter the teacher key shown when the classroom was opened."),
        { name: owner.student?.name ?? "?", classroom: owner.classroom.name }),
    });
  }
  return owner.classroom;
}

async function enter(key, { classroom = null, newKey = null } = {}) {
  const found = classroom ?? await classroomOf(key);
  await loadRulesets();
  teacherApi.key.keep(key);
  show(new ClassroomScreen(main, {
    key,
    classroom: found,
    rulesets,
    newKey,
    onLeave: () => {
      teacherApi.key.forget();
      signIn(gettext("The key was forgotten on this tab."));
    },
  }));
}

async function open(name) {
  const created = await teacherApi.request("POST", "/classrooms/", { body: { name } });
  await enter(created.teacher_key, {
    classroom: { id: created.id, name: created.name },
    newKey: created.teacher_key,
  });
}

function signIn(message = null) {
  show(new SignInScreen(main, { open, enter: (key) => enter(key), message }));
}

/** The classroom of this browser's session (a course launch from a learning platform). */
async function sessionClassroom() {
  if (!document.querySelector('meta[name="signed-in"]')) return null;
  try {
    const owner = await teacherApi.request("GET", "/me/");
    return owner.role === "teacher" ? owner.classroom : null;
  } catch {
    return null;
  }
}

async function start() {
  const key = teacherApi.key.held();
  if (!key) {
    const classroom = await sessionClassroom();
    if (classroom) {
      await loadRulesets();
      show(new ClassroomScreen(main, {
        key: null, classroom, rulesets, onLeave: () => signIn(),
      }));
      return;
    }
    signIn();
    return;
  }
  try {
    await enter(key);
  } catch (error) {
    if ([401, 403, 404].includes(error.status)) {
      teacherApi.key.forget();
      signIn(format(gettext("The key this tab held was refused: %(reason)s"), { reason: error.message }));
      return;
    }
    const box = alertBox();
    showProblem(box, error);
    replace(main, [
      h("h1", {}, gettext("Teaching")),
      box,
      h("button", { type: "button", onclick: () => start() }, gettext("Try again")),
    ]);
  }
}

bindLanguageMenu();
start();
