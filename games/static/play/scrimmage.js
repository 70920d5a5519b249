// One scrimmage (a tournament of the student's classroom) on its own screen, followed live
// with the student's key: progress, standings, the chart, and each game to watch.

import { playerApi } from "../common/api.js";
import { TournamentView } from "../common/arena_view.js";
import { alertBox, h, replace, showProblem } from "../common/dom.js";
import { format, gettext } from "../common/i18n.js";
import { keyOwner } from "./assignments.js";

export class ScrimmageScreen {
  constructor(main, rulesets, id) {
    this.main = main;
    this.rulesets = rulesets;
    this.id = id;
    this.view = null;
  }

  async show() {
    document.title = format(gettext("%(title)s · Dice games"), { title: gettext("Scrimmage") });
    const back = h("p", { class: "links" }, h("a", { href: "/play/", "data-internal": true }, gettext("My bots and new games")));
    let owner = null;
    try {
      owner = await keyOwner();
    } catch (error) {
      const box = alertBox();
      showProblem(box, error);
      replace(this.main, [h("h1", { tabindex: "-1" }, gettext("The scrimmage cannot be shown")), box, back]);
      return;
    }
    if (!owner) {
      replace(this.main, [
        h("h1", { tabindex: "-1" }, gettext("Scrimmage")),
        h("p", {}, gettext("Enter your student API key on the start page first: a scrimmage is seen by its classroom only.")),
        back,
      ]);
      this.main.querySelector("h1").focus();
      return;
    }
    const section = h("section", { "aria-labelledby": "tournament-title" });
    replace(this.main, [section, back]);
    this.view = new TournamentView(section, {
      api: playerApi,
      key: playerApi.key.held(),
      path: `/classrooms/${owner.classroom.id}/tournaments/${this.id}/`,
      rulesets: this.rulesets,
      headingLevel: "h1",
      onChange: (t) => { document.title = format(gettext("%(title)s · Dice games"), { title: t.title }); },
    });
    this.view.follow();
  }

  stop() {
    this.view?.stop();
  }
}
