// A student's bots, on the start screen once their key is in this tab: the bots they
// registered (and registering one), a scrimmage of their bots against the computers, and
// their scrimmages, each followed on its own screen (./scrimmage.js).

import { playerApi } from "../common/api.js";
import { formatOf, listOf, tournamentStatus } from "../common/arena.js";
import { TournamentForm } from "../common/arena_form.js";
import { alertBox, h, replace, showProblem } from "../common/dom.js";
import { format, gettext, list, ngettext } from "../common/i18n.js";
import { clearErrors, errorText, showErrors } from "../teach/forms.js";
import { keyOwner } from "./assignments.js";

const apiKey = () => playerApi.key.held();

export class BotsPanel {
  constructor(rulesets, navigate) {
    this.rulesets = rulesets;
    this.navigate = navigate;
    this.element = h("section", { class: "card bots", id: "bots", "aria-labelledby": "bots-title" });
    this.bots = null;
    this.scrimmages = null;
    this.owner = null;
    this.form = null;
  }

  /** Drawn when the tab holds a student's key; nothing otherwise. */
  show() {
    this.load();
    return this.element;
  }

  async load() {
    const key = apiKey();
    if (!key) {
      this.element.hidden = true;
      replace(this.element, []);
      return;
    }
    this.problem = alertBox();
    try {
      this.owner = await keyOwner(key);
      if (this.owner?.role !== "student") {
        this.element.hidden = true;
        return;
      }
      const classroom = this.owner.classroom.id;
      const [bots, tournaments] = await Promise.all([
        playerApi.request("GET", "/bots/", { key }).then(listOf),
        playerApi.request("GET", `/classrooms/${classroom}/tournaments/`, { key }).then(listOf),
      ]);
      this.bots = bots;
      const mine = new Set(bots.map((bot) => bot.id));
      this.scrimmages = tournaments.filter((t) => t.scrimmage && t.entrants.some((e) => mine.has(e.bot)));
    } catch (error) {
      this.element.hidden = false;
      replace(this.element, [h("h2", { id: "bots-title" }, gettext("My bots")), this.problem]);
      showProblem(this.problem, error);
      return;
    }
    this.render();
  }

  render() {
    this.element.hidden = false;
    this.form = new TournamentForm({
      rulesets: this.rulesets,
      bots: this.bots,
      scrimmage: true,
      send: (body) => playerApi.request("POST", `/classrooms/${this.owner.classroom.id}/tournaments/`, {
        key: apiKey(), body,
      }),
      onSet: (tournament) => this.navigate(`/play/tournaments/${tournament.id}/`),
    });
    replace(this.element, [
      h("h2", { id: "bots-title", tabindex: "-1" }, gettext("My bots")),
      h("p", { class: "help" }, gettext("A bot is a program of yours that plays over the API with your student key (DICE_API_KEY) and its event stream.")),
      this.problem,
      this.bots.length
        ? h("ul", { class: "entrant-list", "aria-label": gettext("My bots") }, this.bots.map((bot) => h("li", {},
          h("strong", {}, bot.name), format(gettext(": %(rulesets)s"), { rulesets: list(bot.rulesets.map((id) => this.rulesetName(id))) }))))
        : h("p", {}, gettext("You have no bot yet: register one below.")),
      this.registerForm(),
      this.bots.length ? this.form.element() : null,
      h("h3", { id: "scrimmages-title" }, gettext("My scrimmages")),
      this.scrimmages.length
        ? h("ul", { class: "tournament-list", "aria-labelledby": "scrimmages-title" }, this.scrimmages.map((t) => h("li", {},
          h("a", { href: `/play/tournaments/${t.id}/`, "data-internal": true }, t.title),
          h("span", { class: "meta" }, [
            this.rulesetName(t.ruleset), formatOf(t), tournamentStatus(t.status),
            format(ngettext("%(finished)s of %(count)s game finished", "%(finished)s of %(count)s games finished",
              t.progress.games), { finished: t.progress.finished, count: t.progress.games }),
          ].join(" · ")))))
        : h("p", {}, gettext("No scrimmage yet.")),
    ]);
  }

  rulesetName(id) {
    return this.rulesets.find((r) => r.id === id)?.name ?? id;
  }

  registerForm() {
    const status = h("p", { class: "done", role: "status", "aria-live": "polite" });
    const problem = alertBox();
    const form = h(
      "form",
      { class: "register-bot", novalidate: true, "aria-labelledby": "register-bot-title" },
      h("h3", { id: "register-bot-title" }, gettext("Register a bot")),
      h("div", { class: "field" },
        h("label", { for: "bot-name" }, gettext("Bot name")),
        h("input", {
          id: "bot-name", maxlength: 40, autocomplete: "off", required: true,
          "aria-describedby": ["bot-name-help", "bot-name-error"].join(" "),
        }),
        h("small", { id: "bot-name-help" }, gettext("Unique in your classroom: everyone sees it in the standings.")),
        errorText("bot-name")),
      h("fieldset", { id: "bot-rulesets", "aria-describedby": "bot-rulesets-error" },
        h("legend", {}, gettext("Rulesets it plays")),
        this.rulesets.map((r) => h("div", { class: "field check" },
          h("input", { id: `bot-ruleset-${r.id}`, type: "checkbox", value: r.id, checked: r === this.rulesets[0] }),
          h("label", { for: `bot-ruleset-${r.id}` }, r.name))),
        errorText("bot-rulesets")),
      problem,
      status,
      h("button", { type: "submit" }, gettext("Register the bot")),
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      clearErrors(form);
      problem.hidden = true;
      const body = {
        name: form.querySelector("#bot-name").value.trim(),
        rulesets: [...form.querySelectorAll("#bot-rulesets input:checked")].map((input) => input.value),
      };
      const button = event.submitter;
      if (button) button.disabled = true;
      try {
        const bot = await playerApi.request("POST", "/bots/", { key: apiKey(), body });
        await this.load();
        const again = this.element.querySelector(".register-bot [role=status]");
        if (again) again.textContent = format(gettext("The bot “%(name)s” is registered."), { name: bot.name });
        this.element.querySelector("#bot-name")?.focus();
      } catch (error) {
        const controlOf = (name) => ({ name: "bot-name", rulesets: "bot-rulesets" })[String(name).split(".")[0]] ?? null;
        const errors = error.code === "name_taken" ? [{ field: "name", detail: error.message }] : error.errors;
        const { first, unplaced } = showErrors(form, errors ?? [], controlOf);
        if (!errors?.length || unplaced.length) showProblem(problem, error);
        (first ?? form.querySelector("#bot-name")).focus();
      } finally {
        if (button) button.disabled = false;
      }
    });
    return form;
  }
}
