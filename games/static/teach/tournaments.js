// The classroom's tournaments: set one from the classroom's bots and the computers, list
// them, and follow the one chosen live (../common/arena_view.js).

import { teacherApi } from "../common/api.js";
import { formatOf, listOf, tournamentStatus } from "../common/arena.js";
import { TournamentForm } from "../common/arena_form.js";
import { TournamentView } from "../common/arena_view.js";
import { alertBox, h, replace, showProblem } from "../common/dom.js";
import { format, gettext, ngettext } from "../common/i18n.js";
import { when } from "./forms.js";
import { Poller } from "./poll.js";

const LIST_MS = 15_000;

export class TournamentsSection {
  constructor({ key, classroomId, rulesets }) {
    this.key = key;
    this.classroomId = classroomId;
    this.rulesets = rulesets;
    this.tournaments = null;
    this.selected = null;
    this.shown = null;
    this.form = new TournamentForm({
      rulesets,
      bots: [],
      send: (body) => teacherApi.request("POST", this.path(), { key, body }),
      onSet: (tournament) => {
        this.tournaments = [tournament, ...(this.tournaments ?? []).filter((t) => t.id !== tournament.id)];
        this.select(tournament);
      },
    });
    this.poller = new Poller(() => this.load(), LIST_MS);
  }

  path(rest = "") {
    return `/classrooms/${this.classroomId}/tournaments/${rest}`;
  }

  elements() {
    this.problem = alertBox();
    this.list = h("div", {}, h("p", {}, gettext("Loading the tournaments…")));
    this.followed = h("section", { class: "card", "aria-labelledby": "tournament-title", hidden: true });
    this.view = null;
    return h("div", { id: "tournaments" },
      this.form.element(),
      h("section", { class: "card", "aria-labelledby": "tournaments-title" },
        h("h2", { id: "tournaments-title" }, gettext("Tournaments")),
        this.problem,
        this.list),
      this.followed);
  }

  start() {
    this.poller.start();
  }

  stop() {
    this.poller.stop();
    this.view?.stop();
  }

  async load() {
    const [bots, tournaments] = await Promise.allSettled([
      teacherApi.request("GET", "/bots/", { key: this.key }).then(listOf),
      teacherApi.request("GET", this.path(), { key: this.key }).then(listOf),
    ]);
    const refused = [bots, tournaments].find((answer) => answer.status === "rejected")?.reason;
    if (refused) {
      if (this.problem.hidden || this.problem.textContent !== refused.message) showProblem(this.problem, refused);
    } else {
      this.problem.hidden = true;
    }
    if (bots.status === "fulfilled" && JSON.stringify(bots.value) !== JSON.stringify(this.form.bots)) {
      this.form.setBots(bots.value);
    }
    if (tournaments.status === "fulfilled") {
      this.tournaments = tournaments.value;
      this.drawList();
    }
    return ![401, 403].includes(refused?.status);
  }

  drawList() {
    const shown = JSON.stringify([this.tournaments, this.selected?.id]);
    if (shown === this.shown) return;
    this.shown = shown;
    if (!this.tournaments.length) {
      replace(this.list, h("p", {}, gettext("No tournament yet: set one above.")));
      return;
    }
    replace(this.list, [
      h("p", { class: "help" }, gettext("Newest first. Choose one to follow it live.")),
      h("ul", { class: "tournament-list", "aria-labelledby": "tournaments-title" },
        this.tournaments.map((t) => {
          const ruleset = this.rulesets.find((r) => r.id === t.ruleset);
          return h("li", {}, h("button", {
            type: "button", class: "assignment", "aria-pressed": t.id === this.selected?.id ? "true" : "false",
            "data-key": `tournament-${t.id}`, onclick: () => this.select(t),
          },
          h("span", { class: "title" }, t.title),
          h("span", { class: "meta" }, [
            ruleset?.name ?? t.ruleset, formatOf(t), tournamentStatus(t.status),
            t.scrimmage ? gettext("scrimmage") : null,
            format(ngettext("%(finished)s of %(count)s game finished", "%(finished)s of %(count)s games finished",
              t.progress.games), { finished: t.progress.finished, count: t.progress.games }),
            format(gettext("starts %(when)s"), { when: when(t.starts_at) }),
          ].filter(Boolean).join(" · "))));
        })),
    ]);
  }

  select(tournament) {
    this.selected = tournament;
    this.drawList();
    this.view?.stop();
    this.view = new TournamentView(this.followed, {
      api: teacherApi,
      key: this.key,
      path: this.path(`${tournament.id}/`),
      rulesets: this.rulesets,
      onChange: (t) => {
        const index = this.tournaments?.findIndex((x) => x.id === t.id) ?? -1;
        if (index >= 0) this.tournaments[index] = t;
        this.drawList();
      },
    });
    this.view.follow();
  }
}
