"""The catalogues are complete: every language has every domain, every string of a domain
has a translation in every language (never empty, never fuzzy), each keeps the fields of its
English, and the Python code's catalogue (django.po) is in step with what the code marks.

A failure names the catalogue, the msgid and the language, so that whoever adds a string
(a new problem code's title, a refusal) knows exactly what to translate: run ``make
messages`` (new strings land in every django.po, untranslated), translate them, ``make
check`` (docs/translating.md).
"""

import re

import pytest
from babel.messages.catalog import Catalog, Message
from django.conf import settings
from django.utils.translation import to_locale

from config.catalogues import LOCALE_DIR, catalogues, read_catalogue, template

# Every language the service speaks besides English, by its catalogue folder (zh_Hans).
FOLDERS = sorted(to_locale(code) for code, _name in settings.LANGUAGES if code != "en")
DOMAINS = sorted({po.stem for po in catalogues()})
# Python's named fields ({seat}, {game}, {name!r}, {code_point:X}), printf's (%(name)s, %s).
FIELDS = re.compile(r"\{[^{}]*\}|%\([^)]*\)[a-z]|%[a-z]")


def _forms(text: str | tuple[str, ...]) -> tuple[str, ...]:
    return text if isinstance(text, tuple) else (text,)


def _msgid(message: Message) -> str:
    return _forms(message.id)[0]


def _loaded(folder: str, domain: str) -> Catalog:
    return read_catalogue(LOCALE_DIR / folder / "LC_MESSAGES" / f"{domain}.po")


def test_every_language_has_a_catalogue_of_every_domain() -> None:
    assert "django" in DOMAINS
    missing = [
        f"locale/{folder}/LC_MESSAGES/{domain}.po"
        for domain in DOMAINS
        for folder in FOLDERS
        if not (LOCALE_DIR / folder / "LC_MESSAGES" / f"{domain}.po").exists()
    ]
    assert not missing, f"catalogues missing: {missing}"
    stray = sorted({po.parent.parent.name for po in catalogues()} - set(FOLDERS))
    assert not stray, f"catalogues of languages not in settings.LANGUAGES: {stray}"


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_string_is_translated_in_every_language(domain: str) -> None:
    faults = []
    for folder in FOLDERS:
        for message in _loaded(folder, domain):
            if not message.id:
                continue
            where = f"locale/{folder}/LC_MESSAGES/{domain}.po: msgid {_msgid(message)!r}"
            if message.fuzzy:
                faults.append(f"{where} is fuzzy ({folder})")
            if not all(form.strip() for form in _forms(message.string)):
                faults.append(f"{where} has no translation in {folder}")
    assert not faults, "\n".join(faults)


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_language_has_the_same_strings(domain: str) -> None:
    """A string added to one language's catalogue and not the others' is missing there."""
    ids = {folder: {message.id for message in _loaded(folder, domain) if message.id}
           for folder in FOLDERS}
    every = set().union(*ids.values())
    faults = [
        f"locale/{folder}/LC_MESSAGES/{domain}.po: msgid {_forms(missing)[0]!r} is missing "
        f"in {folder}"
        for folder in FOLDERS
        for missing in sorted(every - ids[folder], key=str)
    ]
    assert not faults, "\n".join(faults)


@pytest.mark.parametrize("domain", DOMAINS)
def test_each_translation_keeps_the_fields_of_its_english(domain: str) -> None:
    """A field renamed or dropped would show the English instead (or the raw field)."""
    faults = []
    for folder in FOLDERS:
        for message in _loaded(folder, domain):
            if not message.id:
                continue
            english = _forms(message.id)
            for index, form in enumerate(_forms(message.string)):
                source = english[min(index, len(english) - 1)]
                if sorted(FIELDS.findall(form)) != sorted(FIELDS.findall(source)):
                    faults.append(
                        f"locale/{folder}/LC_MESSAGES/{domain}.po: msgid {english[0]!r}: "
                        f"{folder} has fields {sorted(FIELDS.findall(form))}, the English "
                        f"{sorted(FIELDS.findall(source))}"
                    )
    assert not faults, "\n".join(faults)


def test_the_code_catalogue_is_in_step_with_the_code() -> None:
    """Every string the code marks is in every django.po (else it is never translated),
    and none that the code no longer has lingers there."""
    marked = {message.id for message in template() if message.id}
    faults = []
    for folder in FOLDERS:
        held = {message.id for message in _loaded(folder, "django") if message.id}
        faults += [
            f"locale/{folder}/LC_MESSAGES/django.po: msgid {_forms(m)[0]!r} is marked in the "
            f"code but missing in {folder} (make messages, then translate it)"
            for m in sorted(marked - held, key=str)
        ]
        faults += [
            f"locale/{folder}/LC_MESSAGES/django.po: msgid {_forms(m)[0]!r} is no longer in "
            "the code (make messages drops it)"
            for m in sorted(held - marked, key=str)
        ]
    assert not faults, "\n".join(faults)


def test_each_catalogue_says_its_language() -> None:
    for po in catalogues():
        language = read_catalogue(po).locale_identifier
        assert language == po.parent.parent.name, f"{po.relative_to(LOCALE_DIR)}: {language}"
