// What the game screen knows: the game as last answered, its log, the seats this browser
// holds, and the choices made on the screen (dice chosen, a hint, an analysis).

import { playerApi } from "../../common/api.js";
import { assignmentMeta } from "../assignments.js";
import { seatsOf } from "../seats.js";
import { seatName } from "../words.js";

const ENDS = new Set(["finished", "abandoned"]);

export class GameState {
  constructor(id, rulesets) {
    this.id = id;
    this.rulesets = rulesets;
    this.ruleset = null;
    this.game = null;
    this.etag = null;
    this.events = [];
    this.selected = null; // positions chosen on this screen: held dice, or dice to set aside
    this.selectedFor = null; // the game version the selection belongs to
    this.selectionValue = null; // what the dice chosen to set aside score
    this.hint = null;
    this.busy = false; // a move is under way
    this.analysis = null;
    this.analysisNote = null;
    this.assignment = null; // what this browser knows of the game's assignment
    this.assignmentNow = null; // the assignment as the service answered it, with progress
    this.joinName = null; // the name typed to join, kept across drawings
    this.stopped = false; // the screen was left: nothing more is asked or drawn
  }

  /** The first answer: the game, its ruleset, and what this browser kept of its assignment. */
  start(game, etag) {
    this.game = game;
    this.etag = etag;
    this.ruleset = this.rulesets.find((r) => r.id === game.ruleset);
    if (game.assignment) this.assignment = assignmentMeta(game.assignment);
  }

  /** A newer answer of the game; an older one (answers may cross) changes nothing. */
  take(game, etag) {
    if (this.game && game.version < this.game.version) return;
    if (!this.game || game.version !== this.game.version) this.hint = null;
    this.game = game;
    this.etag = etag ?? `"${game.version}"`;
  }

  get lastSeq() {
    return this.events.at(-1)?.seq ?? 0;
  }

  /** Add the events not in the log yet; answers how many were new. */
  receive(events) {
    const fresh = events.filter((event) => event.seq > this.lastSeq);
    this.events.push(...fresh);
    return fresh.length;
  }

  /** Whether the log has the game's last event. */
  get logEnded() {
    return this.events.some((event) => ENDS.has(event.type));
  }

  get seats() {
    return seatsOf(this.id);
  }

  /**
   * How this browser reads the game: with a seat's token when it holds one, else with the
   * student's key in this tab. A public game needs neither; a game of an assignment is
   * private to its student until its deadline.
   */
  get reader() {
    const token = Object.values(this.seats)[0];
    if (token) return { token };
    const key = playerApi.key.held();
    if (key && (!this.game || this.game.assignment || this.game.tournament)) return { key };
    return {};
  }

  /** The token of the seat to move now, if this browser holds it. */
  get myToken() {
    const game = this.game;
    if (game.status !== "active" || game.current_seat === null) return null;
    return this.seats[game.current_seat] ?? null;
  }

  /** Whether this browser may move now (its seat's turn, no move under way). */
  get mine() {
    return Boolean(this.myToken) && !this.busy;
  }

  get over() {
    return ENDS.has(this.game.status);
  }

  get tenThousand() {
    return this.ruleset.id === "ten-thousand";
  }

  get current() {
    return this.game.status === "active" ? this.game.current_seat : null;
  }

  name(seat) {
    return seatName(this.game, seat);
  }

  /** The dice positions chosen on this screen, reset whenever the game changes. */
  get selection() {
    if (this.selectedFor !== this.game.version) {
      this.selectedFor = this.game.version;
      this.selected = this.tenThousand ? [] : this.game.turn.held
        ?.map((held, index) => (held ? index : -1)).filter((index) => index >= 0) ?? [];
      this.selectionValue = null;
    }
    return this.selected;
  }

  /** Choose the die at `index`, or leave it if chosen. */
  toggle(index) {
    const chosen = this.selection;
    const at = chosen.indexOf(index);
    if (at >= 0) chosen.splice(at, 1);
    else chosen.push(index);
    chosen.sort((a, b) => a - b);
  }
}
