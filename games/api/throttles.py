"""Rate limits on creating games and on moves, per client address.

Rates come from ``settings.THROTTLE_RATES`` (set from the environment) when a request is
checked, so they can be changed without a restart of the test process; an empty rate turns
that limit off.
"""

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle


class ScopedThrottle(SimpleRateThrottle):
    def get_rate(self) -> str | None:
        return settings.THROTTLE_RATES.get(self.scope) or None

    def get_cache_key(self, request, view) -> str:  # noqa: ANN001
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class CreateThrottle(ScopedThrottle):
    scope = "create"


class MoveThrottle(ScopedThrottle):
    scope = "moves"
