"""The codes only the HTTP layer answers with: refusals of the request itself (its body, its
method, its media type, its rate) and of the server (the database gone). The rules' codes
are ``scoring.ProblemCode``, the services' ``games.play.errors.ServiceCode``; the registry
(``games.http.problems``) gives every code of the three its status and title."""

from enum import StrEnum, unique

from games.play.errors import ServiceCode
from scoring import ProblemCode
from scoring.errors import Worded


@unique
class HttpCode(StrEnum):
    """The HTTP layer's own codes: a member is its code, as the rules' and services' are."""

    PARSE_ERROR = "parse_error"
    UNKNOWN_FIELD = "unknown_field"
    FORBIDDEN = "forbidden"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    NOT_ACCEPTABLE = "not_acceptable"
    REQUEST_TIMEOUT = "request_timeout"
    REQUEST_TOO_LARGE = "request_too_large"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    RANGE_NOT_SATISFIABLE = "range_not_satisfiable"
    THROTTLED = "throttled"
    HEADERS_TOO_LARGE = "headers_too_large"
    DATABASE_UNAVAILABLE = "database_unavailable"


# Any code the API answers with: the rules', the services' or HTTP's own.
Code = ProblemCode | ServiceCode | HttpCode
CODE_ENUMS: tuple[type[ProblemCode], type[ServiceCode], type[HttpCode]] = (
    ProblemCode,
    ServiceCode,
    HttpCode,
)


class Refused(Worded):
    """A refusal the HTTP layer decides itself (a permission class's), with any code: it is
    answered as a problem document like a service's refusal (``problems.exception_handler``),
    its ``message`` in the request's language (``scoring.errors.Worded``)."""

    def __init__(self, code: Code, message: str, **params: object) -> None:
        super().__init__(message, None, params)
        self.code = code

    def __repr__(self) -> str:
        return f"Refused({str(self.code)!r}, {self.detail!r})"
