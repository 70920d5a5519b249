// Words as the pages write them, for /play/ and /teach/ alike.

export { list } from "./i18n.js";

/** A sentence: a capital letter first and a full stop last (a Chinese one keeps its own). */
export function sentence(text) {
  const words = String(text).trim();
  return words.charAt(0).toUpperCase() + words.slice(1).replace(/([^.!?。！？])$/, "$1.");
}

/** An option's id as a label, for an option the page has no words of its own for:
 * "bank_minimum" -> "Bank minimum". */
export function humanize(id) {
  const words = id.replaceAll("_", " ").replaceAll("-", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
