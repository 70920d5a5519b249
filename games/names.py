"""The rule for a name a person reads: a student's, a seat's, a classroom's, a bot's.

A name is shown beside others (a roster, a leaderboard, a game's seats), so it must not be
able to pass for another one: ``Ann`` followed by a zero-width space, ``Ann`` behind a
right-to-left override and ``Ann`` in fullwidth letters (U+FF21 U+FF4E U+FF4E) all look
like ``Ann``. The rule, in one place so that every kind of name keeps it:

- the text is NFKC-normalised (fullwidth, ligatures and compatibility forms become their
  plain letters; a letter and its combining accent become the one precomposed letter);
- characters that show nothing or change how others show are refused: controls (Cc),
  formats (Cf: zero-width, bidirectional overrides, tags), private use (Co), surrogates
  (Cs), unassigned code points (Cn), line and paragraph separators (Zl, Zp), and the
  few letters and marks that Unicode also calls default-ignorable (Hangul fillers,
  variation selectors, the combining grapheme joiner) or that draw blank (braille blank);
- a name is written in the Basic Multilingual Plane, where the letters of every living
  script are (emoji, mathematical letters and the rarest ideographs, beyond it, are
  refused), which lets the request schema list what a name may hold in a pattern that
  Python and ECMAScript read alike (``games.api.fields.name_text``);
- a name may not start with a combining mark, nor stack more than a few of them;
- white space around it is dropped (first: a trailing newline is white space, not a
  control) and each inner run becomes one space; something must be left.

Two names are one name when their :func:`name_key` is equal: NFKC after case folding
(Unicode's caseless identifier match), so ``ANN``, ``ann`` and its fullwidth form are one.

Pure Python: the request fields and the services both call it, and so can a migration.
Letters of different scripts that look alike (Latin A, Cyrillic U+0410) are not made
one: that needs Unicode's confusables table, a larger step than this rule.
"""

import unicodedata

from django.utils.translation import gettext_noop

from scoring.errors import Worded

# Categories refused anywhere in a name (see the module's docstring).
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})

# Default-ignorable code points whose category is not refused above (letters and marks that
# draw nothing), and the braille blank, which draws an empty cell.
INVISIBLE = frozenset(
    {
        0x034F,  # combining grapheme joiner
        0x115F, 0x1160, 0x3164, 0xFFA0,  # Hangul fillers
        0x17B4, 0x17B5,  # Khmer inherent vowels
        0x180B, 0x180C, 0x180D, 0x180F,  # Mongolian variation selectors
        0x2800,  # braille pattern blank
        *range(0xFE00, 0xFE10),  # variation selectors
        *range(0xE0100, 0xE01F0),  # variation selectors supplement
    }
)

MOST_MARKS_IN_A_ROW = 4  # enough for any script's accents; more is "Zalgo" text


class NameRefused(Worded, ValueError):
    """Why a name cannot be taken, in words for the caller (``message``, marked for
    translation, with its fields: ``scoring.errors.Worded``)."""

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(message, None, params)


LAST_OF_THE_BASIC_PLANE = 0xFFFF

CATEGORY_WORDS = {
    "Cc": "a control character", "Cf": "a format character", "Co": "a private-use character",
    "Cs": "a lone surrogate", "Cn": "an unassigned code point", "Zl": "a line separator",
    "Zp": "a paragraph separator",
}


def _label(character: str) -> str:
    words = CATEGORY_WORDS.get(unicodedata.category(character), "a character")
    return f"U+{ord(character):04X} ({unicodedata.name(character, words).lower()})"


def _refusal(character: str) -> NameRefused | None:
    """Why ``character`` cannot stand in a name, if it cannot."""
    if ord(character) > LAST_OF_THE_BASIC_PLANE:
        return NameRefused(
            gettext_noop(
                "{character} is beyond the Basic Multilingual Plane, where the letters of "
                "every living script are: a name is written with those"
            ),
            character=_label(character),
        )
    if ord(character) in INVISIBLE or unicodedata.category(character) in REFUSED_CATEGORIES:
        return NameRefused(
            gettext_noop("{character} is not allowed in a name"), character=_label(character)
        )
    return None


def allowed_in_name(character: str) -> bool:
    """Whether ``character`` may stand in a name, as given and once normalised (the request
    schema lists these)."""
    return not any(map(_refusal, character + unicodedata.normalize("NFKC", character)))


def name_clean(text: str) -> str:
    """The name as it is stored and shown; :class:`NameRefused` if it cannot be one."""
    given, marks = text.strip(), 0
    for character in given:  # first as given, so the refusal names what was sent
        refusal = _refusal(character)
        if refusal:
            raise refusal
        marks = marks + 1 if unicodedata.category(character).startswith("M") else 0
        if marks > MOST_MARKS_IN_A_ROW:
            raise NameRefused(gettext_noop("too many accents on one letter"))
    normal = unicodedata.normalize("NFKC", given)
    refusal = next(filter(None, map(_refusal, normal)), None)
    if refusal:
        raise refusal
    name = " ".join(normal.split())
    if not name:
        raise NameRefused(gettext_noop("a name needs a visible character"))
    if unicodedata.category(name[0]).startswith("M"):
        raise NameRefused(gettext_noop("a name may not start with an accent"))
    return name


def name_normal(text: str) -> str:
    """The text in the form names are stored in, refusing nothing: a query for a name
    (``?player=`` in fullwidth letters) is matched in this form."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def name_key(name: str) -> str:
    """What two names that read alike share: the normalised name, case-folded (NFKC after
    folding, as folding can undo the normal form)."""
    return unicodedata.normalize("NFKC", name_normal(name).casefold())
