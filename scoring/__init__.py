"""The rules of the dice games, free of any framework: state in, state out."""

from .dice import Dice, DiceSource, Rng, SequentialDice, secure_rng, seeded_rng
from .errors import ProblemCode, RuleError
from .family import Family, Standings
from .registry import FAMILIES, RULESETS, family_of, get_ruleset
from .ruleset import Category, Entry, Event, Option, Outcome, Ruleset, View
from .verifiable import (
    DerivedDice,
    check_client_seed,
    commitment,
    new_client_seed,
    new_secret,
    seeded_secret,
)

__all__ = [
    "FAMILIES", "RULESETS", "Category", "DerivedDice", "Dice", "DiceSource", "Entry", "Event",
    "Family", "Option", "Outcome", "ProblemCode", "Rng", "RuleError", "Ruleset",
    "SequentialDice", "Standings", "View", "check_client_seed", "commitment", "family_of",
    "get_ruleset", "new_client_seed", "new_secret",
    "secure_rng", "seeded_rng", "seeded_secret",
]
