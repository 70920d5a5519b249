"""Content negotiation with a short way for the common case (``DEFAULT_CONTENT_NEGOTIATION_CLASS``).

Nearly every call asks for anything (``Accept: */*``, or no header at all) or for exactly the
first renderer's media type, and gets the first renderer, as DRF's own negotiation would
decide; parsing and ranking the header for that was about 2 % of a move's processor time.
Any other header, and any ``?format=``, goes through DRF's negotiation unchanged.
"""

from collections.abc import Iterable
from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request

ANYTHING = (None, "*/*")


class QuickContentNegotiation(DefaultContentNegotiation):
    def select_renderer(
        self,
        request: Request,
        renderers: Iterable[BaseRenderer],
        format_suffix: str | None = None,
    ) -> tuple[BaseRenderer, str]:
        renderers = list(renderers)  # the view's list, as DRF passes it
        if renderers and format_suffix is None:
            first = renderers[0]
            accept = request.META.get("HTTP_ACCEPT")
            format_param = self.settings.URL_FORMAT_OVERRIDE
            if (accept in ANYTHING or accept == first.media_type) and not (
                format_param and format_param in request.query_params
            ):
                return first, first.media_type
        chosen: Any = super().select_renderer(request, renderers, format_suffix)
        return chosen
