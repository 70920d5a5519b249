"""``{% page_text "Skip to the game" %}``: the pages' own words in their templates, from the
same catalogue as their scripts' (the ``djangojs`` domain, locale/<dir>/LC_MESSAGES/
djangojs.po), in the language the request was answered in.

Everything /play/ and /teach/ show is translated in one catalogue: what their scripts draw
(through Django's JavaScript catalogue) and the few words their templates hold (the title,
the skip link, the header, the note for a browser without JavaScript). ``make messages``
gathers both (docs/translating.md).
"""

from functools import cache

from django import template
from django.utils.translation import get_language
from django.utils.translation.trans_real import DjangoTranslation

register = template.Library()

DOMAIN = "djangojs"


@cache
def catalogue(language: str) -> DjangoTranslation:
    """The pages' catalogue of one language (read once per process)."""
    return DjangoTranslation(language, domain=DOMAIN)


@register.simple_tag
def page_text(message: str, **values: object) -> str:
    """``message`` in the request's language; its named values (``%(title)s``) given as the
    tag's keywords: ``{% page_text "Adding “%(title)s” to the course" title=title %}``. A
    translation whose values do not match its English falls back to the English."""
    text = catalogue(get_language() or "en").gettext(message)
    if not values:
        return text
    try:
        return text % values
    except (KeyError, TypeError, ValueError):
        return message % values
