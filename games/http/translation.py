"""Words for people in the request's language: a refusal's ``message`` (marked where it is
written, in English) looked up in the catalogues of the language ``LocaleMiddleware``
activated, its named fields then filled in (docs/translating.md).

A field whose value is a phrase (``scoring.errors.Words``) is shown in the same language. A
field named ``game`` holds a ruleset's name, itself marked where the ruleset is declared:
it is shown in the reader's language too. Every other field is shown as given (numbers, the
API's ids and values, what the request sent). A translation whose fields do not match its
English (a mistake the catalogue tests catch) falls back to the English, never to a 500.
"""

from collections.abc import Mapping

from django.utils.translation import gettext, gettext_noop

from scoring.errors import Worded, Words, worded

# The fields whose values are the service's own words, translated with the message.
TRANSLATED_FIELDS = frozenset({"game"})


def localized(message: str, params: Mapping[str, object] | None = None) -> str:
    """``message`` in the active language, with ``params`` in its fields."""
    if not params:
        return gettext(message)
    shown = {name: _shown(name, value) for name, value in params.items()}
    try:
        return worded(gettext(message), shown)
    except (KeyError, IndexError, ValueError):
        return worded(message, params)


def _shown(name: str, value: object) -> object:
    if isinstance(value, Words):
        return localized(value.message, value.params)
    if name in TRANSLATED_FIELDS and isinstance(value, str):
        return gettext(value)
    return value


def said(refusal: Worded) -> str:
    """A refusal's words (a rule's, a service's, the HTTP layer's) in the active language."""
    return localized(refusal.message, refusal.params)


# DRF's own messages (a field's refusals, a throttle's wait) come in the request's language
# from DRF's catalogues; these few have no translation there in some of the service's
# languages, so the service's catalogues give them one (``LOCALE_PATHS`` come first).
DRF_GAPS = (
    gettext_noop("Invalid input."),
    gettext_noop("Must be a valid boolean."),
    gettext_noop("Not a valid string."),
    gettext_noop("Must be a valid UUID."),
    gettext_noop("A valid biginteger is required."),
    gettext_noop("Integer value too large to convert to float"),
    gettext_noop("Datetime value out of range."),
    gettext_noop('Invalid datetime for the timezone "{timezone}".'),
    gettext_noop("Ensure this field has at least {min_length} elements."),
    gettext_noop("Ensure this field has no more than {max_length} elements."),
    gettext_noop("This dictionary may not be empty."),
    gettext_noop("Surrogate characters are not allowed: U+{code_point:X}."),
    gettext_noop(
        'Enter a valid "slug" consisting of Unicode letters, numbers, underscores, or hyphens.'
    ),
    gettext_noop("The number of days must be between {min_days} and {max_days}."),
    gettext_noop("Expected available in {wait} second."),
    gettext_noop("Expected available in {wait} seconds."),
)
