"""The expected final scores from an empty card, against the published values.

Each Yahtzee table takes a few seconds to solve and Yatzy's (2^15 cards) a little longer,
so these are ``slow`` tests; Forced Yatzy's is in ``test_tables.py`` (a fraction of a
second).
"""

from math import isclose
from pathlib import Path

import pytest

from scoring.boxgames.strategy import advise, build_table, load_table
from scoring.strategy.combinatorics import dice_space

PUBLISHED = [
    ("yahtzee", {}, 254.5877),
    ("yahtzee", {"joker": "free"}, 254.5896),
    ("yahtzee", {"yahtzee_bonus": "none", "joker": "none"}, 245.8708),
    ("yatzy", {}, 248.4400),
]


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "options", "published"), PUBLISHED)
def test_start_of_game_value_matches_the_published_one(
    folder: Path, ruleset: str, options: dict, published: float
) -> None:
    build_table(ruleset, options, folder)
    answer = advise(ruleset, options, None, 0, None, None, folder)
    assert abs(answer.expected_final - published) < 0.001
    assert abs(load_table(ruleset, options, folder).meta["start_value"] - published) < 0.001


@pytest.mark.slow
@pytest.mark.parametrize("joker", ["forced", "free", "none"])
def test_every_bonus_rule_builds_and_more_bonus_is_worth_more(folder: Path, joker: str) -> None:
    values = [
        load_table("yahtzee", {"joker": joker, "yahtzee_bonus": bonus}, folder).start_value
        for bonus in ("none", "single", "unlimited")
    ]
    assert values == sorted(values)


@pytest.mark.slow
def test_the_first_turn_is_the_mean_of_the_advice_over_first_rolls(folder: Path) -> None:
    space = dice_space(5)
    start = advise("yahtzee", {}, None, 0, None, None, folder).expected_final
    mean = sum(
        p * advise("yahtzee", {}, None, 0, list(roll), 2, folder).expected_final
        for p, roll in zip(space.first_roll, space.rolls, strict=True)
    )
    assert isclose(start, mean, abs_tol=1e-4)
