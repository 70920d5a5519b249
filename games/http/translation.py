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

from django.utils.translation import gettext

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
