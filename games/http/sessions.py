"""A browser session as the API's caller: a course launch from a learning platform
(games.lti) signs the browser in as its classroom's teacher or as one of its students, and
the pages then call the API with that session's cookie rather than a key.

The session names the key row it acts as (its secret never issued), so the permissions,
the limits per key and a revocation by the teacher hold as for a key. A request that
carries ``X-API-Key`` is that key's, whatever its cookies. Requests that change anything
must carry Django's CSRF token in ``X-CSRFToken`` (the pages read it from its cookie): a
session cookie alone, sent by another site's form, is refused ``403 forbidden``.
"""

from collections.abc import Callable
from importlib import import_module
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import CsrfViewMiddleware

from games.classrooms.keys import Caller, caller_for_key_id

SESSION_KEY = "lti_key_id"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class _CsrfCheck(CsrfViewMiddleware):
    def _reject(self, request: HttpRequest, reason: str) -> Any:
        return reason


def _no_response(request: HttpRequest) -> HttpResponse:  # CsrfViewMiddleware wants one
    return HttpResponse()


def csrf_refusal(request: HttpRequest) -> str | None:
    """Why the request fails Django's CSRF check, or None if it passes."""
    check = _CsrfCheck(_no_response)
    check.process_request(request)
    view: Callable[..., Any] = _no_response
    reason = check.process_view(request, view, (), {})
    return reason if isinstance(reason, str) else None


def session_key_id(request: HttpRequest) -> int | None:
    """The key row the request's session acts as, if it is signed in by a launch."""
    cookie = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if not cookie:
        return None
    store = import_module(settings.SESSION_ENGINE).SessionStore(cookie)
    key_id = store.get(SESSION_KEY)
    return key_id if isinstance(key_id, int) else None


def session_caller(request: HttpRequest) -> Caller | None:
    key_id = session_key_id(request)
    return caller_for_key_id(key_id) if key_id is not None else None
