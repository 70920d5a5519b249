"""Rate limits on what is costly: creating games and seats, advice, records, classrooms.

Counted per API key when the request carries a valid one (the limits then follow the
key's classroom quota), else per client address; the counters are shared by every worker
and host (see ``games.http.limits``). A request with a key also counts against a ceiling
of its address, ``THROTTLE_KEYED_ADDRESS_FACTOR`` times the anonymous limits: anyone may
open classrooms and hold many keys, and keys must not multiply what one address may do.
Rates come from ``settings.THROTTLE_RATES`` when a request is checked, so tests may change
them; an empty rate turns that limit off.
"""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from games.classrooms.quotas import quota_of
from games.http.limits import Window, client_address, hit, parse_rates
from games.work.tables import ASKER


class ScopedThrottle(BaseThrottle):
    scope = ""
    # The counters' own name, where two paths share a rate but not a count.
    counter = ""
    # The classroom quota's field that replaces the rate for a key holder, if any.
    quota_field: str | None = None
    # Whether a key holder is counted per key (else always per address).
    per_key = True

    def allow_request(self, request: Request, view: APIView) -> bool:
        caller = getattr(request, "caller", None) if self.per_key else None
        name = self.counter or self.scope
        address = f"address:{client_address(request)}"
        if caller is None:
            self._wait = self._count(name, address, self.address_windows())
            return self._wait is None
        waits = [
            self._count(name, f"key:{caller.key_id}", self.key_windows(quota_of(caller.classroom))),
            self._count(f"{name}:keyed", address, self.ceiling_windows()),
        ]
        self._wait = max((w for w in waits if w is not None), default=None)
        return self._wait is None

    @staticmethod
    def _count(name: str, ident: str, windows: tuple[Window, ...]) -> float | None:
        return hit(scope=name, ident=ident, windows=windows) if windows else None

    def address_windows(self) -> tuple[Window, ...]:
        rate = settings.THROTTLE_RATES.get(self.scope) or ""
        return parse_rates(rate, name=f"THROTTLE_{self.scope.upper()}")

    def ceiling_windows(self) -> tuple[Window, ...]:
        """What one address may do with keys: the anonymous limits, times the factor."""
        factor = settings.THROTTLE_KEYED_ADDRESS_FACTOR
        return tuple(Window(w.count * factor, w.seconds) for w in self.address_windows())

    def key_windows(self, quota: dict[str, int]) -> tuple[Window, ...]:
        if self.quota_field is not None:
            return (Window(quota[self.quota_field], 3600),)
        return self.address_windows()

    def wait(self) -> float | None:
        return self._wait


class CreateThrottle(ScopedThrottle):
    """Games created and seats joined: each makes rows and a seat token."""

    scope = "create"
    quota_field = "games_per_hour"


class AdviceThrottle(ScopedThrottle):
    """Hints and stateless advice: the strategy tables' work."""

    scope = "advice"
    quota_field = "advice_per_hour"


class RecordThrottle(ScopedThrottle):
    """A game's record: its whole log, read and written out."""

    scope = "records"
    counter = "record"


class VerifyThrottle(ScopedThrottle):
    """The check of a record: a whole game replayed, each die derived again."""

    scope = "records"
    counter = "verify"


class MoveThrottle(ScopedThrottle):
    """Every move (off by default: a move of a seat holding its token is cheap)."""

    scope = "moves"


class ClassroomThrottle(ScopedThrottle):
    """Opening and joining classrooms, per address: each makes a key."""

    scope = "classrooms"
    per_key = False


class TableAskerMiddleware:
    """Names the client of each request (its address, as the limits count it) for
    ``games.work.tables``, which limits the new strategy tables one client may queue; work
    outside requests names nobody and is not limited."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = ASKER.set(f"address:{client_address(request)}")
        try:
            return self.get_response(request)
        finally:
            ASKER.reset(token)
