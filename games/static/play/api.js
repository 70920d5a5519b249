// The public HTTP API, called exactly as any other frontend calls it.

const BASE = "/api/v1";

/** A refused request: the service's problem document, or a network failure. */
export class Problem extends Error {
  constructor(status, body) {
    super(readable(status, body));
    this.status = status;
    this.code = body?.code ?? (status ? "error" : "network");
  }
}

const WORDS = {
  network: "The service cannot be reached. Check the connection and try again.",
  not_your_turn: "It is not your turn.",
  throttled: "Too many requests: wait a moment and try again.",
  invalid_token: "This device holds no valid seat for this game.",
  not_authenticated: "This device holds no seat for this game.",
  game_full: "Every seat of this game is taken.",
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
 * Throws a Problem for any error answer.
 */
export async function call(method, path, { body, token, etag } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
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
  if (!response.ok) throw new Problem(response.status, data);
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
