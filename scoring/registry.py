"""Every ruleset the service offers, by id."""

from .boxgames.yahtzee import Yahtzee
from .boxgames.yatzy import ForcedYatzy, MaxiYatzy, Yatzy
from .errors import ProblemCode, RuleError
from .ruleset import Ruleset
from .tenthousand.rules import TenThousand

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
