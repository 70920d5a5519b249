"""The language of each answer: Django's ``LocaleMiddleware``, which picks the best of
``settings.LANGUAGES`` in the order of ``Accept-Language`` (else English), activates it and
sends ``Content-Language`` and ``Vary: Accept-Language`` on every answer.

Django's own matching already gives every Chinese tag (``zh``, ``zh-CN``, ``zh-Hans``,
``zh-TW``...) the only Chinese the service speaks, ``zh-hans``, and ``nb-NO`` Bokmål. It does
not know that ``no`` (Norwegian, either written form) is best answered in Bokmål: this
subclass reads each ``no`` tag as ``nb`` before Django picks.
"""

import re

from django.http import HttpRequest
from django.middleware.locale import LocaleMiddleware

# "no" as a whole language tag or its first subtag ("no", "no-NO", "NO;q=0.8").
_NORWEGIAN = re.compile(r"(?<![\w-])no(?=-|;|,|\s|$)", re.IGNORECASE)


class LanguageMiddleware(LocaleMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        header = request.META.get("HTTP_ACCEPT_LANGUAGE")
        if header:
            request.META["HTTP_ACCEPT_LANGUAGE"] = _NORWEGIAN.sub("nb", header)
        super().process_request(request)
