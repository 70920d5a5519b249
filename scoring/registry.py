"""Every ruleset the service offers, by id."""

from .errors import ProblemCode, RuleError
from .ruleset import Ruleset
from .tenthousand import TenThousand
from .yahtzee import Yahtzee
from .yatzy import ForcedYatzy, MaxiYatzy, Yatzy

RULESETS: dict[str, Ruleset] = {ruleset.id: ruleset for ruleset in (
    Yahtzee(),
    Yatzy(), ForcedYatzy(), MaxiYatzy(),
    TenThousand(),
)}


def get_ruleset(ruleset_id: object) -> Ruleset:
    try:
        return RULESETS[ruleset_id]  # type: ignore[index]  # any value asked; refused below
    except (KeyError, TypeError):
        known = ", ".join(RULESETS)
        raise RuleError(
            ProblemCode.UNKNOWN_RULESET,
            f"no ruleset {ruleset_id!r}; known: {known}", field="ruleset"
        ) from None
