"""Every error the API gives, as ``application/problem+json`` (RFC 9457) with a stable code."""

import logging
import sys
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

import psycopg
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.db.utils import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import set_rollback

from games.play.strategy import RETRY_AFTER as STRATEGY_RETRY_AFTER
from scoring import RuleError

logger = logging.getLogger(__name__)

PROBLEM = "application/problem+json"


@dataclass(frozen=True)
class ProblemType:
    """What every answer with one code says (RFC 9457's problem type): its status, its
    title and, when trying again later can work, the seconds to wait (``Retry-After``)."""

    status: int
    title: str
    retry_after: int | None = None


# The title of each status; a code whose status title would mislead names its own.
_TITLE_OF_STATUS = {
    400: "Bad request",
    401: "Not authenticated",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    406: "Not acceptable",
    409: "Move not allowed",
    412: "Version mismatch",
    413: "Request too large",
    415: "Unsupported media type",
    416: "Range not satisfiable",
    422: "Idempotency key reused",
    429: "Too many requests",
    500: "Server error",
    503: "Service unavailable",
}


def _type(status: int, title: str | None = None, retry_after: int | None = None) -> ProblemType:
    return ProblemType(status, title or _TITLE_OF_STATUS[status], retry_after)


# Every code the API answers with, by status in the order the docs list them. This is the
# one place a code is declared: ``problem()`` refuses any other (a bug, not a 400), and a
# test reads the sources so that no code is raised without being declared here.
PROBLEM_TYPES: dict[str, ProblemType] = {
    "invalid": _type(400),
    "parse_error": _type(400),
    "unknown_field": _type(400),
    "unknown_category": _type(400),
    "unknown_ruleset": _type(400),
    "invalid_dice": _type(400),
    "url_not_allowed": _type(400, "URL not allowed"),
    "too_many_webhooks": _type(400, "Too many webhooks"),
    "not_authenticated": _type(401),
    "invalid_token": _type(401),
    "invalid_api_key": _type(401),
    "forbidden": _type(403),
    "quota_above_default": _type(403, "Quota above the default"),
    "not_found": _type(404),
    "method_not_allowed": _type(405),
    "not_acceptable": _type(406),
    "not_your_turn": _type(409),
    "game_not_active": _type(409),
    "no_rolls_left": _type(409),
    "roll_first": _type(409),
    "category_filled": _type(409),
    "category_not_allowed": _type(409),
    "not_scoring": _type(409),
    "bank_too_low": _type(409),
    "game_full": _type(409),
    "too_many_holds": _type(409),
    "analysis_unavailable": _type(409, "Analysis not available"),
    "name_taken": _type(409),
    "joining_closed": _type(409, "Joining closed"),
    "assignment_not_open": _type(409, "Assignment not open"),
    "assignment_complete": _type(409, "Assignment complete"),
    "version_mismatch": _type(412),
    "request_too_large": _type(413),
    "unsupported_media_type": _type(415),
    "range_not_satisfiable": _type(416),  # WhiteNoise's bodiless 416 (problem_middleware)
    "idempotency_key_reused": _type(422),
    "throttled": _type(429),
    "server_error": _type(500),
    "database_unavailable": _type(503, retry_after=5),
    "strategy_unavailable": _type(503, retry_after=STRATEGY_RETRY_AFTER),
}
# What Django (and psycopg, where code uses it directly) raise when the database cannot be
# reached or a connection is lost: not the request's fault, and over once it is back.
DATABASE_ERRORS = (
    OperationalError, InterfaceError, psycopg.OperationalError, psycopg.InterfaceError
)
# A field error with one of these codes names the whole problem; any other is "invalid".
FIELD_CODES = {"unknown_field", "unknown_category", "unknown_ruleset", "invalid_dice"}


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


class UnknownProblemCode(LookupError):
    """A code that :data:`PROBLEM_TYPES` does not declare: the code that raised it is wrong."""


def problem_type(code: str) -> ProblemType:
    try:
        return PROBLEM_TYPES[code]
    except KeyError:
        raise UnknownProblemCode(
            f"{code!r} is no problem code: declare it in PROBLEM_TYPES"
        ) from None


def problem(code: str, detail: str, errors: list[FieldErrorBody] | None = None) -> ProblemBody:
    kind = problem_type(code)
    body: ProblemBody = {
        "type": f"urn:dice-games:problem:{code}",
        "title": kind.title,
        "status": kind.status,
        "detail": detail,
        "code": code,
    }
    if errors:
        body["errors"] = errors
    return body


def problem_response(code: str, detail: str, **extra: Any) -> JsonResponse:
    """For errors raised outside DRF's views (unknown URLs, Django's own 404 and 500)."""
    body = problem(code, detail) | extra
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
                {"field": prefix or "body", "code": item.code, "detail": str(item)}
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
            "code": getattr(detail, "code", "invalid"),
            "detail": str(detail),
        }
    ]


def _body_for(exc: BaseException | None) -> dict[str, Any] | None:
    """The problem document for an exception, or None for one that is a bug (500)."""
    if isinstance(exc, DATABASE_ERRORS):
        logger.warning("database unavailable: %s", str(exc).strip() or type(exc).__name__)
        return problem("database_unavailable", "the database cannot be reached; try again soon")
    if isinstance(exc, RuleError):
        errors = (
            [{"field": exc.field, "code": exc.code, "detail": exc.detail}] if exc.field else None
        )
        return problem(exc.code, exc.detail, errors)
    if isinstance(exc, exceptions.ValidationError):
        errors = _field_errors(exc.detail)
        code = next((e["code"] for e in errors if e["code"] in FIELD_CODES), "invalid")
        detail = "; ".join(f"{e['field']}: {e['detail']}" for e in errors)
        return problem(code, detail, errors)
    if isinstance(exc, Http404):
        return problem("not_found", "not found")
    if isinstance(exc, RecursionError):
        return problem("parse_error", "the JSON is nested too deeply")
    if isinstance(exc, RequestDataTooBig):
        return problem("request_too_large", "the request body is too large")
    if isinstance(exc, SuspiciousOperation):
        return problem("invalid", f"the request was refused: {exc}")
    if isinstance(exc, exceptions.AuthenticationFailed | exceptions.NotAuthenticated):
        # DRF's own refusals (its default codes) are ``not_authenticated``; ours name theirs.
        code = exc.get_codes()
        if not isinstance(code, str) or code == exceptions.AuthenticationFailed.default_code:
            code = "not_authenticated"
        return problem(code, str(exc.detail))
    if isinstance(exc, exceptions.APIException):
        return problem(exc.default_code, str(exc.detail))
    return None


def problem_headers(body: dict[str, Any]) -> dict[str, str]:
    """The headers every answer with this problem carries."""
    headers = {}
    if body["status"] == 401:
        headers["WWW-Authenticate"] = 'Bearer realm="api"'
    retry_after = problem_type(body["code"]).retry_after
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
        logger.exception("unexpected error", exc_info=exc)
        body = problem("server_error", "the server failed to answer; the failure is logged")
    set_rollback()
    headers = problem_headers(body)
    if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
        headers["Retry-After"] = str(int(exc.wait) + 1)
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
        "not_found",
        f"nothing at {request.path}; the API's paths end with a slash (see /api/v1/docs/)",
    )


def server_error(request: HttpRequest) -> JsonResponse:
    """Django's answer to an exception no view handled: raised by middleware (sessions on
    the admin), by a plain Django view, or by DRF re-raising. Django calls this inside its
    ``except`` block, so the exception is at hand: a lost database is a 503 here too."""
    body = _body_for(sys.exc_info()[1])
    if body is not None and body["code"] == "database_unavailable":
        return problem_response("database_unavailable", body["detail"])
    return problem_response("server_error", "the server failed to answer; the failure is logged")


def bad_request(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    if isinstance(exception, RequestDataTooBig):
        return problem_response("request_too_large", "the request body is too large")
    return problem_response("invalid", "the request was refused as malformed")


def forbidden(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return problem_response("forbidden", "this request is not allowed")
