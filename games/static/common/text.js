// Words as the pages write them, for /play/ and /teach/ alike.

/** A sentence: a capital letter first and a full stop last. */
export function sentence(text) {
  const words = String(text).trim();
  return words.charAt(0).toUpperCase() + words.slice(1).replace(/([^.!?])$/, "$1.");
}

/** "Ann, Bob and Cy". */
export function list(words) {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/** An option's id as a label: "bank_minimum" -> "Bank minimum". */
export function humanize(id) {
  const words = id.replaceAll("_", " ").replaceAll("-", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
