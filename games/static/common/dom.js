// The pages' element builders and their few shared pieces, for /play/ and /teach/ alike.

import { format, gettext } from "./i18n.js";

/** A tiny element builder: h("button", {onclick, disabled: true}, gettext("Roll")). */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "class") element.className = value;
    else if (name === "value") element.value = value;
    else if (name === "checked") element.checked = Boolean(value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/**
 * Replace the children of `root`, keeping the focus on the element with the same data-key;
 * when that one is gone or disabled now, on the first enabled `fallback` key, if any.
 *
 * A child marked `data-steady` that the new drawing repeats exactly stays where it is, never
 * taken out of the page: a click already under way on it (a die pressed as another player's
 * move arrives) is not lost, and its live text is not said again. A steady part's handlers
 * must therefore read the state when clicked, not when drawn.
 */
export function replace(root, children, fallback = []) {
  const focused = document.activeElement?.dataset?.key;
  const before = [...root.childNodes];
  const fresh = [children].flat(Infinity).filter(Boolean)
    .map((child) => (child instanceof Node ? child : document.createTextNode(String(child))))
    .map((child, index) => {
      const old = before[index];
      const steady = old instanceof Element && old.hasAttribute("data-steady");
      return steady && old.isEqualNode(child) ? old : child;
    });
  const kept = new Set(fresh);
  for (const old of [...root.childNodes]) if (!kept.has(old)) old.remove();
  fresh.forEach((child, index) => {
    const at = root.childNodes[index];
    if (at !== child) root.insertBefore(child, at ?? null);
  });
  if (!focused) return;
  for (const key of [focused, ...fallback]) {
    const again = root.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again && !again.disabled) {
      again.focus();
      return;
    }
  }
}

export function alertBox() {
  return h("p", { class: "problem", role: "alert", hidden: true });
}

export function showProblem(box, error) {
  // A Problem (common/api.js) carries a readable message; anything else is a fault of this page.
  box.textContent = error?.status !== undefined
    ? error.message : format(gettext("Something went wrong: %(error)s"), { error });
  box.hidden = false;
}

// SVG's namespace, as the HTML parser gives it to an <svg> element (this page names no
// address of another host, not even a namespace's).
let svgNamespace = null;
function svgNs() {
  if (!svgNamespace) {
    const template = document.createElement("template");
    template.innerHTML = "<svg></svg>";
    svgNamespace = template.content.firstChild.namespaceURI;
  }
  return svgNamespace;
}

/** The same builder for SVG elements: every attribute is set as written. */
export function s(tag, attributes = {}, ...children) {
  const element = document.createElementNS(svgNs(), tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}
