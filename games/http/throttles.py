"""Rate limits on what is costly: creating games and seats, advice, classrooms.

Counted per API key when the request carries a valid one (the limits then follow the
key's classroom quota), else per client address; the counters are shared by every worker
and host (see ``games.http.limits``). Rates come from ``settings.THROTTLE_RATES`` when a request
is checked, so tests may change them; an empty rate turns that limit off.
"""

from django.conf import settings
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from games.http.limits import Window, client_address, hit, parse_rates


class ScopedThrottle(BaseThrottle):
    scope = ""
    # The classroom quota's field that replaces the rate for a key holder, if any.
    quota_field: str | None = None
    # Whether a key holder is counted per key (else always per address).
    per_key = True

    def allow_request(self, request: Request, view) -> bool:  # noqa: ANN001
        caller = getattr(request, "caller", None) if self.per_key else None
        if caller is not None:
            ident = f"key:{caller.key_id}"
            windows = self.key_windows(caller.classroom.quota)
        else:
            ident = f"address:{client_address(request)}"
            windows = self.address_windows()
        self._wait = hit(scope=self.scope, ident=ident, windows=windows) if windows else None
        return self._wait is None

    def address_windows(self) -> tuple[Window, ...]:
        rate = settings.THROTTLE_RATES.get(self.scope) or ""
        return parse_rates(rate, name=f"THROTTLE_{self.scope.upper()}")

    def key_windows(self, quota: dict) -> tuple[Window, ...]:
        if self.quota_field is not None and self.quota_field in quota:
            return (Window(int(quota[self.quota_field]), 3600),)
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


class MoveThrottle(ScopedThrottle):
    """Every move (off by default: a move of a seat holding its token is cheap)."""

    scope = "moves"


class ClassroomThrottle(ScopedThrottle):
    """Opening and joining classrooms, per address: each makes a key."""

    scope = "classrooms"
    per_key = False
