"""Rule errors carry the contract's stable codes; the HTTP layer maps each code to a status.

Their words are for people: written in English where they arise and shown in the reader's
language where the service answers (the HTTP layer, which has the catalogues:
docs/translating.md). The rules know nothing of Django, so they mark such words with a marker
of their own that does nothing here, named as Django's is (``gettext_noop``), so that the
extractor finds each marked string. A refusal's words are a template with named fields
(``"the {category} box is already filled"``), given with their values: the reader's language
may order them otherwise.
"""

from collections.abc import Mapping
from enum import StrEnum, unique
from typing import NamedTuple


class Words(NamedTuple):
    """A phrase that fills a field of another message (``"{what} is being built"``), itself
    a marked template with its fields: shown in the same language as the message."""

    message: str
    params: Mapping[str, object] = {}

    def __str__(self) -> str:
        return worded(self.message, self.params)


def gettext_noop(message: str) -> str:
    """``message`` as it is: marked for translation where it is shown."""
    return message


def worded(message: str, params: Mapping[str, object]) -> str:
    """The template with its fields filled in (a template without fields is as written)."""
    if not params:
        return message
    return message.format(**{name: _shown(value) for name, value in params.items()})


def _shown(value: object) -> object:
    return str(value) if isinstance(value, Words) else value


class Worded(Exception):
    """A refusal in words: ``message`` the English template, ``params`` its fields' values,
    ``detail`` the two together in English; ``field`` names the input at fault, if any (and
    fills a ``{field}`` of the template)."""

    def __init__(self, message: str, field: str | None, params: Mapping[str, object]) -> None:
        self.message = message
        self.params = dict(params) if field is None else {"field": field, **params}
        self.detail = worded(message, self.params)
        self.field = field
        super().__init__(self.detail)


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


class RuleError(Worded):
    """A move or an input that the rules refuse.

    ``code`` is one of the stable codes of the public contract (``no_rolls_left``,
    ``category_filled``, ``invalid_dice``...); ``field`` names the input at fault, if any.
    ``message`` is marked for translation (``gettext_noop``) and takes ``params``' values in
    its named fields (:class:`scoring.errors.Worded`); ``detail`` is the English.
    """

    def __init__(
        self, code: ProblemCode, message: str, *, field: str | None = None, **params: object
    ) -> None:
        super().__init__(message, field, params)
        self.code = code

    def __repr__(self) -> str:
        return f"RuleError({str(self.code)!r}, {self.detail!r})"
