// The first screen: open a new classroom, or come back to one with its teacher key.

import { h, replace } from "../common/dom.js";
import { gettext } from "../common/i18n.js";
import { clearErrors, field, showErrors } from "./forms.js";

export class SignInScreen {
  /**
   * `open(name)` opens a classroom, `enter(key)` checks a key and goes on with it; both
   * throw a Problem (common/api.js) when refused. `message`: why this screen is shown, if
   * not first.
   */
  constructor(main, { open, enter, message = null }) {
    this.main = main;
    this.open = open;
    this.enter = enter;
    this.message = message;
  }

  show() {
    document.title = gettext("Teaching · Dice games");
    const notice = h("p", { class: "problem", role: "alert", hidden: !this.message }, this.message ?? "");
    this.openForm = h(
      "form",
      { class: "card", novalidate: true, "aria-labelledby": "open-title", onsubmit: (event) => this.submitOpen(event) },
      h("h2", { id: "open-title" }, gettext("Open a new classroom")),
      field("classroom-name", gettext("Classroom name"), h("input", {
        id: "classroom-name", name: "name", maxlength: 80, autocomplete: "off", required: true,
      }), gettext("For example “5B”. You get a join code for your students and a teacher key for you.")),
      h("button", { type: "submit", class: "primary" }, gettext("Open the classroom")),
    );
    this.keyForm = h(
      "form",
      { class: "card", novalidate: true, "aria-labelledby": "key-form-title", onsubmit: (event) => this.submitKey(event) },
      h("h2", { id: "key-form-title" }, gettext("Come back to a classroom")),
      field("teacher-key", gettext("Teacher key"), h("input", {
        id: "teacher-key", name: "key", type: "password", autocomplete: "off", spellcheck: "false",
        required: true,
      }), gettext("The key shown when the classroom was opened. This tab keeps it until it is closed; it is sent only to this service.")),
      h("button", { type: "submit" }, gettext("Continue with the key")),
    );
    replace(this.main, [
      h("h1", { tabindex: "-1" }, gettext("Teaching")),
      h("p", { class: "description" }, gettext("Open a classroom for your class, hand out its join code, set assignments and follow your students' results as they play.")),
      notice,
      this.openForm,
      this.keyForm,
    ]);
    (this.message ? this.keyForm.querySelector("input") : this.main.querySelector("h1")).focus();
  }

  async submitOpen(event) {
    event.preventDefault();
    const input = this.openForm.querySelector("#classroom-name");
    await this.attempt(event, this.openForm, input.value.trim(), gettext("Enter the classroom's name"),
      (name) => this.open(name), { name: "classroom-name" });
  }

  async submitKey(event) {
    event.preventDefault();
    const input = this.keyForm.querySelector("#teacher-key");
    await this.attempt(event, this.keyForm, input.value.trim(), gettext("Enter your teacher key"),
      (key) => this.enter(key), { body: "teacher-key" });
  }

  /** Send one form's value; a refusal is shown by the form's one field. */
  async attempt(event, form, value, empty, action, controls) {
    clearErrors(form);
    const id = form.querySelector("input").id;
    const controlOf = (name) => controls[name] ?? id;
    if (!value) {
      showErrors(form, [{ field: id, detail: empty }], () => id).first?.focus();
      return;
    }
    const button = event.submitter;
    if (button) button.disabled = true;
    try {
      await action(value);
    } catch (error) {
      const errors = error.errors?.length ? error.errors : [{ field: id, detail: error.message }];
      showErrors(form, errors, controlOf).first?.focus();
      if (button?.isConnected) button.disabled = false;
    }
  }
}
