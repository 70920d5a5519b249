"""Rule errors carry the contract's stable codes; the HTTP layer maps each code to a status."""

from enum import StrEnum, unique


@unique
class ProblemCode(StrEnum):
    """Every code the API answers an error with, the rules' own and the service's.

    One enum, so that a misspelled code is a name that does not exist (an error at import
    and in the type check) rather than a string that reaches a client. It lives here, free
    of Django, because the rules raise most of the codes; ``games.http.problems`` gives
    each its status and title. A member is its code: ``str(ProblemCode.NOT_FOUND)`` is
    ``"not_found"``, so the bodies are the same strings they were.
    """

    INVALID = "invalid"
    PARSE_ERROR = "parse_error"
    UNKNOWN_FIELD = "unknown_field"
    UNKNOWN_CATEGORY = "unknown_category"
    UNKNOWN_RULESET = "unknown_ruleset"
    INVALID_DICE = "invalid_dice"
    URL_NOT_ALLOWED = "url_not_allowed"
    TOO_MANY_WEBHOOKS = "too_many_webhooks"
    NOT_AUTHENTICATED = "not_authenticated"
    INVALID_TOKEN = "invalid_token"
    INVALID_API_KEY = "invalid_api_key"
    FORBIDDEN = "forbidden"
    QUOTA_ABOVE_DEFAULT = "quota_above_default"
    NOT_FOUND = "not_found"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    NOT_ACCEPTABLE = "not_acceptable"
    REQUEST_TIMEOUT = "request_timeout"
    NOT_YOUR_TURN = "not_your_turn"
    GAME_NOT_ACTIVE = "game_not_active"
    NO_ROLLS_LEFT = "no_rolls_left"
    ROLL_FIRST = "roll_first"
    CATEGORY_FILLED = "category_filled"
    CATEGORY_NOT_ALLOWED = "category_not_allowed"
    NOT_SCORING = "not_scoring"
    BANK_TOO_LOW = "bank_too_low"
    GAME_FULL = "game_full"
    TOO_MANY_HOLDS = "too_many_holds"
    ANALYSIS_UNAVAILABLE = "analysis_unavailable"
    NAME_TAKEN = "name_taken"
    JOINING_CLOSED = "joining_closed"
    ASSIGNMENT_NOT_OPEN = "assignment_not_open"
    ASSIGNMENT_COMPLETE = "assignment_complete"
    VERSION_MISMATCH = "version_mismatch"
    REQUEST_TOO_LARGE = "request_too_large"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    RANGE_NOT_SATISFIABLE = "range_not_satisfiable"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    THROTTLED = "throttled"
    HEADERS_TOO_LARGE = "headers_too_large"
    SERVER_ERROR = "server_error"
    DATABASE_UNAVAILABLE = "database_unavailable"
    STRATEGY_UNAVAILABLE = "strategy_unavailable"


class RuleError(Exception):
    """A move or an input that the rules refuse.

    ``code`` is one of the stable codes of the public contract (``no_rolls_left``,
    ``category_filled``, ``invalid_dice``...); ``field`` names the input at fault, if any.
    """

    def __init__(self, code: ProblemCode, detail: str, *, field: str | None = None) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.field = field

    def __repr__(self) -> str:
        return f"RuleError({str(self.code)!r}, {self.detail!r})"
