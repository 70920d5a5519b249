// Form fields with their help and error text, and the words and dates the page shows.

import { h } from "../common/dom.js";
import { dateTime, formatNumber, formatPercent } from "../common/i18n.js";
import { sentence } from "../common/text.js";

/**
 * A labelled control with optional help text and a place for its error, both tied to the
 * control by aria-describedby: `field("title", "Title", h("input", {id: "title"}), "…")`.
 */
export function field(id, label, control, help = null, { check = false } = {}) {
  const helpId = `${id}-help`;
  const described = [help ? helpId : null, `${id}-error`].filter(Boolean).join(" ");
  control.setAttribute("aria-describedby", described);
  const labelElement = h("label", { for: id }, label);
  return h(
    "div",
    { class: check ? "field check" : "field" },
    check ? [control, labelElement] : [labelElement, control],
    help ? h("small", { id: helpId }, help) : null,
    errorText(id),
  );
}

/** Where the error of a field (or of a fieldset) is shown. */
export function errorText(id) {
  return h("p", { id: `${id}-error`, class: "field-error", hidden: true });
}

export function clearErrors(form) {
  for (const control of form.querySelectorAll("[aria-invalid]")) {
    control.removeAttribute("aria-invalid");
  }
  for (const error of form.querySelectorAll(".field-error")) {
    error.textContent = "";
    error.hidden = true;
  }
}

/**
 * Show each error next to the control `controlOf(field)` names (an element id); answers the
 * first control marked, and the errors that belong to no control.
 */
export function showErrors(form, errors, controlOf, words = {}) {
  let first = null;
  const unplaced = [];
  for (const error of errors) {
    const id = controlOf(error.field);
    const box = id && form.querySelector(`#${CSS.escape(id)}-error`);
    if (!box) {
      unplaced.push(error);
      continue;
    }
    const text = sentence(readableDetail(error.detail, words));
    box.textContent = box.hidden ? text : `${box.textContent} ${text}`;
    box.hidden = false;
    const control = form.querySelector(`#${CSS.escape(id)}`);
    if (control) {
      control.setAttribute("aria-invalid", "true");
      first ??= control;
    }
  }
  return { first, unplaced };
}

/** The API's field names in a message, in the words of the form: "due_at" -> "the due date". */
function readableDetail(detail, words) {
  let text = String(detail);
  for (const [name, word] of Object.entries(words)) text = text.replaceAll(name, word);
  return text;
}

export function when(iso) {
  return dateTime(iso, { dateStyle: "medium", timeStyle: "short" });
}

export function whenShort(iso) {
  return dateTime(iso, { dateStyle: "short" });
}

/** A Date as the value of an <input type="datetime-local">, in local time. */
export function localValue(date) {
  const two = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}` +
    `T${two(date.getHours())}:${two(date.getMinutes())}`;
}

/** The value of an <input type="datetime-local"> as ISO 8601 (UTC); null if not a time. */
export function isoFromLocal(value) {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** A number as the page's language writes it: at most `digits` decimals, no trailing zeros. */
export function number(value, digits = 2) {
  if (value === null || value === undefined) return null;
  return formatNumber(Number(value), digits);
}

/** A percentage as the page's language writes it ("87.5%", "87,5 %"). */
export function percent(value) {
  if (value === null || value === undefined) return null;
  return formatPercent(Number(value));
}
