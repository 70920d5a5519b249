"""Counts every HTTP request and times it, by route (``games.observe.metrics``). Outermost,
so that it sees each answer as the client gets it."""

import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase

from games.observe.metrics import LATENCY, REQUESTS

# Any other method is counted as "other": a label takes a bounded set of values.
METHODS = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}


class RequestMetricsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        started = time.perf_counter()
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        route = (match.view_name or match.route) if match is not None else "unmatched"
        method = request.method if request.method in METHODS else "other"
        REQUESTS.labels(route, method, str(response.status_code)).inc()
        LATENCY.labels(route).observe(time.perf_counter() - started)
        return response
