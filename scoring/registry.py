"""Every ruleset the service offers, by id, and the family each belongs to.

A family registers here with its rulesets (:mod:`scoring.family`); nothing else lists them.
"""

from .boxgames.family import BOX_GAMES
from .errors import ProblemCode, RuleError, gettext_noop
from .family import Family
from .ruleset import Ruleset
from .tenthousand.family import TEN_THOUSAND

FAMILIES: dict[str, Family] = {family.id: family for family in (BOX_GAMES, TEN_THOUSAND)}
RULESETS: dict[str, Ruleset] = {
    ruleset.id: ruleset for family in FAMILIES.values() for ruleset in family.rulesets
}
_FAMILY_OF: dict[str, Family] = {
    ruleset.id: family for family in FAMILIES.values() for ruleset in family.rulesets
}


def family_of(ruleset: Ruleset | str) -> Family:
    """The family of a ruleset (or of a known ruleset id): what the service asks instead of
    telling rulesets apart by class."""
    return _FAMILY_OF[ruleset if isinstance(ruleset, str) else ruleset.id]


def get_ruleset(ruleset_id: object) -> Ruleset:
    try:
        return RULESETS[ruleset_id]  # type: ignore[index]  # any value asked; refused below
    except (KeyError, TypeError):
        known = ", ".join(RULESETS)
        raise RuleError(
            ProblemCode.UNKNOWN_RULESET,
            gettext_noop("no ruleset {ruleset!r}; known: {known}"), field="ruleset",
            ruleset=ruleset_id, known=known,
        ) from None
