// The pages' words in the reader's language: every text a person sees or hears goes through
// gettext() (or ngettext() for a count, pgettext() where one English word has two senses).
// The translations come from Django's JavaScript catalogue (the djangojs domain,
// locale/<language>/LC_MESSAGES/djangojs.po), loaded by the page before its modules as a
// classic script that defines `django`; the page's <html lang> names the language.
//
//   gettext("Roll the dice")
//   format(gettext("Roll again (%(left)s left)"), { left: turn.rolls_left })
//   format(ngettext("%(count)s game", "%(count)s games", n), { count: n })
//
// Numbers put into a text by format() are written the language's way (Intl); so are
// dates (dateTime()). `make messages` gathers the marked strings into the catalogues
// (docs/translating.md).

const catalogue = globalThis.django ?? null;

/** The page's language, as the service chose it (the language menu, else the browser's). */
export const language = document.documentElement.lang || "en";

export function gettext(text) {
  return catalogue ? catalogue.gettext(text) : text;
}

export function ngettext(singular, plural, count) {
  if (catalogue) return catalogue.ngettext(singular, plural, count);
  return count === 1 ? singular : plural;
}

/** A word whose translation depends on where it is used: pgettext("die", "Roll"). */
export function pgettext(context, text) {
  return catalogue ? catalogue.pgettext(context, text) : text;
}

/** A text marked for translation where it is written, translated where it is shown. */
export function gettext_noop(text) {
  return text;
}

const numbers = new Map();

/** A number as the language writes it: at most `digits` decimals (exactly, with `fixed`). */
export function formatNumber(value, digits = 2, { fixed = false, grouping = true } = {}) {
  if (typeof value !== "number" || !Number.isFinite(value)) return "–";
  const key = `${digits}:${fixed}:${grouping}`;
  if (!numbers.has(key)) {
    numbers.set(key, new Intl.NumberFormat(language, {
      maximumFractionDigits: digits,
      minimumFractionDigits: fixed ? digits : 0,
      useGrouping: grouping,
    }));
  }
  return numbers.get(key).format(value);
}

/** A percentage (`value` out of 100) as the language writes it: "87.5%", "87,5 %". */
export function formatPercent(value, digits = 2) {
  if (typeof value !== "number" || !Number.isFinite(value)) return "–";
  return new Intl.NumberFormat(language, { style: "percent", maximumFractionDigits: digits }).format(value / 100);
}

/** A moment in the page's language (and the browser's time zone). */
export function dateTime(value, options) {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return new Intl.DateTimeFormat(language, options).format(date);
}

/**
 * Put values into a translated text: each %(name)s is replaced by values[name]; a number is
 * written the language's way (whole numbers as they are: dice, points, counts).
 */
export function format(text, values = {}) {
  return text.replace(/%\((\w+)\)s/g, (whole, name) => {
    if (!(name in values)) return whole;
    const value = values[name];
    return typeof value === "number" ? formatNumber(value, 2) : String(value ?? "");
  });
}

/** "Ann, Bob and Cy", in the page's language. */
export function list(words) {
  if (typeof Intl.ListFormat === "function") {
    return new Intl.ListFormat(language, { style: "long", type: "conjunction" }).format(words.map(String));
  }
  return words.join(", ");
}

/** The language menu of the page's header: a choice is kept (Django's language cookie, for a
 * year) and the page is drawn again in it. */
export function bindLanguageMenu() {
  const menu = document.getElementById("language");
  if (!menu) return;
  menu.addEventListener("change", () => {
    const cookie = menu.dataset.cookie || "django_language";
    const year = 365 * 24 * 3600;
    document.cookie = `${cookie}=${encodeURIComponent(menu.value)}; path=/; max-age=${year}; SameSite=Lax`;
    window.location.reload();
  });
}
