"""Who is calling the API, and a stop for addresses that keep presenting wrong credentials.

For every path under ``/api/``:

- a request that carries credentials (``X-API-Key``, ``Authorization``, or a classroom
  join code) from an address that has failed too many checks lately is refused with 429
  before anything is checked (``THROTTLE_FAILURES``);
- ``X-API-Key`` is checked: a valid key sets ``request.caller`` (a
  ``games.classrooms.keys.Caller``), a wrong or revoked one is refused with 401
  ``invalid_api_key``, whatever the path;
- each wrong key, wrong seat token and wrong join code counts as a failure of the address
  (so does a wrong ``/metrics`` token: ``games.api.operations.metrics``).

A middleware rather than a DRF authentication class: the moves keep their seat-token
authentication, and a key must be refused the same way on every path.
"""

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext

from games.classrooms.keys import caller_for_key
from games.http.codes import HttpCode
from games.http.limits import failure_record, failures_wait
from games.http.problems import problem_response
from games.http.sessions import SAFE_METHODS, csrf_refusal, session_caller
from games.http.translation import said
from games.play.errors import ServiceCode, ServiceError

FAILED_CODES = {ServiceCode.INVALID_TOKEN, ServiceCode.INVALID_API_KEY}


def _is_join(request: HttpRequest) -> bool:
    return request.method == "POST" and request.path.rstrip("/").endswith("/classrooms/join")


def locked_out(request: HttpRequest) -> HttpResponse | None:
    """429 for a request carrying credentials from an address past ``THROTTLE_FAILURES``
    (checked before its credentials are, so the right ones are refused too), else None."""
    wait = failures_wait(request)
    if wait is None:
        return None
    response = problem_response(
        HttpCode.THROTTLED,
        gettext(
            "too many wrong keys, tokens or join codes from this address; retry in {seconds} s"
        ).format(seconds=int(wait) + 1),
    )
    response["Retry-After"] = str(int(wait) + 1)
    return response


class ApiKeyMiddleware(MiddlewareMixin):
    def process_request(self, request: HttpRequest) -> HttpResponse | None:
        request.caller = None  # type: ignore[attr-defined]  # the request's own, read by games.http.auth
        if not request.path.startswith("/api/"):
            return None
        key = request.META.get("HTTP_X_API_KEY")
        if key is not None or "HTTP_AUTHORIZATION" in request.META or _is_join(request):
            refused = locked_out(request)
            if refused is not None:
                return refused
        if key is None:
            return self._session(request)
        try:
            request.caller = caller_for_key(key.strip())  # type: ignore[attr-defined]  # the request's own, read by games.http.auth
        except ServiceError as refused:
            failure_record(request)
            response = problem_response(refused.code, said(refused))
            response["WWW-Authenticate"] = 'ApiKey header="X-API-Key"'
            return response
        return None

    @staticmethod
    def _session(request: HttpRequest) -> HttpResponse | None:
        """A browser signed in by a course launch (games.http.sessions): its caller, once
        a change carries the CSRF token; a session whose key was revoked is no caller."""
        caller = session_caller(request)
        if caller is None:
            return None
        if request.method not in SAFE_METHODS:
            reason = csrf_refusal(request)
            if reason is not None:
                return problem_response(
                    HttpCode.FORBIDDEN, gettext("CSRF check failed: {reason}").format(reason=reason)
                )
        request.caller = caller  # type: ignore[attr-defined]  # the request's own, read by games.http.auth
        return None

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if request.path.startswith("/api/") and self._failed_check(request, response):
            failure_record(request)
        return response

    @staticmethod
    def _failed_check(request: HttpRequest, response: HttpResponse) -> bool:
        data: Any = getattr(response, "data", None)
        code = data.get("code") if isinstance(data, dict) else None
        if response.status_code == 401 and code in FAILED_CODES:
            return True
        return response.status_code == 404 and _is_join(request)
