// The service's own web client: start a game, share it, play it, follow it live.
// It uses only the public API (/api/v1/...), like any other frontend.

import { playerApi } from "../common/api.js";
import { alertBox, h, replace, showProblem } from "../common/dom.js";
import { bindLanguageMenu, gettext } from "../common/i18n.js";
import { GameScreen } from "./game.js";
import { ScrimmageScreen } from "./scrimmage.js";
import { StartScreen } from "./start.js";

const main = document.getElementById("main");
const GAME_PATH = /^\/play\/([0-9a-fA-F-]{36})\/?$/;
const TOURNAMENT_PATH = /^\/play\/tournaments\/([0-9a-fA-F-]{36})\/?$/;

let rulesets = null; // from GET /api/v1/rulesets/, once
let screen = null; // the screen shown now; has stop() when it holds a stream

async function loadRulesets() {
  if (!rulesets) rulesets = (await playerApi.get("/rulesets/")).data;
  return rulesets;
}

function gameIdOf(location) {
  const inPath = GAME_PATH.exec(location.pathname);
  if (inPath) return inPath[1].toLowerCase();
  const inHash = /^#([0-9a-fA-F-]{36})$/.exec(location.hash);
  return inHash ? inHash[1].toLowerCase() : null;
}

function navigate(path) {
  window.history.pushState(null, "", path);
  route();
}

async function route() {
  screen?.stop?.();
  screen = null;
  const id = gameIdOf(window.location);
  try {
    await loadRulesets();
  } catch (error) {
    const box = alertBox();
    showProblem(box, error);
    replace(main, [h("h1", {}, gettext("Dice games")), box]);
    return;
  }
  const tournament = TOURNAMENT_PATH.exec(window.location.pathname)?.[1];
  if (tournament) screen = new ScrimmageScreen(main, rulesets, tournament.toLowerCase());
  else screen = id ? new GameScreen(main, rulesets, id, navigate) : new StartScreen(main, rulesets, navigate);
  screen.show();
}

// Links inside the client change the screen without loading the page again.
document.addEventListener("click", (event) => {
  const link = event.target.closest?.("a[data-internal]");
  if (!link || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  navigate(link.getAttribute("href"));
});
window.addEventListener("popstate", route);
bindLanguageMenu();

route();
