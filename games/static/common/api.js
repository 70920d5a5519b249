// The public HTTP API, called exactly as any other frontend calls it: one client for /play/
// and /teach/. Each page speaks to its own people (a player, a teacher), so each has its
// own words for a refusal and its own API key, kept in the tab's session storage only.

import { format, gettext, gettext_noop, language } from "./i18n.js";
import { sentence } from "./text.js";

const BASE = "/api/v1";
const JSON_TYPE = "application/json";

// Each page's own sentences for some refusal codes (marked here, translated when shown); the
// service's problem documents come back in the page's language (Accept-Language).
const COMMON_WORDS = {
  network: gettext_noop("The service cannot be reached. Check the connection and try again."),
  throttled: gettext_noop("Too many requests: wait a moment and try again."),
};

/** Django's CSRF token, from its cookie: set for a browser signed in by a course launch. */
function csrfToken() {
  const found = document.cookie.split("; ").find((part) => part.startsWith("csrftoken="));
  return found ? decodeURIComponent(found.slice("csrftoken=".length)) : null;
}

/** A refused request: the service's problem document, or a network failure. */
export class Problem extends Error {
  constructor(status, body, { words = COMMON_WORDS, fieldFirst = false, fields = {} } = {}) {
    super(readable(status, body, words, fieldFirst, fields));
    this.status = status;
    this.code = body?.code ?? (status ? "error" : "network");
    // [{field, code, detail}], for a form to show by its fields.
    this.errors = Array.isArray(body?.errors) ? body.errors : [];
    this.retryAfter = null; // seconds, from a 503 or 429 answer's Retry-After
  }
}

function readable(status, body, words, fieldFirst, fields) {
  if (!status) return gettext(words.network);
  if (body?.code in words) return gettext(words[body.code]);
  const field = fieldFirst ? body?.errors?.[0] : null;
  const name = field ? (fields[field.field.split(".")[0]] ?? null) : null;
  const text = !field ? body?.detail || body?.title
    : name ? format(gettext("%(field)s: %(error)s"), { field: gettext(name), error: field.detail }) : field.detail;
  return sentence(text || format(gettext("The service answered %(status)s"), { status }));
}

/**
 * An API key for this tab only: sessionStorage forgets it when the tab closes, and it never
 * goes into an address, the local storage, a cookie or a log.
 */
export class TabKey {
  constructor(name) {
    this.name = name;
    this.inMemory = null; // when the browser refuses session storage (some private modes)
  }

  held() {
    try {
      return sessionStorage.getItem(this.name) || this.inMemory;
    } catch {
      return this.inMemory;
    }
  }

  /** Keep `key`, or forget the one kept when `key` is empty. */
  keep(key) {
    this.inMemory = key || null;
    try {
      if (key) sessionStorage.setItem(this.name, key);
      else sessionStorage.removeItem(this.name);
    } catch {
      // Storage refused: the key then lasts until the page closes.
    }
  }

  forget() {
    this.keep(null);
  }
}

/**
 * A client of the API for one page.
 * `words`: the page's own sentences for some refusal codes; `fieldFirst`: a refusal with
 * field errors reads as its first one; `keyName`: where the tab keeps the page's API key;
 * `credentials`: fetch's, for every request.
 */
export class Api {
  constructor({ words = {}, fieldFirst = false, fields = {}, keyName, credentials = "same-origin" }) {
    this.words = { ...COMMON_WORDS, ...words };
    this.fields = fields;
    this.fieldFirst = fieldFirst;
    this.key = new TabKey(keyName);
    this.credentials = credentials;
  }

  /**
   * One request. Answers {status, data, etag}; a 304 or 204 answers data null; with an
   * `accept` other than JSON, data is a Blob. `token` is a seat token, `key` an API key (sent
   * in X-API-Key, never in the address). Throws a Problem for any error answer.
   */
  async call(method, path, { body, token, key, etag, accept = JSON_TYPE } = {}) {
    // The problem documents come back in the page's language.
    const headers = { Accept: accept, "Accept-Language": language };
    if (body !== undefined) headers["Content-Type"] = JSON_TYPE;
    if (token) headers.Authorization = `Bearer ${token}`;
    if (key) headers["X-API-Key"] = key;
    if (etag) headers["If-None-Match"] = etag;
    // A browser signed in by a course launch calls with its session: a change carries
    // Django's CSRF token (from its cookie), as the API asks of a session.
    const csrf = method === "GET" || method === "HEAD" ? null : csrfToken();
    if (csrf && this.credentials !== "omit") headers["X-CSRFToken"] = csrf;
    let response;
    try {
      response = await fetch(BASE + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: "no-store",
        credentials: this.credentials,
      });
    } catch {
      throw this.problem(0, null);
    }
    const etagOut = response.headers.get("ETag");
    if (response.status === 304 || response.status === 204) {
      return { status: response.status, data: null, etag: etagOut };
    }
    if (!response.ok) {
      const problem = this.problem(response.status, await response.json().catch(() => null));
      const wait = Number(response.headers.get("Retry-After"));
      if (Number.isFinite(wait) && wait > 0) problem.retryAfter = wait;
      throw problem;
    }
    const data = accept === JSON_TYPE ? await response.json().catch(() => null) : await response.blob();
    return { status: response.status, data, etag: etagOut };
  }

  get(path, options) {
    return this.call("GET", path, options);
  }

  post(path, body, options = {}) {
    return this.call("POST", path, { ...options, body });
  }

  /** One request, answering its body only (null for 204). */
  async request(method, path, options) {
    return (await this.call(method, path, options)).data;
  }

  /** A refusal in this page's words. */
  problem(status, body) {
    return new Problem(status, body, { words: this.words, fieldFirst: this.fieldFirst, fields: this.fields });
  }
}

/** /play/'s client: players, and students with the key their teacher gave them. */
export const playerApi = new Api({
  keyName: "dice-games:student-key",
  fieldFirst: true,
  // The fields of a refused request by the words of the form that sent them.
  fields: {
    seed: gettext_noop("Seed"),
    open_seats: gettext_noop("Seats left open for others"),
    players: gettext_noop("Players"),
    options: gettext_noop("House rules"),
    name: gettext_noop("Name"),
  },
  words: {
    not_your_turn: gettext_noop("It is not your turn."),
    invalid_token: gettext_noop("This device holds no valid seat for this game."),
    not_authenticated: gettext_noop("This device holds no seat for this game."),
    game_full: gettext_noop("Every seat of this game is taken."),
    invalid_api_key: gettext_noop("This API key is not valid, or it was revoked: ask your teacher for yours."),
    assignment_not_open: gettext_noop("This assignment is not open now."),
    assignment_complete: gettext_noop("Every game of this assignment is started already."),
    strategy_unavailable: gettext_noop("The strategy for these rules is being prepared: try again in a minute."),
  },
});

/**
 * /teach/'s client: a classroom's teacher, with the teacher key, or with the session of a
 * course launch (its cookie; a key, where the tab holds one, is what the API goes by).
 */
export const teacherApi = new Api({
  keyName: "dice-games:teacher-key",
  credentials: "same-origin",
  words: {
    invalid_api_key: gettext_noop("This key is not valid: it is wrong, or it has been revoked."),
    not_authenticated: gettext_noop("Enter your teacher key first."),
    forbidden: gettext_noop("This key may not do this: only the classroom's teacher key may."),
  },
});
