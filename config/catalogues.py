"""The message catalogues of locale/, with Babel (pure Python: no GNU gettext needed).

``python -m config.catalogues`` compiles every ``locale/<dir>/LC_MESSAGES/<domain>.po``
(each language, each domain) to the ``.mo`` beside it, skipping those already newer than
their ``.po``; fuzzy entries are left out, as msgfmt leaves them. ``make run``, ``make
check`` and ``make test`` run it, the test session too, and the container image when it is
built: the ``.mo`` files are never committed. Each is written to a temporary file and
renamed, so processes compiling at once never read a half-written one.

``python -m config.catalogues start <dir>`` begins a new language's ``django.po``;
``python -m config.catalogues extract`` gathers the strings the Python code marks for
translation (Django's markers, :data:`KEYWORDS`) and brings every language's ``django.po``
in step with them: new strings added untranslated, gone ones dropped (docs/translating.md).
"""

import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import BinaryIO

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE_DIR = ROOT / "locale"
# The code whose strings are the ``django`` domain's.
SOURCES = ("config", "games", "scoring")
# Django's markers besides gettext's own: gettext_noop marks a string where it is written
# (the rules, which know nothing of Django, among them) for translation where it is shown.
KEYWORDS = {
    **DEFAULT_KEYWORDS,
    "gettext_noop": None,
    "gettext_lazy": None,
    "ngettext_lazy": (1, 2),
    "pgettext_lazy": ((1, "c"), 2),
}


def catalogues(root: Path = LOCALE_DIR, domain: str = "*") -> list[Path]:
    """Every catalogue under ``root`` (of one domain, or all), each language's."""
    return sorted(root.glob(f"*/LC_MESSAGES/{domain}.po"))


def read_catalogue(po: Path) -> Catalog:
    with po.open("rb") as source:
        return read_po(source, locale=po.parent.parent.name, domain=po.stem)


def _write_atomically(path: Path, write: Callable[[BinaryIO], None]) -> None:
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as target:
            write(target)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_catalogue(po: Path, catalogue: Catalog) -> None:
    _write_atomically(
        po, lambda target: write_po(target, catalogue, width=96, ignore_obsolete=True)
    )


def compile_all(root: Path = LOCALE_DIR, *, force: bool = False) -> list[Path]:
    """Compile the catalogues whose ``.mo`` is missing or older; the ones compiled."""
    done = []
    for po in catalogues(root):
        mo = po.with_suffix(".mo")
        if force or not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            _write_atomically(mo, partial(write_mo, catalog=read_catalogue(po), use_fuzzy=False))
            done.append(mo)
    return done


def marked_strings(root: Path = ROOT) -> Iterator[tuple[str, int, str | tuple[str, ...]]]:
    """Each string the code marks for translation: (file, line, message)."""
    for folder in SOURCES:
        for file, line, message, _comments, _context in extract_from_dir(
            root / folder, keywords=KEYWORDS, comment_tags=("Translators:",)
        ):
            yield f"{folder}/{file}", line, message


def template(root: Path = ROOT) -> Catalog:
    """The ``django`` domain's strings as the code has them now."""
    pot = Catalog(domain="django", fuzzy=False)
    for file, line, message in marked_strings(root):
        braces = "{" in (message if isinstance(message, str) else message[0])
        pot.add(message, locations=[(file, line)], flags=["python-brace-format"] if braces else [])
    return pot


def start_language(directory: str, root: Path = ROOT) -> Path:
    """A new language's empty ``django.po`` (``directory`` as Django names it: ``pt_BR``)."""
    po = root / "locale" / directory / "LC_MESSAGES" / "django.po"
    po.parent.mkdir(parents=True, exist_ok=True)
    catalogue = Catalog(
        locale=directory, domain="django", project="dice-service", fuzzy=False,
        header_comment=f"# The service's texts in {directory} (docs/translating.md).\n#",
    )
    write_catalogue(po, catalogue)
    return po


def extract(root: Path = ROOT) -> list[Path]:
    """Bring each language's ``django.po`` in step with the code."""
    pot = template(root)
    updated = []
    for po in catalogues(root / "locale", "django"):
        catalogue = read_catalogue(po)
        catalogue.update(pot, no_fuzzy_matching=True, update_creation_date=False)
        write_catalogue(po, catalogue)
        updated.append(po)
    return updated


if __name__ == "__main__":
    if sys.argv[1:2] == ["start"]:
        for name in sys.argv[2:]:
            print(f"started {start_language(name).relative_to(ROOT)}")
    elif sys.argv[1:2] == ["extract"]:
        for po in extract():
            print(f"updated {po.relative_to(ROOT)}")
    else:
        compiled = compile_all(force="--force" in sys.argv[1:])
        print(f"message catalogues: {len(compiled)} compiled, {len(catalogues())} in all")
