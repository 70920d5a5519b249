// Who may join a classroom: the join code, joining open or closed, and a new code.

import { alertBox, h, showProblem } from "../common/dom.js";
import { format, gettext } from "../common/i18n.js";

export class JoiningPanel {
  /**
   * `request(method, rest, body)` sends one request about the classroom; `onClassroom` is
   * told of the classroom as a change of the joining answered it.
   */
  constructor({ request, onClassroom }) {
    this.request = request;
    this.onClassroom = onClassroom;
    this.classroom = null;
  }

  element() {
    this.code = h("p", { class: "join-code", id: "join-code" }, "…");
    this.text = h("p", { class: "help", id: "joining-text" });
    this.status = h("p", { class: "done", role: "status", "aria-live": "polite" });
    this.problem = alertBox();
    this.button = h("button", {
      type: "button", "data-key": "joining", onclick: (event) => this.switchJoining(event.currentTarget),
    }, gettext("Close joining"));
    return h("section", { class: "card", "aria-labelledby": "join-title" },
      h("h2", { id: "join-title" }, gettext("Join code")),
      this.code,
      h("p", { class: "help" }, gettext("Hand this code to your students: each joins with it and their name, and gets a key of their own for their games.")),
      this.text,
      h("div", { class: "row" },
        this.button,
        h("button", {
          type: "button", "data-key": "new-code", onclick: (event) => this.replaceCode(event.currentTarget),
        }, gettext("Replace the code"))),
      h("p", { class: "help" }, gettext("Closing joining keeps everyone who joined; replacing the code stops the old one at once (students who joined keep their keys).")),
      this.problem,
      this.status);
  }

  /** Show the joining of `classroom` (as the service answered it last). */
  draw(classroom = this.classroom) {
    this.classroom = classroom;
    const open = classroom.joining === "open";
    this.code.textContent = classroom.join_code;
    this.code.classList.toggle("closed", !open);
    this.text.textContent = open
      ? gettext("Joining is open: anyone with the code can join.")
      : gettext("Joining is closed: nobody can join with the code until you reopen it.");
    this.button.textContent = open ? gettext("Close joining") : gettext("Reopen joining");
  }

  async switchJoining(button) {
    const joining = this.classroom.joining === "open" ? "closed" : "open";
    await this.change(button, async () => {
      this.classroom = await this.request("PATCH", "", { joining });
      this.onClassroom(this.classroom);
      return joining === "open" ? gettext("Joining is open again.") : gettext("Joining is closed.");
    });
  }

  async replaceCode(button) {
    await this.change(button, async () => {
      const { join_code: code } = await this.request("POST", "join-code/", {});
      this.classroom = { ...this.classroom, join_code: code };
      return format(gettext("The new join code is %(code)s; the old one no longer works."), { code });
    });
  }

  /** One change of the joining: the button waits for it, the result is announced. */
  async change(button, send) {
    button.disabled = true;
    this.problem.hidden = true;
    this.status.textContent = "";
    try {
      this.status.textContent = await send();
      this.draw();
    } catch (error) {
      showProblem(this.problem, error);
    } finally {
      button.disabled = false;
      button.focus();
    }
  }
}
