// The classroom paths of the public API, called as any other frontend calls them, with the
// teacher key in the X-API-Key header. The key is kept in this tab's session storage only:
// never in an address, a cookie or a log.

const BASE = "/api/v1";
const KEY_NAME = "dice-games:teacher-key";

/** A refused request: the service's problem document, or a network failure. */
export class Refusal extends Error {
  constructor(status, body) {
    super(readable(status, body));
    this.status = status;
    this.code = body?.code ?? (status ? "error" : "network");
    // [{field, code, detail}], for the form that sent the request to show by its fields.
    this.errors = Array.isArray(body?.errors) ? body.errors : [];
  }
}

const WORDS = {
  network: "The service cannot be reached. Check the connection and try again.",
  throttled: "Too many requests: wait a moment and try again.",
  invalid_api_key: "This key is not valid: it is wrong, or it has been revoked.",
  not_authenticated: "Enter your teacher key first.",
  forbidden: "This key may not do this: only the classroom's teacher key may.",
};

/** A sentence: a capital letter first and a full stop last. */
export function sentence(text) {
  const words = String(text).trim();
  return words.charAt(0).toUpperCase() + words.slice(1).replace(/([^.!?])$/, "$1.");
}

function readable(status, body) {
  if (!status) return WORDS.network;
  if (body?.code in WORDS) return WORDS[body.code];
  return sentence(body?.detail || body?.title || `The service answered ${status}`);
}

/**
 * One request. JSON answers are decoded; with `accept` other than JSON the answer is a Blob.
 * Throws a Refusal for any error answer.
 */
export async function request(method, path, { key, body, accept = "application/json" } = {}) {
  const headers = { Accept: accept };
  if (key) headers["X-API-Key"] = key;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(BASE + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
      credentials: "omit",
    });
  } catch {
    throw new Refusal(0, null);
  }
  if (!response.ok) {
    throw new Refusal(response.status, await response.json().catch(() => null));
  }
  if (accept !== "application/json") return response.blob();
  return response.status === 204 ? null : response.json();
}

/** The teacher key this tab holds, if any. */
let inMemory = null; // when the browser refuses session storage (some private modes)

export function storedKey() {
  try {
    return sessionStorage.getItem(KEY_NAME) || inMemory;
  } catch {
    return inMemory;
  }
}

export function keepKey(key) {
  inMemory = key;
  try {
    sessionStorage.setItem(KEY_NAME, key);
  } catch {
    // The key then lasts as long as the page.
  }
}

export function forgetKey() {
  inMemory = null;
  try {
    sessionStorage.removeItem(KEY_NAME);
  } catch {
    // Nothing was kept there.
  }
}
