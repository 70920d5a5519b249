// A game waiting for players: who is in, the link to share, joining it, or beginning it
// without the open seats.

import { h } from "../../common/dom.js";
import { format, gettext } from "../../common/i18n.js";
import { computerName } from "../../common/options.js";

export function gameUrl(id) {
  return `${window.location.origin}/play/${id}/`;
}

function sharePart(link) {
  return h(
    "div",
    { class: "field share" },
    h("label", { for: "share-link" }, gettext("Link to share")),
    h("input", { id: "share-link", readonly: true, value: link, onfocus: (e) => e.target.select() }),
    h("button", {
      type: "button", class: "quiet", "data-key": "copy",
      onclick: async (event) => {
        try {
          await navigator.clipboard.writeText(link);
          event.target.textContent = gettext("Copied");
        } catch {
          document.getElementById("share-link").select();
        }
      },
    }, gettext("Copy link")),
  );
}

export function waitingPanel(state, act) {
  const game = state.game;
  const seated = Object.keys(state.seats).length > 0;
  const part = [
    h("h2", {}, gettext("Players so far")),
    h("ul", {}, game.players.map((p) => h("li", {}, p.name, p.computer ? ` ${format(gettext("(computer: %(level)s)"), { level: computerName(p.computer) })}` : ""))),
    sharePart(gameUrl(state.id)),
  ];
  if (!seated && game.open_seats > 0) {
    part.push(h(
      "form",
      { class: "card join", onsubmit: (event) => act.join(event) },
      h("div", { class: "field" }, h("label", { for: "join-name" }, gettext("Name")),
        h("input", {
          id: "join-name", maxlength: 50, autocomplete: "nickname", "data-key": "join-name",
          value: state.joinName ?? "", oninput: (event) => { state.joinName = event.target.value; },
        })),
      h("button", { type: "submit", class: "primary" }, gettext("Join game")),
    ));
  }
  if (seated) {
    part.push(h("p", {}, gettext("Open this link on another device to play there. The game begins when every seat is taken, or now:")),
      h("button", { type: "button", "data-key": "begin", onclick: () => act.begin() },
        gettext("Begin now without the open seats")));
  }
  return h("section", { class: "card" }, part);
}
