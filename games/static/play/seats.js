// The seat tokens this browser holds, per game: kept in localStorage so that a reload goes on
// playing (and in memory, when the browser refuses storage).

const seatsKey = (gameId) => `dice-games:seats:${gameId}`;
const memory = new Map();

function heldSeats(gameId) {
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

/** {seat: token} of every seat of the game this browser holds. */
export function seatsOf(gameId) {
  return { ...(memory.get(gameId) || {}), ...heldSeats(gameId) };
}
