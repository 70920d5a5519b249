"""Every error the API gives, as ``application/problem+json`` (RFC 9457) with a stable code."""

import logging
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

import psycopg
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.db.utils import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, JsonResponse
from django.utils.translation import gettext, gettext_noop, ngettext
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import set_rollback

from games.http.codes import CODE_ENUMS, Code, HttpCode, Refused
from games.http.translation import said
from games.play.errors import ServiceCode, ServiceError
from games.play.strategy import RETRY_AFTER as STRATEGY_RETRY_AFTER
from scoring import ProblemCode, RuleError

logger = logging.getLogger(__name__)

PROBLEM = "application/problem+json"


@dataclass(frozen=True)
class ProblemType:
    """What every answer with one code says (RFC 9457's problem type): its status, its
    title and, when trying again later can work, the seconds to wait (``Retry-After``)."""

    status: int
    title: str
    retry_after: int | None = None


# The title of each status; a code whose status title would mislead names its own. Titles
# are English here (and in docs/errors.md) and in the request's language in answers.
_TITLE_OF_STATUS = {
    400: gettext_noop("Bad request"),
    401: gettext_noop("Not authenticated"),
    403: gettext_noop("Forbidden"),
    404: gettext_noop("Not found"),
    405: gettext_noop("Method not allowed"),
    406: gettext_noop("Not acceptable"),
    408: gettext_noop("Request timeout"),
    409: gettext_noop("Move not allowed"),
    412: gettext_noop("Version mismatch"),
    413: gettext_noop("Request too large"),
    415: gettext_noop("Unsupported media type"),
    416: gettext_noop("Range not satisfiable"),
    422: gettext_noop("Idempotency key reused"),
    429: gettext_noop("Too many requests"),
    431: gettext_noop("Request header fields too large"),
    500: gettext_noop("Server error"),
    503: gettext_noop("Service unavailable"),
}


def title_of_status(status: int) -> str:
    """The (English, marked) title of a status, for a refusal made below the API's views: a
    status without one of its own is a bad request or a server error."""
    return _TITLE_OF_STATUS.get(status) or _TITLE_OF_STATUS[500 if status >= 500 else 400]


def _type(status: int, title: str | None = None, retry_after: int | None = None) -> ProblemType:
    return ProblemType(status, title or _TITLE_OF_STATUS[status], retry_after)


# What every code answers, the rules' (``ProblemCode``), the services' (``ServiceCode``) and
# HTTP's own (``HttpCode``), by status in the order the docs list them: the one registry. A
# code is a member of the enum, so a misspelled one fails at import and in the type check; a
# test checks that every member is here. A code that arrives as a string (DRF's own
# refusals name theirs) is looked up by ``problem_code``, which refuses any other: a bug,
# answered as a 500, not a 400.
PROBLEM_TYPES: dict[Code, ProblemType] = {
    ProblemCode.INVALID: _type(400),
    HttpCode.PARSE_ERROR: _type(400),
    HttpCode.UNKNOWN_FIELD: _type(400),
    ProblemCode.UNKNOWN_CATEGORY: _type(400),
    ProblemCode.UNKNOWN_RULESET: _type(400),
    ProblemCode.INVALID_DICE: _type(400),
    ServiceCode.URL_NOT_ALLOWED: _type(400, gettext_noop("URL not allowed")),
    ServiceCode.TOO_MANY_WEBHOOKS: _type(400, gettext_noop("Too many webhooks")),
    ServiceCode.TOURNAMENT_TOO_LARGE: _type(400, gettext_noop("Tournament too large")),
    ServiceCode.LTI_LAUNCH_INVALID: _type(400, gettext_noop("Launch refused")),
    ServiceCode.NOT_AUTHENTICATED: _type(401),
    ServiceCode.INVALID_TOKEN: _type(401),
    ServiceCode.INVALID_API_KEY: _type(401),
    HttpCode.FORBIDDEN: _type(403),
    ServiceCode.QUOTA_ABOVE_DEFAULT: _type(403, gettext_noop("Quota above the default")),
    ServiceCode.LTI_NOT_REGISTERED: _type(403, gettext_noop("Platform not registered")),
    ServiceCode.LTI_REPLAYED: _type(403, gettext_noop("Launch replayed")),
    ServiceCode.LTI_ROLE_UNKNOWN: _type(403, gettext_noop("No role for this tool")),
    ServiceCode.NOT_FOUND: _type(404),
    HttpCode.METHOD_NOT_ALLOWED: _type(405),
    HttpCode.NOT_ACCEPTABLE: _type(406),
    HttpCode.REQUEST_TIMEOUT: _type(408),  # the server's own (games.serving.protocol)
    ProblemCode.NOT_YOUR_TURN: _type(409),
    ProblemCode.GAME_NOT_ACTIVE: _type(409),
    ProblemCode.NO_ROLLS_LEFT: _type(409),
    ProblemCode.ROLL_FIRST: _type(409),
    ProblemCode.CATEGORY_FILLED: _type(409),
    ProblemCode.CATEGORY_NOT_ALLOWED: _type(409),
    ProblemCode.NOT_SCORING: _type(409),
    ProblemCode.BANK_TOO_LOW: _type(409),
    ProblemCode.GAME_FULL: _type(409),
    ProblemCode.TOO_MANY_HOLDS: _type(409),
    ServiceCode.ANALYSIS_UNAVAILABLE: _type(409, gettext_noop("Analysis not available")),
    ServiceCode.NAME_TAKEN: _type(409),
    ServiceCode.JOINING_CLOSED: _type(409, gettext_noop("Joining closed")),
    ServiceCode.ASSIGNMENT_NOT_OPEN: _type(409, gettext_noop("Assignment not open")),
    ServiceCode.ASSIGNMENT_COMPLETE: _type(409, gettext_noop("Assignment complete")),
    ServiceCode.TOURNAMENT_OVER: _type(409, gettext_noop("Tournament over")),
    ServiceCode.TOO_MANY_BOTS: _type(409, gettext_noop("Too many bots")),
    ServiceCode.LTI_NOT_LINKED: _type(409, gettext_noop("Not a platform course")),
    ServiceCode.VERSION_MISMATCH: _type(412),
    HttpCode.REQUEST_TOO_LARGE: _type(413),
    HttpCode.UNSUPPORTED_MEDIA_TYPE: _type(415),
    HttpCode.RANGE_NOT_SATISFIABLE: _type(416),  # WhiteNoise's bodiless 416 (problem_middleware)
    ServiceCode.IDEMPOTENCY_KEY_REUSED: _type(422),
    HttpCode.THROTTLED: _type(429),
    ServiceCode.TOO_MANY_STREAMS: _type(429, gettext_noop("Too many streams"), retry_after=15),
    HttpCode.HEADERS_TOO_LARGE: _type(431),  # the server's own (games.serving.protocol)
    ServiceCode.SERVER_ERROR: _type(500),
    ServiceCode.LTI_PLATFORM_UNAVAILABLE: _type(502, gettext_noop("Learning platform unavailable")),
    HttpCode.DATABASE_UNAVAILABLE: _type(503, retry_after=5),
    ServiceCode.STRATEGY_UNAVAILABLE: _type(503, retry_after=STRATEGY_RETRY_AFTER),
}
# What Django (and psycopg, where code uses it directly) raise when the database cannot be
# reached or a connection is lost: not the request's fault, and over once it is back.
DATABASE_ERRORS = (
    OperationalError, InterfaceError, psycopg.OperationalError, psycopg.InterfaceError
)
# A field error with one of these codes names the whole problem; any other is "invalid".
FIELD_CODES = frozenset(
    {
        HttpCode.UNKNOWN_FIELD,
        ProblemCode.UNKNOWN_CATEGORY,
        ProblemCode.UNKNOWN_RULESET,
        ProblemCode.INVALID_DICE,
    }
)


# A refusal lists the first few faults of a body, and counts the others: what it costs to
# write and to read stays small whatever the body held.
MOST_ERRORS_SHOWN = 5


class FieldErrorBody(TypedDict):
    field: str
    code: str
    detail: str


# The shape of every error body; ``games.api.schema.responses`` derives the schema's from it.
class ProblemBody(TypedDict):
    type: str
    title: str
    status: int
    detail: str
    code: str
    errors: NotRequired[list[FieldErrorBody]]
    # How many faults of the body ``errors`` leaves out (present only when some are).
    more_errors: NotRequired[int]


class UnknownProblemCode(LookupError):
    """A code that :data:`PROBLEM_TYPES` does not declare: the code that raised it is wrong."""


def problem_code(code: str) -> Code:
    """The member named by a code that arrives as a string (DRF's, a body's)."""
    for codes in CODE_ENUMS:
        try:
            return codes(code)
        except ValueError:
            continue
    raise UnknownProblemCode(
        f"{code!r} is no problem code: declare it in the rules', the services' or HTTP's "
        "codes, and in PROBLEM_TYPES"
    )


def problem_type(code: Code) -> ProblemType:
    return PROBLEM_TYPES[problem_code(code)]


def problem(
    code: Code, detail: str, errors: list[FieldErrorBody] | None = None
) -> ProblemBody:
    """The document of a refusal: ``detail`` (and each error's) already in the request's
    language (``games.http.translation``), the title put in it here."""
    kind = problem_type(code)
    body: ProblemBody = {
        "type": f"urn:dice-games:problem:{code}",
        "title": gettext(kind.title),
        "status": kind.status,
        "detail": detail,
        "code": str(code),  # the plain string: bodies are rendered as JSON and as YAML
    }
    if errors:
        body["errors"] = errors
    return body


def problem_response(code: Code, detail: str, **extra: Any) -> JsonResponse:
    """For errors raised outside DRF's views (unknown URLs, Django's own 404 and 500)."""
    body: dict[str, Any] = {**problem(code, detail), **extra}
    return JsonResponse(
        body, status=body["status"], content_type=PROBLEM, headers=problem_headers(body)
    )


def _field_errors(detail: Any, prefix: str = "") -> list[FieldErrorBody]:
    """Flatten DRF's nested validation details into ``[{field, code, detail}]``."""
    if isinstance(detail, dict):
        return [
            error
            for key, value in detail.items()
            for error in _field_errors(value, key if not prefix else f"{prefix}.{key}")
        ]
    if isinstance(detail, list):
        if all(isinstance(item, exceptions.ErrorDetail) for item in detail):
            return [
                {"field": prefix or "body", "code": str(item.code), "detail": str(item)}
                for item in detail
            ]
        return [
            error
            for i, item in enumerate(detail)
            for error in _field_errors(item, f"{prefix}.{i}" if prefix else str(i))
        ]
    return [
        {
            "field": prefix or "body",
            "code": str(getattr(detail, "code", ProblemCode.INVALID)),
            "detail": str(detail),
        }
    ]


def _body_for(exc: BaseException | None) -> ProblemBody | None:
    """The problem document for an exception, or None for one that is a bug (500)."""
    if isinstance(exc, DATABASE_ERRORS):
        logger.warning("database unavailable: %s", str(exc).strip() or type(exc).__name__)
        return problem(
            HttpCode.DATABASE_UNAVAILABLE,
            gettext("the database cannot be reached; try again soon"),
        )
    if isinstance(exc, RuleError | ServiceError | Refused):
        detail = said(exc)
        fault: list[FieldErrorBody] | None = None
        if exc.field:
            fault = [{"field": exc.field, "code": str(exc.code), "detail": detail}]
        return problem(exc.code, detail, fault)
    if isinstance(exc, exceptions.ValidationError):
        return _invalid(_field_errors(exc.detail))
    if isinstance(exc, Http404):
        return problem(ServiceCode.NOT_FOUND, gettext("not found"))
    if isinstance(exc, RecursionError):
        return problem(HttpCode.PARSE_ERROR, gettext("the JSON is nested too deeply"))
    if isinstance(exc, RequestDataTooBig):
        return problem(HttpCode.REQUEST_TOO_LARGE, gettext("the request body is too large"))
    if isinstance(exc, SuspiciousOperation):
        return problem(
            ProblemCode.INVALID, gettext("the request was refused: {reason}").format(reason=exc)
        )
    if isinstance(exc, exceptions.AuthenticationFailed | exceptions.NotAuthenticated):
        # DRF's own refusals (its default codes) are ``not_authenticated``; ours name theirs.
        given = exc.get_codes()
        if not isinstance(given, str) or given == exceptions.AuthenticationFailed.default_code:
            return problem(ServiceCode.NOT_AUTHENTICATED, str(exc.detail))
        return problem(problem_code(given), str(exc.detail))
    if isinstance(exc, exceptions.APIException):
        return problem(problem_code(exc.default_code), str(exc.detail))
    return None


def _invalid(errors: list[FieldErrorBody]) -> ProblemBody:
    """The refusal of a body with these faults: the first few, and how many more."""
    code = next(
        (problem_code(e["code"]) for e in errors if e["code"] in FIELD_CODES),
        ProblemCode.INVALID,
    )
    shown, more = errors[:MOST_ERRORS_SHOWN], len(errors) - MOST_ERRORS_SHOWN
    detail = "; ".join(
        gettext("{field}: {detail}").format(field=e["field"], detail=e["detail"]) for e in shown
    )
    body = problem(code, detail, shown)
    if more > 0:
        body["detail"] += ngettext("; and {count} more", "; and {count} more", more).format(
            count=more
        )
        body["more_errors"] = more
    return body


def problem_headers(body: Mapping[str, Any]) -> dict[str, str]:
    """The headers every answer with this problem carries."""
    headers = {}
    if body["status"] == 401:
        headers["WWW-Authenticate"] = 'Bearer realm="api"'
    retry_after = problem_type(problem_code(body["code"])).retry_after
    if retry_after is not None:
        headers["Retry-After"] = str(retry_after)
    return headers


class ProblemRenderer(JSONRenderer):
    """JSON, labelled as a problem document."""

    media_type = PROBLEM
    format = "problem+json"


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    body = _body_for(exc)
    if body is None:
        logger.error("unexpected error", exc_info=exc)
        body = problem(
            ServiceCode.SERVER_ERROR, gettext("the server failed to answer; the failure is logged")
        )
    set_rollback()
    headers = problem_headers(body)
    if isinstance(exc, exceptions.Throttled):
        wait = exc.wait  # type: ignore[attr-defined]  # set by __init__; the stubs omit it
        if wait is not None:
            headers["Retry-After"] = str(int(wait) + 1)
    # Whatever the view renders (HTML for the docs, YAML for the schema), and whatever the
    # client accepted, or failed to (406), a problem is rendered as JSON.
    request = context.get("request")
    if request is not None:
        request.accepted_renderer = ProblemRenderer()
        request.accepted_media_type = PROBLEM
    return Response(body, status=body["status"], headers=headers, content_type=PROBLEM)


@csrf_exempt  # an unknown path is not found, whatever the method and cookies
def not_found(
    request: HttpRequest, exception: Exception | None = None, **kwargs: Any
) -> JsonResponse:
    return problem_response(
        ServiceCode.NOT_FOUND,
        gettext(
            "nothing at {path}; the API's paths end with a slash (see /api/v1/docs/)"
        ).format(path=request.path),
    )


def server_error(request: HttpRequest) -> JsonResponse:
    """Django's answer to an exception no view handled: raised by middleware (sessions on
    the admin), by a plain Django view, or by DRF re-raising. Django calls this inside its
    ``except`` block, so the exception is at hand: a lost database is a 503 here too."""
    body = _body_for(sys.exc_info()[1])
    if body is not None and body["code"] == HttpCode.DATABASE_UNAVAILABLE:
        return problem_response(HttpCode.DATABASE_UNAVAILABLE, body["detail"])
    return problem_response(
        ServiceCode.SERVER_ERROR, gettext("the server failed to answer; the failure is logged")
    )


def bad_request(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    if isinstance(exception, RequestDataTooBig):
        return problem_response(
            HttpCode.REQUEST_TOO_LARGE, gettext("the request body is too large")
        )
    return problem_response(ProblemCode.INVALID, gettext("the request was refused as malformed"))


def forbidden(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return problem_response(HttpCode.FORBIDDEN, gettext("this request is not allowed"))
