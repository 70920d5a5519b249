"""Refusals that come from the services rather than the rules: who is asking, versions,
retries, classrooms, webhooks. Their codes live here, beside the services that raise them,
so that the rules (``scoring``) declare only their own; the HTTP layer gives each its
status (``games.http.problems``)."""

from enum import StrEnum, unique

from scoring import ProblemCode, RuleError
from scoring.errors import Worded


@unique
class ServiceCode(StrEnum):
    """The codes a service refuses with, besides the rules' (``scoring.ProblemCode``), which a
    service gives too where its check is the rules' own (``invalid``, ``game_not_active``)."""

    URL_NOT_ALLOWED = "url_not_allowed"
    TOO_MANY_WEBHOOKS = "too_many_webhooks"
    NOT_AUTHENTICATED = "not_authenticated"
    INVALID_TOKEN = "invalid_token"
    INVALID_API_KEY = "invalid_api_key"
    QUOTA_ABOVE_DEFAULT = "quota_above_default"
    NOT_FOUND = "not_found"
    ANALYSIS_UNAVAILABLE = "analysis_unavailable"
    NAME_TAKEN = "name_taken"
    JOINING_CLOSED = "joining_closed"
    ASSIGNMENT_NOT_OPEN = "assignment_not_open"
    ASSIGNMENT_COMPLETE = "assignment_complete"
    TOURNAMENT_TOO_LARGE = "tournament_too_large"
    TOURNAMENT_OVER = "tournament_over"
    VERSION_MISMATCH = "version_mismatch"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    SERVER_ERROR = "server_error"
    STRATEGY_UNAVAILABLE = "strategy_unavailable"
    TOO_MANY_BOTS = "too_many_bots"
    TOO_MANY_STREAMS = "too_many_streams"
    LTI_LAUNCH_INVALID = "lti_launch_invalid"
    LTI_NOT_REGISTERED = "lti_not_registered"
    LTI_REPLAYED = "lti_replayed"
    LTI_ROLE_UNKNOWN = "lti_role_unknown"
    LTI_NOT_LINKED = "lti_not_linked"
    LTI_PLATFORM_UNAVAILABLE = "lti_platform_unavailable"


class ServiceError(Worded):
    """A service's refusal, with one of the contract's codes (``not_found``,
    ``invalid_token``...); ``field`` names the input at fault, if any. Not a ``RuleError``:
    the rules' refusals are the engine's, and code that catches one means the engine's.
    ``message`` is marked for translation (``gettext_noop``) and takes ``params``' values in
    its named fields, as a rule's refusal does (``scoring.errors.Worded``)."""

    def __init__(
        self,
        code: ServiceCode | ProblemCode,
        message: str,
        *,
        field: str | None = None,
        **params: object,
    ) -> None:
        super().__init__(message, field, params)
        self.code = code

    def __repr__(self) -> str:
        return f"ServiceError({str(self.code)!r}, {self.detail!r})"


# What a caller of the services catches as "refused": the service's own refusals and the
# rules' it lets through (a move the engine refuses).
REFUSALS = (RuleError, ServiceError)
