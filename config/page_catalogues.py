"""The pages' catalogue: every text /play/ and /teach/ show, in the ``djangojs`` domain.

The pages' scripts (games/static/common, play, teach) mark their texts with the functions of
games/static/common/i18n.js (``gettext``, ``ngettext``, ``pgettext``, ``gettext_noop``), and
their templates with ``{% page_text "…" %}`` (games/templatetags/page_text.py).
``python -m config.page_catalogues`` (part of ``make messages``) gathers them all and brings
every language's ``locale/<dir>/LC_MESSAGES/djangojs.po`` in step: new texts added
untranslated, gone ones dropped, translations kept. config/catalogues.py compiles them with
the rest; Django's JavaScript catalogue serves them to the scripts (docs/translating.md).
"""

import re
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from django.utils.translation import to_locale

from config.catalogues import ROOT, read_catalogue, write_catalogue
from config.languages import LANGUAGES

DOMAIN = "djangojs"
STATIC = ROOT / "games" / "static"
TEMPLATES = ROOT / "games" / "templates"
# The pages' own folders: their scripts and their templates.
SCRIPT_DIRS = ("common", "play", "teach", "lti")
TEMPLATE_DIRS = ("play", "teach", "pages", "lti")
# The markers of games/static/common/i18n.js, as xgettext and Babel read them.
KEYWORDS = {
    "gettext": None,
    "gettext_noop": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
}
# The tag's text, then any named values it fills in (``title=title``).
PAGE_TEXT = re.compile(
    r"""\{%\s*page_text\s+(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')"""
    r"""(?:\s+\w+=[^\s%]+)*\s*%\}"""
)

Message = str | tuple[str, ...]


def scripts(root: Path = ROOT) -> list[Path]:
    static = root / "games" / "static"
    return sorted(p for d in SCRIPT_DIRS for p in (static / d).rglob("*.js"))


def templates(root: Path = ROOT) -> list[Path]:
    folder = root / "games" / "templates"
    return sorted(p for d in TEMPLATE_DIRS for p in (folder / d).rglob("*.html"))


def marked_texts(root: Path = ROOT) -> Iterator[tuple[str, int, Message, str | None]]:
    """Each text the pages mark for translation: (file, line, message, context)."""
    for path in scripts(root):
        name = str(path.relative_to(root))
        for line, message, _comments, context in extract_from_file(
            "javascript", path, keywords=KEYWORDS, comment_tags=("Translators:",)
        ):
            yield name, line, message, context
    for path in templates(root):
        name = str(path.relative_to(root))
        text = path.read_text(encoding="utf-8")
        for match in PAGE_TEXT.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            message = match.group(1) if match.group(1) is not None else match.group(2)
            yield name, line, message.replace('\\"', '"').replace("\\'", "'"), None


def template(root: Path = ROOT) -> Catalog:
    """The pages' texts as the code has them now."""
    pot = Catalog(domain=DOMAIN, fuzzy=False)
    for file, line, message, context in marked_texts(root):
        pot.add(message, locations=[(file, line)], context=context)
    return pot


def directories() -> list[str]:
    """The catalogue folders of every language but English (the language of the code)."""
    return [to_locale(code) for code, _name in LANGUAGES if code != "en"]


def extract(root: Path = ROOT) -> list[Path]:
    """Bring each language's ``djangojs.po`` in step with the pages (started if missing)."""
    pot = template(root)
    updated = []
    for directory in directories():
        po = root / "locale" / directory / "LC_MESSAGES" / f"{DOMAIN}.po"
        if po.exists():
            catalogue = read_catalogue(po)
        else:
            po.parent.mkdir(parents=True, exist_ok=True)
            catalogue = Catalog(
                locale=directory, domain=DOMAIN, project="dice-service", fuzzy=False,
                header_comment=f"# The pages' texts in {directory} (docs/translating.md).\n#",
            )
        catalogue.update(pot, no_fuzzy_matching=True, update_creation_date=False)
        write_catalogue(po, catalogue)
        updated.append(po)
    return updated


if __name__ == "__main__":
    for po in extract():
        print(f"updated {po.relative_to(ROOT)}")
