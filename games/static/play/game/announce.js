// What a screen reader hears as the game goes on, in the page's one live region (#announcer,
// outside the parts drawn again and again, so that assistive technology keeps following
// it): each roll with its dice by their numbers, what every other player and the computer
// scored, scratched, banked or lost, whose turn it is, and at the end the winners and the
// totals. The log and the status line show the same on the screen.

import { format, gettext, list } from "../../common/i18n.js";
import { describe, faces, seatName } from "../words.js";

// The events told as they come (a roll is told by its own words, below).
const TOLD = new Set(["joined", "started", "scored", "scratched", "busted", "banked", "passed", "left", "abandoned"]);

export class Announcer {
  constructor(state) {
    this.state = state;
    this.region = document.getElementById("announcer");
    this.seen = null; // the last event told (null: nothing drawn yet)
    this.ended = false;
    this.status = null;
  }

  /** After each drawing: what happened since the last one, then the status line. */
  update(statusLine) {
    if (!this.region) return;
    const state = this.state;
    const lines = [];
    if (this.seen === null) {
      // The first drawing: the game as it stands, not its whole history.
      this.ended = state.over;
    } else {
      const table = {};
      for (const event of state.events) {
        const line = this.line(event, table);
        if (event.seq > this.seen && line) lines.push(line);
      }
    }
    this.seen = state.lastSeq;
    // The end is told once the log has it too (a move's answer may show the game over
    // before the last events arrive): its last moves, the winners, the totals.
    const finished = state.game.status === "finished";
    if (finished && !this.ended) {
      if (state.logEnded) {
        this.ended = true;
        lines.push(statusLine, this.totals());
      }
    } else if (lines.length || statusLine !== this.status) {
      lines.push(statusLine);
    }
    this.status = statusLine;
    if (lines.length) this.region.textContent = lines.join(" ");
  }

  /** One event in words, or null for one not told (a computer's rolls, dice held). */
  line(event, table) {
    const state = this.state;
    const game = state.game;
    const data = event.data || {};
    if (event.type === "rolled") {
      table.dice = data.dice;
      if (game.players[event.seat]?.computer) return null;
      // A box game's whole hand after the roll; in Ten Thousand the dice just thrown.
      const dice = state.tenThousand ? (data.thrown || []).map((i) => data.dice[i]) : data.dice;
      return format(gettext("%(name)s rolled %(dice)s."), { name: seatName(game, event.seat), dice: faces(dice) });
    }
    return TOLD.has(event.type) ? describe(event, game, state.ruleset, table) : null;
  }

  /** At the end, after the status line's winners: "Totals: Ann 230 and Bot 2 198." */
  totals() {
    const totals = list(this.state.game.players.map((p) => format(gettext("%(name)s %(total)s"), { name: p.name, total: p.total })));
    return format(gettext("Totals: %(totals)s."), { totals });
  }

  clear() {
    if (this.region) this.region.textContent = "";
  }
}
