// The words for a ruleset's house rules and the computer's levels, for /play/ and /teach/:
// the service names an option by its id (its description comes translated); the page gives
// it a label in the reader's language.

import { gettext, gettext_noop, pgettext } from "./i18n.js";
import { humanize } from "./text.js";

const OPTION_LABELS = {
  yahtzee_bonus: gettext_noop("Yahtzee bonus"),
  joker: gettext_noop("Joker rule"),
  target: gettext_noop("Target score"),
  bank_minimum: gettext_noop("Least score to bank"),
  final_round: gettext_noop("Final round for the others"),
};

/** An option's label; an option added later than these words shows its id readably. */
export function optionLabel(id) {
  return id in OPTION_LABELS ? gettext(OPTION_LABELS[id]) : humanize(id);
}

/** One of an option's values, as a choice in a menu. */
export function optionValue(value) {
  switch (value) {
    case "unlimited": return pgettext("house rule", "unlimited");
    case "single": return pgettext("house rule", "the first one only");
    case "none": return pgettext("house rule", "none");
    case "forced": return pgettext("house rule", "forced (official)");
    case "free": return pgettext("house rule", "free");
    case true: return gettext("yes");
    case false: return gettext("no");
    default: return String(value);
  }
}

/** The computer's levels, weakest first. */
export function computerName(level) {
  switch (level) {
    case "random": return pgettext("computer level", "random");
    case "greedy": return pgettext("computer level", "greedy");
    case "optimal": return pgettext("computer level", "optimal");
    case "classic": return pgettext("computer level", "classic");
    default: return String(level);
  }
}
