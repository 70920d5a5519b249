"""The language of each answer: Django's ``LocaleMiddleware``, which picks the best of
``settings.LANGUAGES`` in the order of ``Accept-Language`` (else English), activates it and
sends ``Content-Language`` and ``Vary: Accept-Language`` on every answer.

Django's own matching already gives every Chinese tag (``zh``, ``zh-CN``, ``zh-Hans``,
``zh-TW``...) the only Chinese the service speaks, ``zh-hans``, and ``nb-NO`` Bokmål. It does
not know that ``no`` (Norwegian, either written form) is best answered in Bokmål: this
subclass reads each ``no`` tag as ``nb`` before Django picks. The API answers by
``Accept-Language`` alone, as its contract says: Django's language cookie (which a page may
set) is read on the pages only.
"""

import re

from django.http import HttpRequest
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

# "no" as a whole language tag or its first subtag ("no", "no-NO", "NO;q=0.8").
_NORWEGIAN = re.compile(r"(?<![\w-])no(?=-|;|,|\s|$)", re.IGNORECASE)
API = "/api/"


def language_of(header: str) -> str:
    """The best language the service speaks for an ``Accept-Language``, else English."""
    for tag, _quality in parse_accept_lang_header(header):
        if tag == "*":
            break
        try:
            return translation.get_supported_language_variant(tag)
        except LookupError:
            continue
    return translation.get_supported_language_variant("en")


class LanguageMiddleware(LocaleMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        header = request.META.get("HTTP_ACCEPT_LANGUAGE")
        if header:
            request.META["HTTP_ACCEPT_LANGUAGE"] = _NORWEGIAN.sub("nb", header)
        if not request.path_info.startswith(API):
            super().process_request(request)
            return
        translation.activate(language_of(request.META.get("HTTP_ACCEPT_LANGUAGE", "")))
        request.LANGUAGE_CODE = translation.get_language()
