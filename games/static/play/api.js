// The public HTTP API, called exactly as any other frontend calls it.

const BASE = "/api/v1";

/** A refused request: the service's problem document, or a network failure. */
export class Problem extends Error {
  constructor(status, body) {
    super(readable(status, body));
    this.status = status;
    this.code = body?.code ?? (status ? "error" : "network");
    this.retryAfter = null; // seconds, from a 503 or 429 answer's Retry-After
  }
}

const WORDS = {
  network: "The service cannot be reached. Check the connection and try again.",
  not_your_turn: "It is not your turn.",
  throttled: "Too many requests: wait a moment and try again.",
  invalid_token: "This device holds no valid seat for this game.",
  not_authenticated: "This device holds no seat for this game.",
  game_full: "Every seat of this game is taken.",
  invalid_api_key: "This API key is not valid, or it was revoked: ask your teacher for yours.",
  assignment_not_open: "This assignment is not open now.",
  assignment_complete: "Every game of this assignment is started already.",
  strategy_unavailable: "The analysis is being prepared: try again in a moment.",
};

function readable(status, body) {
  if (!status) return WORDS.network;
  if (body?.code in WORDS) return WORDS[body.code];
  const field = body?.errors?.[0];
  let text = field ? `${field.field}: ${field.detail}` : body?.detail || body?.title;
  text = text || `The service answered ${status}.`;
  return text.charAt(0).toUpperCase() + text.slice(1).replace(/([^.!?])$/, "$1.");
}

/**
 * One JSON request. Answers {status, data, etag}; a 304 answers data null.
 * `token` is a seat token, `key` a classroom API key (sent in X-API-Key, never in the address).
 * Throws a Problem for any error answer.
 */
export async function call(method, path, { body, token, key, etag } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (key) headers["X-API-Key"] = key;
  if (etag) headers["If-None-Match"] = etag;
  let response;
  try {
    response = await fetch(BASE + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch {
    throw new Problem(0, null);
  }
  const etagOut = response.headers.get("ETag");
  if (response.status === 304 || response.status === 204) {
    return { status: response.status, data: null, etag: etagOut };
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const problem = new Problem(response.status, data);
    const wait = Number(response.headers.get("Retry-After"));
    if (Number.isFinite(wait) && wait > 0) problem.retryAfter = wait;
    throw problem;
  }
  return { status: response.status, data, etag: etagOut };
}

export const get = (path, options) => call("GET", path, options);
export const post = (path, body, options = {}) => call("POST", path, { ...options, body });

/** The seat tokens this browser holds, per game: kept so that a reload goes on playing. */
const seatsKey = (gameId) => `dice-games:seats:${gameId}`;

export function heldSeats(gameId) {
  try {
    const stored = JSON.parse(localStorage.getItem(seatsKey(gameId)) || "{}");
    return stored && typeof stored === "object" ? stored : {};
  } catch {
    return {};
  }
}

export function keepSeat(gameId, seat, token) {
  const seats = heldSeats(gameId);
  seats[seat] = token;
  try {
    localStorage.setItem(seatsKey(gameId), JSON.stringify(seats));
  } catch {
    // Private browsing may refuse storage: the seat then lasts until the page closes.
  }
  memory.set(gameId, seats);
}

const memory = new Map();

export function seatsOf(gameId) {
  return { ...(memory.get(gameId) || {}), ...heldSeats(gameId) };
}

/**
 * A student's API key, for this tab only: sessionStorage forgets it when the tab closes, and
 * it never goes into the address, the local storage or a log.
 */
const KEY_NAME = "dice-games:student-key";
let keyInMemory = null;

export function apiKey() {
  try {
    return sessionStorage.getItem(KEY_NAME) || keyInMemory;
  } catch {
    return keyInMemory;
  }
}

export function keepApiKey(key) {
  keyInMemory = key || null;
  try {
    if (key) sessionStorage.setItem(KEY_NAME, key);
    else sessionStorage.removeItem(KEY_NAME);
  } catch {
    // Storage refused: the key then lasts until the page closes.
  }
}
