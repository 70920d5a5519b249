"""Each request names its client to the strategy tables' queue (``games.work.tables``),
which limits the new tables one client may queue in an hour; work outside requests names
nobody and is not limited."""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from games.http.limits import client_address, hit, parse_rates
from games.work.tables import ASKER


class TableAskerMiddleware:
    """Names the client of each request (its address, as the limits count it) for
    ``games.work.tables``, which limits the new strategy tables one client may queue; work
    outside requests names nobody and is not limited."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = ASKER.set(lambda: _may_queue_table(f"address:{client_address(request)}"))
        try:
            return self.get_response(request)
        finally:
            ASKER.reset(token)


def _may_queue_table(asker: str) -> bool:
    """Counts one more new table queued by ``asker``: whether it is within
    ``STRATEGY_BUILD_RATE``."""
    windows = parse_rates(settings.STRATEGY_BUILD_RATE, name="STRATEGY_BUILD_RATE")
    return not windows or hit(scope="strategy-build", ident=asker, windows=windows) is None
