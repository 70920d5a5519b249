// The key of a classroom just opened, shown this once, with a way to copy it.

import { h } from "../common/dom.js";
import { gettext } from "../common/i18n.js";
import { field } from "./forms.js";

/** The panel that shows `key`; `onKept` is called once the teacher says it is kept. */
export function newKeyPanel(key, onKept) {
  const note = h("p", { class: "copied", role: "status", "aria-live": "polite" });
  const output = h("textarea", {
    id: "new-teacher-key", readonly: true, rows: 3, class: "key-output",
    autocomplete: "off", spellcheck: "false",
  }, key);
  const panel = h(
    "section",
    { class: "card key-panel", "aria-labelledby": "key-title" },
    h("h2", { id: "key-title" }, gettext("Keep your teacher key")),
    h("p", {}, gettext("This key is shown only now: the service keeps only a digest of it. Keep it somewhere safe, such as a password manager; with it you can come back to this classroom from any browser. This tab keeps it until the tab is closed.")),
    field("new-teacher-key", gettext("Your teacher key"), output),
    h("div", { class: "row" },
      h("button", { type: "button", onclick: () => copyKey(output, note) }, gettext("Copy the key")),
      h("button", {
        type: "button",
        onclick: () => {
          panel.remove();
          onKept();
        },
      }, gettext("I have kept the key"))),
    note,
  );
  return panel;
}

async function copyKey(output, note) {
  try {
    await navigator.clipboard.writeText(output.value);
    note.textContent = gettext("The key was copied.");
  } catch {
    output.focus();
    output.select();
    note.textContent = gettext("The key is selected: copy it with your keyboard or menu.");
  }
}
