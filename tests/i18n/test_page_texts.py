"""Every text /play/ and /teach/ show is marked for translation and translated.

Their scripts mark each text with gettext(), ngettext(), pgettext() or gettext_noop() of
games/static/common/i18n.js, their templates with {% page_text %}; config/page_catalogues.py
gathers them into each language's djangojs.po. A literal that reads as words (a capital
and lower-case letters, words with spaces between them, a sentence's end) anywhere else in
a script or a template fails here, as does a catalogue that misses, leaves empty or marks
fuzzy any of the texts the pages use.
"""

import re
import warnings
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from config.catalogues import read_catalogue
from config.page_catalogues import KEYWORDS, ROOT, directories, scripts, template, templates

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from babel.messages.jslexer import Token, tokenize, unquote_string

# Babel's JavaScript lexer (the one its extractor uses) says it may change: it is read here
# the way the extractor reads it.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

# The calls whose string arguments are names for the browser, never shown: selectors, events,
# attributes, storage keys, headers.
PLUMBING = {
    "querySelector", "querySelectorAll", "closest", "addEventListener", "removeEventListener",
    "getElementById", "setAttribute", "removeAttribute", "getAttribute", "hasAttribute",
    "getItem", "setItem", "removeItem", "get", "toggle", "add", "remove", "escape",
    "expect_response", "fetch", "EventSource",
}
# Attributes whose values are names for the code or the browser, never read by a person.
CODE_KEYS = {"class", "className", "id", "for", "type", "role", "scope", "name", "href"}
WORDS = re.compile(r"[^\W\d_]{2,}")
# What reads as words: two words with a space between them, a capital then lower-case
# letters ("Bank"), letters of another script, or a sentence's end.
TEXT = re.compile(r"[^\W\d_]{2,}\s+[^\W\d_]|\b[A-Z][a-z]+|[^\x00-\x7f]|[^\W\d_][.:!?…]$")
PLACEHOLDER = re.compile(r"%\(\w+\)s")
# A name for the code, not words: no space, and a separator words never have.
IDENTIFIER = re.compile(r"^[^\s]*[-/_#\[=][^\s]*$")
# Where a literal goes into the plumbing: a header, a cookie.
PLUMBING_TARGETS = re.compile(r"(headers|cookie)\b")


def literal(token: Token) -> str:
    """A string token's text; a template string's without its ${…} parts."""
    if token.type == "template_string":
        return re.sub(r"\$\{[^}]*\}", "", token.value[1:-1])
    return unquote_string(token.value)


def reads_as_words(token: Token) -> bool:
    text = literal(token).strip()
    if not WORDS.search(text) or IDENTIFIER.match(text):
        return False
    # Words put together with values (`${name} rolled ${dice}`) are a text to translate.
    return bool(TEXT.search(text)) or (token.type == "template_string" and "${" in token.value)


def property_key(tokens: list[Token], index: int) -> str | None:
    """The key of the object property whose value holds the token at `index`, if any."""
    depth = 0
    start = index - 1
    while start >= 0:
        value = tokens[start].value
        if value in (")", "]", "}"):
            depth += 1
        elif value in ("(", "[", "{"):
            if depth == 0:
                break
            depth -= 1
        elif value in (",", ";", "=") and depth == 0:
            break
        start -= 1
    if start + 2 < index and tokens[start + 2].value == ":":
        key = tokens[start + 1]
        return unquote_string(key.value) if key.type == "string" else key.value
    return None


def unmarked(path: Path) -> list[str]:
    """The literals of one script that read as words and are not marked."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        tokens = [t for t in tokenize(path.read_text(encoding="utf-8"), template_string=True)
                  if t.type not in ("linecomment", "multilinecomment")]
    found = []
    calls: list[str] = []  # the function of each open parenthesis ("" when none)
    for index, token in enumerate(tokens):
        before = tokens[index - 1] if index else None
        after = tokens[index + 1] if index + 1 < len(tokens) else None
        if token.type == "operator" and token.value == "(":
            named = before is not None and before.type == "name"
            calls.append(before.value.rsplit(".", 1)[-1] if named else "")
            continue
        if token.type == "operator" and token.value == ")":
            if calls:
                calls.pop()
            continue
        if token.type not in ("string", "template_string"):
            continue
        call = calls[-1] if calls else ""
        if call in KEYWORDS or call in PLUMBING:
            continue
        if after is not None and after.value == ":":
            continue  # an object's key
        if before is not None and before.value == "[":
            continue  # an index: headers["Content-Type"]
        target = tokens[index - 2].value if index > 1 else ""
        if before is not None and before.value == "=" and PLUMBING_TARGETS.search(str(target)):
            continue  # headers.Authorization = `Bearer ${token}`
        if property_key(tokens, index) in CODE_KEYS:
            continue  # { class: "die chosen" }, { class: held ? "die held" : "die" }
        if reads_as_words(token):
            found.append(f"{path.relative_to(ROOT)}:{token.lineno}: {token.value}")
    return found


class TemplateText(HTMLParser):
    """The words a template shows once its tags ({% … %}, {{ … }}) are set aside."""

    SHOWN = ("title", "alt", "placeholder", "aria-label")

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.skip += 1
        shown = self.SHOWN + (("content",) if ("name", "description") in attrs else ())
        for name, value in attrs:
            if name in shown and value and WORDS.search(value):
                self.found.append(f"<{tag} {name}={value!r}>")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        words = data.strip()
        if not self.skip and WORDS.search(words) and not words.startswith("/api/"):
            self.found.append(words)


def test_every_text_the_pages_scripts_show_is_marked_for_translation() -> None:
    found = [line for path in scripts() for line in unmarked(path)]
    assert len(scripts()) > 20
    assert not found, "texts not marked for translation:\n" + "\n".join(found)


def test_the_check_finds_an_unmarked_text(tmp_path: Path) -> None:
    script = ROOT / "games" / "static" / "play" / "_unmarked_example.js"
    script.write_text(
        'const a = h("button", { class: "quiet primary" }, "Roll again");\n'
        'const b = h("p", {}, gettext("Roll again"));\n'
        "const c = `${name} rolled ${dice}`;\n"
        'const d = format(gettext("%(name)s wins"), { name: "Ann" });\n'
        'const e = h("p", { class: "help", title: "Your dice" }, "-");\n',
        encoding="utf-8",
    )
    try:
        found = unmarked(script)
    finally:
        script.unlink()
    assert [line.split(": ", 1)[1] for line in found] == [
        '"Roll again"', "`${name} rolled ${dice}`", '"Your dice"'
    ]


@pytest.mark.parametrize("path", templates(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_text_of_the_pages_templates_is_marked_for_translation(path: Path) -> None:
    source = re.sub(r"\{%.*?%\}|\{\{.*?\}\}", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    parser = TemplateText()
    parser.feed(source)
    assert not parser.found, f"texts not marked for translation in {path.name}: {parser.found}"


@pytest.fixture(scope="module")
def pages() -> Catalog:
    return template()


@pytest.mark.parametrize("directory", directories())
def test_every_page_text_is_translated_in_every_language(pages: Catalog, directory: str) -> None:
    po = ROOT / "locale" / directory / "LC_MESSAGES" / "djangojs.po"
    catalogue = read_catalogue(po)
    problems = []
    for message in pages:
        if not message.id:
            continue
        translated = catalogue.get(message.id, context=message.context)
        name = message.id if isinstance(message.id, str) else message.id[0]
        if translated is None:
            problems.append(f"missing: {name!r}")
            continue
        if translated.fuzzy:
            problems.append(f"fuzzy: {name!r}")
        forms = translated.string if isinstance(translated.string, tuple) else (translated.string,)
        if not all(forms) or len(forms) != (catalogue.num_plurals if message.pluralizable else 1):
            problems.append(f"empty: {name!r}")
            continue
        wanted = set(PLACEHOLDER.findall(name if isinstance(message.id, str) else message.id[1]))
        if set(PLACEHOLDER.findall(forms[-1])) != wanted:
            problems.append(f"placeholders differ: {name!r} -> {forms[-1]!r}")
    unused = [m.id for m in catalogue if m.id and pages.get(m.id, context=m.context) is None]
    problems.extend(f"no longer used (run make messages): {m!r}" for m in unused)
    assert not problems, f"{po.relative_to(ROOT)}:\n" + "\n".join(problems)
