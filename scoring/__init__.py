"""The rules of the dice games, free of any framework: state in, state out."""

from .dice import Rng, secure_rng, seeded_rng
from .errors import RuleError
from .registry import RULESETS, get_ruleset
from .ruleset import Category, Entry, Event, Option, Outcome, Ruleset, View

__all__ = [
    "RULESETS", "Category", "Entry", "Event", "Option", "Outcome", "Rng", "RuleError",
    "Ruleset", "View", "get_ruleset", "secure_rng", "seeded_rng",
]
