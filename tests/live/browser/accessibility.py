"""What the accessibility tests check on a page: axe-core's WCAG rules, sideways scrolling at
a phone's width (and at 200 % zoom), English left in a page of another language, and what
the page's live region said.

axe-core comes from npm (``.ci/browser/package.json``, installed by ``npm ci`` in make test
and .ci/run): it is injected into the page by the test driver, not by a script tag, so the
pages' Content-Security-Policy stays as strict as it is.
"""

import re
from functools import cache
from pathlib import Path

from playwright.sync_api import Frame, Page

ROOT = Path(__file__).resolve().parents[3]
AXE = ROOT / ".ci" / "browser" / "node_modules" / "axe-core" / "axe.min.js"
# WCAG 2.0, 2.1 and 2.2, levels A and AA.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
PHONE_WIDTH = 320  # CSS pixels: WCAG's reflow width
# A 1280-pixel window at 200 % zoom lays the page out 640 CSS pixels wide.
ZOOMED_WIDTH = 640
# The browser's language for each of the service's (as a browser sends it).
BROWSER_LANGUAGES = {
    "en": "en-GB", "sv": "sv-SE", "da": "da-DK", "nb": "nb-NO", "de": "de-DE", "zh-hans": "zh-CN",
}
# English words a page in another language never shows (people's names aside): none is a
# word of Swedish, Danish, Norwegian or German either.
ENGLISH = re.compile(
    r"\b(the|and|your|with|game|games|player|players|roll|score|scored|turn|dice|wins|"
    r"student|students|assignment|assignments|classroom|teacher|key|this|not|you|choose|"
    r"open|loading|enter|results)\b",
    re.IGNORECASE,
)
# Everything a person reads or hears on a page: its text, and the names, descriptions and
# placeholders of its elements.
PAGE_WORDS = """() => {
  const words = [document.title, document.body.innerText];
  for (const element of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
    for (const name of ["aria-label", "title", "placeholder", "alt"]) {
      if (element.hasAttribute(name)) words.push(element.getAttribute(name));
    }
  }
  for (const element of document.querySelectorAll("svg title, svg text")) {
    words.push(element.textContent);
  }
  return words.join("\\n");
}"""
# What the live region (#announcer) says, kept in the page as it changes.
LISTEN = """
document.addEventListener("DOMContentLoaded", () => {
  window.heard = [];
  const region = document.getElementById("announcer");
  if (!region) return;
  new MutationObserver(() => {
    const text = region.textContent.trim();
    if (text) window.heard.push(text);
  }).observe(region, { childList: true, characterData: true, subtree: true });
});
"""


@cache
def axe_source() -> str:
    assert AXE.exists(), (
        f"{AXE.relative_to(ROOT)} is missing: run `npm ci` in .ci/browser (make test does)"
    )
    return AXE.read_text(encoding="utf-8")


def axe_violations(page: Page | Frame) -> list[str]:
    """axe-core's WCAG A and AA violations on the page (or frame) as it is now, one line each."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    results = page.evaluate(
        """async (tags) => {
          const found = await axe.run(document, {
            runOnly: { type: "tag", values: tags }, resultTypes: ["violations"],
          });
          return found.violations.map((v) =>
            `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
        }""",
        TAGS,
    )
    return list(results)


def sideways(page: Page) -> list[str]:
    """The page's overflow at the phone's width and at 200 % zoom (empty when none)."""
    before = page.viewport_size
    found = []
    try:
        for width in (PHONE_WIDTH, ZOOMED_WIDTH):
            page.set_viewport_size({"width": width, "height": 720})
            page.wait_for_timeout(50)  # the charts drawn again at the new width
            scroll = page.evaluate("document.documentElement.scrollWidth")
            if scroll > width:
                found.append(f"{scroll} px wide at {width} px")
    finally:
        if before:
            page.set_viewport_size(before)
    return found


def english_left(page: Page, language: str) -> list[str]:
    """English words on a page of another language."""
    if language == "en":
        return []
    return sorted({match.group(0) for match in ENGLISH.finditer(page.evaluate(PAGE_WORDS))})


def heard(page: Page) -> list[str]:
    return list(page.evaluate("() => window.heard || []"))


def keep_seat(page: Page, game_id: str, token: str) -> None:
    """This device holds the game's first seat, as if it had started the game."""
    page.evaluate(
        "([id, token]) => localStorage.setItem("
        "`dice-games:seats:${id}`, JSON.stringify({0: token}))",
        [game_id, token],
    )
