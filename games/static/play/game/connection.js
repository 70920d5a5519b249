// How the game screen hears of moves: a public game's event stream, or, for a game of an
// assignment or a tournament (private until it is over), asking for new events with the seat's token.

import { playerApi } from "../../common/api.js";

// How often a private game's new events are asked for (ms): while the tab shows, and not.
const POLL_EVERY = 1500;
const POLL_HIDDEN = 10000;
const STREAM_TYPES = [
  "created", "joined", "started", "rolled", "held", "scored", "scratched",
  "set_aside", "banked", "busted", "passed", "left", "finished", "abandoned",
];

export class GameConnection {
  /** `onEvents` is called whenever new events join the state's log. */
  constructor(state, onEvents) {
    this.state = state;
    this.onEvents = onEvents;
    this.source = null;
    this.polling = null;
    this.pollTimer = null;
    this.pollAgain = false;
  }

  /** Follow the game: the stream for a public game, polling for a private one. */
  start() {
    if (this.private) this.poll();
    else this.follow();
  }

  /** After a move: a private game's log is asked for at once. */
  moved() {
    if (this.private) this.poll();
  }

  /** A game of an assignment or of a tournament: seen by its classroom only, with a key. */
  get private() {
    return Boolean(this.state.game.assignment || this.state.game.tournament);
  }

  stop() {
    this.source?.close();
    this.source = null;
    clearTimeout(this.pollTimer);
  }

  /** Follow the game's log live; each event refreshes the game. */
  follow() {
    const source = new EventSource(`/api/v1/games/${this.state.id}/stream/`);
    this.source = source;
    const receive = (message) => {
      const event = JSON.parse(message.data);
      if (!this.state.receive([event])) return;
      if (event.type === "finished" || event.type === "abandoned") {
        source.close();
      }
      this.onEvents();
    };
    for (const type of STREAM_TYPES) source.addEventListener(type, receive);
  }

  /**
   * A private game's log: the stream cannot carry a token (EventSource sends no header),
   * so the new events are asked for with it, now and then, and at once after each move.
   */
  poll() {
    const state = this.state;
    clearTimeout(this.pollTimer);
    if (state.stopped) return;
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    this.polling = (async () => {
      do {
        this.pollAgain = false;
        const after = state.lastSeq;
        try {
          const answer = await playerApi.get(`/games/${state.id}/events/?after=${after}`, {
            ...state.reader, etag: after ? `"${after}"` : null,
          });
          if (state.receive(answer.data || [])) this.onEvents();
        } catch {
          // A missed look is made good by the next one.
        }
      } while (this.pollAgain && !state.stopped);
      this.polling = null;
      if (!state.logEnded && !state.stopped) {
        this.pollTimer = setTimeout(() => this.poll(), document.hidden ? POLL_HIDDEN : POLL_EVERY);
      }
    })();
  }
}
