"""Shared helpers for the Yatzy-family tests (docs/games/yatzy.md): the three rulesets, their box
ids in table order, the calculator, and refused moves.  Games are played with the
``Table`` of ``yahtzee_support``, given the ruleset."""

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from yahtzee_support import ScriptedRng, Table, refused

import scoring

YATZY = scoring.get_ruleset("yatzy")
FORCED = scoring.get_ruleset("forced-yatzy")
MAXI = scoring.get_ruleset("maxi-yatzy")
FAMILY = (YATZY, FORCED, MAXI)

UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
YATZY_LOWER = (
    "one_pair", "two_pairs", "three_of_a_kind", "four_of_a_kind", "small_straight",
    "large_straight", "full_house", "chance", "yatzy",
)
MAXI_LOWER = (
    "one_pair", "two_pairs", "three_pairs", "three_of_a_kind", "four_of_a_kind",
    "five_of_a_kind", "small_straight", "large_straight", "full_straight", "full_house",
    "villa", "tower", "chance", "maxi_yatzy",
)
YATZY_BOXES = UPPER + YATZY_LOWER
MAXI_BOXES = UPPER + MAXI_LOWER
BOXES = {"yatzy": YATZY_BOXES, "forced-yatzy": YATZY_BOXES, "maxi-yatzy": MAXI_BOXES}

# Five dice that fit no combination at all: no pair, no straight.
PLAIN5 = (1, 2, 3, 5, 6)
# Six dice with as little as six dice can have: one pair of ones, no straight.
PLAIN6 = (1, 1, 2, 3, 5, 6)
PLAIN = {"yatzy": PLAIN5, "forced-yatzy": PLAIN5, "maxi-yatzy": PLAIN6}

# A test run once for each ruleset of the family.
each_ruleset = pytest.mark.parametrize("ruleset", FAMILY, ids=[r.id for r in FAMILY])

__all__ = [
    "BOXES", "FAMILY", "FORCED", "MAXI", "MAXI_BOXES", "MAXI_LOWER", "PLAIN", "UPPER", "YATZY",
    "YATZY_BOXES", "YATZY_LOWER", "ScriptedRng", "Table", "card", "each_ruleset", "refused",
    "scores", "table",
]


def table(ruleset: scoring.Ruleset, seats: int = 1) -> Table:
    return Table(seats, ruleset=ruleset)


def card(ruleset: scoring.Ruleset, **filled: int | None) -> dict[str, int | None]:
    """A complete scorecard for the calculator: every box open unless given."""
    boxes = BOXES[ruleset.id]
    unknown = set(filled) - set(boxes)
    assert not unknown, unknown
    return {box: filled.get(box) for box in boxes}


def scores(ruleset: scoring.Ruleset, dice: Sequence[int],
           scorecard: Mapping[str, int | None] | None = None) -> dict[str, int]:
    body: dict[str, Any] = {"dice": list(dice)}
    if scorecard is not None:
        body["scorecard"] = dict(scorecard)
    return ruleset.calculate(body, options=ruleset.validate_options({}))["scores"]


