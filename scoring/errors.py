"""Rule errors carry the contract's stable codes; the HTTP layer maps each code to a status."""

from enum import StrEnum, unique


@unique
class ProblemCode(StrEnum):
    """The codes the rules raise: each is raised somewhere in ``scoring/`` (a test checks it),
    and no other is declared here.

    One enum, so that a misspelled code is a name that does not exist (an error at import
    and in the type check) rather than a string that reaches a client. The service's own
    refusals (``not_found``, ``version_mismatch``...) have their codes with the services
    (``games.play.errors.ServiceCode``), and those only HTTP gives (``parse_error``,
    ``throttled``...) with it (``games.http.codes.HttpCode``); ``games.http.problems`` gives
    every code of the three its status and title. A member is its code:
    ``str(ProblemCode.NO_ROLLS_LEFT)`` is ``"no_rolls_left"``.
    """

    INVALID = "invalid"
    UNKNOWN_CATEGORY = "unknown_category"
    UNKNOWN_RULESET = "unknown_ruleset"
    INVALID_DICE = "invalid_dice"
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
